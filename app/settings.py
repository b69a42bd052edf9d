"""Settings read from the environment (and an optional `.env` file) with pydantic-settings."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
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
    # NIST SP 800-63B: at least 8 characters; common and guessable passwords are refused too (app/auth/passwords.py).
    password_min_length: int = 8
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
    # Public pages carry their first frame in the HTML (medivisit/reactpy_compat/first_paint.py): how long the
    # page route waits for that frame's data before it answers with what it has (0: no first frame, "Loading…").
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
    # A visit's provider sees the patient's home address and intake notes while the visit is open and for
    # this many hours after it ended or was cancelled; then they are hidden, as the phone number is.
    visit_details_visible_hours: int = Field(default=24, ge=0, le=24 * 30)
    # Held times a patient may have at once: one per visit in their cart, and never more than this.
    max_live_holds_per_patient: int = 10
    # A service request closes after this many hours (or when its last preferred time ends, if sooner).
    service_request_lifetime_hours: int = 72
    # A service request reaches the providers whose service area has a ZIP code within this many miles of
    # the request's (its own ZIP code need not be listed by anyone); they agree to travel by offering.
    service_request_reach_miles: float = Field(default=25.0, ge=0, le=100)
    # The visitor's time zone when the browser has not told us theirs (the `tz` cookie).
    default_time_zone: str = "America/New_York"
    # The server e-mails 24-hour visit reminders from a background task (every minute); tests may turn it
    # off. `python -m medivisit reminders` sends the due ones once (for a cron job instead). The same switch
    # runs the daily digests and the help desk's overdue-ticket notices (each every minute).
    reminders_enabled: bool = True
    # Account deletion (issue 12): a requested deletion waits this many days (the person may cancel), then
    # the periodic job anonymises the account; tests may turn the job off. Data export: downloads per hour.
    account_deletion_grace_days: int = 14
    account_purge_enabled: bool = True
    rate_limit_data_export: int = 5
    # How orders are paid (app/services/booking/_payments.py): "pay_at_visit", the patient pays the provider
    # at the visit and the platform records it when the visit is completed; "stripe", the patient pays by
    # card on Stripe Checkout when placing the order (app/services/payments), which needs both keys below.
    payment_gateway: Literal["pay_at_visit", "stripe"] = "pay_at_visit"
    stripe_secret_key: str = ""  # sk_live_… / sk_test_… (or a restricted key rk_…)
    stripe_webhook_secret: str = ""  # whsec_…: the signing secret of the webhook endpoint
    # Where the Stripe SDK sends its API requests (tests point it at a local server).
    stripe_api_base: str = "https://api.stripe.com"

    # ---- AI assistant's language model (issue 16): any OpenAI-compatible chat-completions server (Ollama
    # http://localhost:11434/v1, vLLM, llama.cpp's llama-server). Unset: the assistant answers with the
    # retrieved passages themselves.
    llm_base_url: str = ""  # including /v1
    llm_model: str = ""
    llm_api_key: str = ""
    llm_timeout_seconds: float = Field(default=30.0, gt=0, le=300)
    # How long a patient has to pay on Stripe Checkout (30 minutes is Stripe's shortest) before the order's
    # visits are released.
    stripe_checkout_minutes: int = Field(default=30, ge=30, le=24 * 60)
    # Money (issue 14): a completed visit's earning stays pending this long (the patient may dispute it)
    # before the provider may request its payout; the smallest payout a provider may request (dollars); a
    # payout above this amount (dollars) needs a second, different approver.
    dispute_window_hours: int = 72
    earnings_release_enabled: bool = True  # the periodic job that releases them (tests may turn it off)
    payout_minimum: Decimal = Decimal("50")
    payout_second_approval_above: Decimal = Decimal("1000")
    # Provider enrollment (issue 13): a rejected applicant may apply again this many days after the decision.
    enrollment_reapply_days: int = Field(default=90, ge=0, le=3650)

    # ---- abuse limits of anonymous-friendly actions (counted in app/ratelimit.py), per 10 minutes ----
    # /functions/v1/send-email per client address; bug reports per reporter (visitor or account) and per
    # client address. 0 turns a limit off.
    rate_limit_send_email: int = 5
    rate_limit_bug_reports: int = 5
    rate_limit_bug_reports_per_ip: int = 10
    abuse_limit_window: int = 600
    rate_limit_assistant: int = 60  # assistant messages per person (or visitor) per abuse_limit_window

    # Unknown paths the 404 tracker keeps for staff (the least visited are dropped first).
    not_found_paths_kept: int = 1000

    # ---- request limits (medivisit/request_guard.py) ----
    # Largest request body in bytes: most routes, and the identity API (/auth/*); uploads: UPLOAD_MAX_BYTES.
    max_request_bytes: int = 1024 * 1024
    max_auth_request_bytes: int = 64 * 1024
    # Websocket frames (medivisit/reactpy_compat/websocket_guard.py): the largest accepted, and the pace a
    # connection is held to after a burst (events a second; 0 turns pacing off).
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

    # ---- automation (issue 15 part 4: outbound webhooks to n8n, app/services/automation) ----
    # May the webhook URL be a private, loopback or link-local address? None: yes in development (a local
    # n8n, the tests), no in production.
    automation_allow_private_urls: bool | None = None
    # The periodic job that sends queued events every 5 s (tests may turn it off and drive it themselves),
    # and how long one request may take.
    automation_delivery_enabled: bool = True
    automation_timeout_seconds: float = Field(default=15, gt=0, le=60)

    @model_validator(mode="after")
    def _environment_defaults(self) -> Settings:
        if self.mailer_autoconfirm is None:
            self.mailer_autoconfirm = not self.is_production
        if self.payment_gateway == "stripe":
            missing = [
                name
                for name, value in (
                    ("STRIPE_SECRET_KEY", self.stripe_secret_key),
                    ("STRIPE_WEBHOOK_SECRET", self.stripe_webhook_secret),
                )
                if not value.strip()
            ]
            if missing:
                raise ValueError(f"PAYMENT_GATEWAY=stripe needs {' and '.join(missing)} to be set")
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
