"""Settings read from the environment (and an optional `.env` file) with pydantic-settings."""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VAR_DIR = PROJECT_ROOT / "var"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(default_factory=lambda: f"sqlite:///{VAR_DIR / 'medivisit.db'}")
    brand_name: str = "MediVisit"
    smtp_url: str | None = None
    support_email: str = "support@medivisit.example"
    mail_from: str = "MediVisit <no-reply@medivisit.example>"
    app_env: Literal["development", "production"] = "development"
    # PostgreSQL's cost of a random page read for this app's connections: 1.1 suits SSD and cloud storage
    # (the server default, 4, assumes spinning disks and makes provider search prefer sequential scans over
    # its indexes: p95 118 → 99 ms at 100,000 providers). 0 keeps the server's setting.
    postgres_random_page_cost: float = 1.1
    # Shared rate-limit counters for several workers or hosts (app/ratelimit.py); unset: PostgreSQL when that
    # is the database, else this process's memory.
    redis_url: str | None = None
    var_dir: Path = VAR_DIR
    # Mounts /__test__/broken, a screen that raises, so the browser tests can check the error screen.
    medivisit_test_broken_screen: bool = False

    # ---- identity service (/auth/v1, wire-compatible with Supabase Auth / GoTrue) ----
    # Where the browser app lives: default redirect target of e-mail links, TOTP issuer.
    site_url: str = "http://localhost:8000"
    # Public URL of /auth/v1 (e-mail links, `iss`); derived from the request when unset.
    api_external_url: str | None = None
    # Extra allowed `redirect_to` targets, comma-separated; `*` matches within a path segment, `**` anything.
    uri_allow_list: str = ""
    # The signing key: a PEM private key, a private JWK or a JWK array (GoTrue's JWT_KEYS format).
    # Unset: an ES256 key is generated on first start and kept in `jwt_key_file` (default var/jwt_keys.json).
    jwt_private_key: str | None = None
    jwt_key_file: Path | None = None
    jwt_kid: str | None = None
    jwt_issuer: str | None = None
    jwt_exp: int = 3600
    # Fernet key (32 url-safe base64 bytes) encrypting secrets kept at rest (TOTP seeds); unset: derived from
    # the signing key's secret, so hosts that share the signing key share it.
    data_encryption_key: str | None = None
    jwt_aud: str = "authenticated"
    # None: on in development, off in production (resolved below).
    mailer_autoconfirm: bool | None = None
    mailer_otp_exp: int = 86_400
    mailer_otp_length: int = 6
    smtp_max_frequency: int = 60  # seconds between two e-mails of one kind to one user
    disable_signup: bool = False
    # "open": anyone may sign up. "waitlist": /register puts the address on a waitlist and the identity API
    # refuses new users (`signup_disabled`); an owner or admin approves entries, which e-mails an invitation.
    signups: Literal["open", "waitlist"] = "open"
    password_min_length: int = 6
    # argon2id cost (RFC 9106 low-memory profile by default); tests lower it for speed.
    password_hash_memory_kib: int = 65_536
    password_hash_time_cost: int = 3
    # Threads that hash passwords (0: one per CPU core); further checks wait in line for one.
    password_hash_concurrency: int = 0
    # Password checks of one client address that run at once (0: no limit); up to the second number more
    # wait for their turn, and beyond that the address gets 429 at once.
    password_checks_per_ip: int = 2
    password_checks_waiting_per_ip: int = 64
    # Account defence that never locks the owner out: after this many failed password sign-ins to one
    # account within `rate_limit_window`, every further failure is answered only after the delay below
    # (a right password is never delayed, from any address).
    sign_in_failures_before_delay: int = 5
    sign_in_failure_delay_ms: int = 1000
    # GoTrue format: character sets separated by `:`, each needed at least once (e.g. "abc…z:ABC…Z:0123456789").
    password_required_characters: str = ""
    # User metadata (`data`) is copied into every access token and the session cookie: keep it small.
    max_user_metadata_bytes: int = 4096
    refresh_token_reuse_interval: int = 10
    # Automatic logoff (HIPAA §164.312(a)(2)(iii)): a session ends after this many seconds without activity
    # (staff roles, and everybody else), and in any case this long after sign-in. 0 turns one off.
    sessions_inactivity_timeout_staff: int = 900
    sessions_inactivity_timeout: int = 3600
    sessions_timebox: int = 12 * 3600
    flow_state_expiry: int = 300
    mfa_challenge_expiry: int = 300
    mfa_max_enrolled_factors: int = 10
    # Requests per client IP and per e-mail address in a window; 0 disables a limit.
    rate_limit_window: int = 300
    rate_limit_token: int = 150
    rate_limit_verify: int = 30
    rate_limit_otp: int = 30  # signup, otp, recover, resend
    rate_limit_mfa: int = 15  # per minute
    rate_limit_email_sent: int = 30  # per hour, instance-wide
    # External OpenID Connect sign-in ('Continue with <OIDC_NAME>'); enabled when all three are set.
    oidc_issuer: str | None = None
    oidc_client_id: str | None = None
    oidc_client_secret: str | None = None
    oidc_name: str = "SSO"

    # Accounts that get the owner role (comma-separated; used by the staff portal).
    owner_emails: str = ""
    # Browser sessions (app/auth/browser.py, static/js/auth.js): how often a tab checks its access token
    # (SPEC §9: 30 s; it refreshes when under three ticks remain). Tests shorten it.
    auth_refresh_tick_ms: int = 30_000
    # Public pages carry their first frame in the HTML (medivisit/first_paint.py): how long the page route
    # waits for that frame's data before it answers with what it has (0: no first frame, "Loading…").
    first_paint_budget_ms: int = 300

    # ---- marketplace: flash sale and booking windows ----
    # SPEC §1, §9: 30% off IV therapies for 24 hours. Unset day: the sale runs every day (the banner counts
    # down to the end of each day); set FLASH_SALE_DAY=YYYY-MM-DD to run it on that day only.
    flash_sale_enabled: bool = True
    flash_sale_day: date | None = None
    flash_sale_time_zone: str = "America/New_York"
    # Slots: travel time kept free between two visits, how far ahead a visit must be booked, how far ahead
    # it may be booked, and the spacing of offered start times.
    slot_travel_buffer_minutes: int = 30
    slot_min_notice_minutes: int = 120
    slot_horizon_days: int = 30
    slot_step_minutes: int = 30
    # A patient may cancel or reschedule a visit free of charge up to 24 hours before it starts, while the
    # provider has not confirmed it yet, and within this many minutes of booking it (a mistake put right).
    cancel_grace_minutes: int = 15
    # Held times a patient may have at once: one per visit in their cart, and never more than this.
    max_live_holds_per_patient: int = 10
    # The visitor's time zone when the browser has not told us theirs (the `tz` cookie).
    default_time_zone: str = "America/New_York"
    # The server e-mails 24-hour visit reminders from a background task (every minute); tests may turn it
    # off. `python -m medivisit reminders` sends the due ones once (for a cron job instead).
    reminders_enabled: bool = True
    # How orders are paid (app/services/payments.py): "pay_at_visit", the patient pays the provider at the
    # visit and the platform records it when the visit is completed.
    payment_gateway: Literal["pay_at_visit"] = "pay_at_visit"

    # ---- abuse limits of anonymous-friendly actions (counted in app/ratelimit.py), per 10 minutes ----
    # /functions/v1/send-email per client address; bug reports per reporter (visitor or account) and per
    # client address. 0 turns a limit off.
    rate_limit_send_email: int = 5
    rate_limit_bug_reports: int = 5
    rate_limit_bug_reports_per_ip: int = 10
    abuse_limit_window: int = 600

    # Unknown paths the 404 tracker keeps for staff (the least visited are dropped first).
    not_found_paths_kept: int = 1000

    # ---- request limits (medivisit/request_guard.py) ----
    # Largest request body in bytes: most routes, and the identity API (/auth/*); uploads: UPLOAD_MAX_BYTES.
    max_request_bytes: int = 1024 * 1024
    max_auth_request_bytes: int = 64 * 1024
    # Websocket frames (medivisit/websocket_guard.py): the largest accepted, and the pace a connection is held
    # to after a burst (events a second; 0 turns pacing off).
    max_websocket_message_bytes: int = 64 * 1024
    websocket_events_per_second: int = 20
    websocket_event_burst: int = 60

    # ---- help-desk attachments (app/storage.py) ----
    # Where uploaded files are kept; unset: <VAR_DIR>/uploads.
    upload_dir: Path | None = None
    upload_max_bytes: int = 5 * 1024 * 1024
    # What one person may upload in any 24 hours, and what all uploads together may take.
    upload_quota_bytes_per_day: int = 50 * 1024 * 1024
    upload_storage_bytes: int = 20 * 1024 * 1024 * 1024

    # ---- browser security (medivisit/security_headers.py) ----
    # Strict-Transport-Security max-age in seconds, sent on https requests only (directly, or behind a proxy
    # in FORWARDED_ALLOW_IPS that says X-Forwarded-Proto: https); 0 sends none.
    hsts_max_age: int = 365 * 24 * 3600

    # ---- form drafts (app/services/drafts) ----
    # How long an unsent draft (a ticket, a reply, a review, visit notes) is kept after its last change.
    draft_lifetime_days: int = 7
    # Typing is saved this long after the last keystroke (one write per pause, not per key).
    draft_save_delay_ms: int = 800

    @model_validator(mode="after")
    def _environment_defaults(self) -> Settings:
        if self.mailer_autoconfirm is None:
            self.mailer_autoconfirm = not self.is_production
        return self

    @property
    def is_production(self) -> bool:
        return self.app_env == "production"

    @property
    def uploads_path(self) -> Path:
        return self.upload_dir or self.var_dir / "uploads"

    @property
    def owner_email_set(self) -> frozenset[str]:
        """OWNER_EMAILS, normalised: the addresses that are always owners."""
        return frozenset(e.strip().lower() for e in self.owner_emails.split(",") if e.strip())

    @property
    def signups_closed(self) -> bool:
        """Nobody may create an account by themselves (DISABLE_SIGNUP, or SIGNUPS=waitlist)."""
        return self.disable_signup or self.signups == "waitlist"


@lru_cache
def get_settings() -> Settings:
    return Settings()
