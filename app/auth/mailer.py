"""The e-mails of the identity service: a 6-digit code and, except for reauthentication, a link to
`GET /auth/v1/verify?token=<token_hash>&type=<type>&redirect_to=<url>`.

Sends go through `app.outbox.send_email` (outbox + SMTP). One kind of e-mail reaches one user
at most once per SMTP_MAX_FREQUENCY seconds, and the instance sends at most RATE_LIMIT_EMAIL_SENT an hour.
"""

from __future__ import annotations

import math
from datetime import timedelta
from html import escape
from urllib.parse import urlencode

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.auth.common import RequestOrigin, now, older_than, safe_redirect
from app.auth.errors import too_many_requests, unexpected
from app.auth.ratelimit import enforce
from app.auth.tokens import email_token_hash, otp_code, stored_token_hash
from app.outbox import send_email
from app.settings import get_settings
from models.identity import OneTimeToken, User, as_utc
from models.mail import OutboxStatus

# kind -> (one_time_tokens.token_type, users.<sent-at column>)
KINDS = {
    "signup": ("confirmation_token", "confirmation_sent_at"),
    "invite": ("confirmation_token", "invited_at"),
    "magiclink": ("recovery_token", "recovery_sent_at"),
    "recovery": ("recovery_token", "recovery_sent_at"),
    "email_change": ("email_change_token_new", "email_change_sent_at"),
    # Secure e-mail change: the current address confirms too (GoTrue MAILER_SECURE_EMAIL_CHANGE_ENABLED).
    "email_change_current": ("email_change_token_current", "email_change_sent_at"),
    "reauthentication": ("reauthentication_token", "reauthentication_sent_at"),
}

_TEMPLATES = {
    "signup": ("Confirm your sign-up", "Confirm your e-mail address", "Confirm my e-mail address"),
    "invite": ("You are invited", "Your place is ready", "Accept the invitation and choose a password"),
    "magiclink": ("Your sign-in link", "Sign in", "Sign me in"),
    "recovery": ("Reset your password", "Reset your password", "Choose a new password"),
    "email_change": (
        "Confirm your new e-mail address",
        "Confirm the change of your e-mail address",
        "Confirm",
    ),
    "email_change_current": (
        "Confirm the change of your e-mail address",
        "Someone asked to move your account to another e-mail address",
        "Yes, it was me: confirm the change",
    ),
    "reauthentication": ("Confirm it is you", "Confirm it is you", ""),
}


def _render(kind: str, *, code: str, link: str | None) -> tuple[str, str]:
    brand = escape(get_settings().brand_name)
    subject, heading, action = _TEMPLATES[kind]
    parts = [f"<h2>{escape(heading)}</h2>"]
    if link:
        parts.append(f'<p><a href="{escape(link)}">{escape(action)}</a></p>')
        parts.append("<p>Or enter this code:</p>")
    else:
        parts.append("<p>Enter this code:</p>")
    parts.append(f'<p style="font-size:1.5em;letter-spacing:.2em"><strong>{escape(code)}</strong></p>')
    parts.append(f"<p>If you did not ask for this e-mail, ignore it. — {brand}</p>")
    return f"{get_settings().brand_name}: {subject}", "\n".join(parts)


def check_send_frequency(user: User, kind: str) -> None:
    """429 `over_email_send_rate_limit` if this kind of e-mail went to the user less than 60 s ago."""
    interval = get_settings().smtp_max_frequency
    last = as_utc(getattr(user, KINDS[kind][1]))
    if last is not None and not older_than(last, interval):
        wait = math.ceil((last + timedelta(seconds=interval) - now()).total_seconds())
        raise too_many_requests(
            "over_email_send_rate_limit",
            f"For security purposes, you can only request this after {max(wait, 1)} seconds.",
            retry_after=max(wait, 1),
        )


async def send_otp_email(
    *,
    session: AsyncSession,
    user: User,
    kind: str,
    origin: RequestOrigin,
    redirect_to: str | None = None,
    address: str | None = None,
    pkce: bool = False,
    check_frequency: bool = True,
) -> None:
    settings = get_settings()
    token_type, sent_column = KINDS[kind]
    if check_frequency:
        check_send_frequency(user, kind)
    await enforce(
        "email",
        ["instance"],
        limit=settings.rate_limit_email_sent,
        window=3600,
        code="over_email_send_rate_limit",
    )
    address = address or user.email or ""
    code = otp_code(settings.mailer_otp_length)
    link_token = ("pkce_" if pkce else "") + email_token_hash(address, code)
    stored = stored_token_hash(link_token)
    moment = now()
    row = await session.scalar(
        select(OneTimeToken).where(OneTimeToken.user_id == user.id, OneTimeToken.token_type == token_type)
    )
    if row is None:
        session.add(
            OneTimeToken(
                user_id=user.id,
                token_type=token_type,
                token_hash=stored,
                relates_to=address,
                created_at=moment,
                updated_at=moment,
            )
        )
    else:
        row.token_hash, row.relates_to, row.created_at, row.updated_at = stored, address, moment, moment
    setattr(user, sent_column, moment)
    link = None
    if kind != "reauthentication":
        link_type = "email_change" if kind == "email_change_current" else kind
        query = urlencode({"token": link_token, "type": link_type, "redirect_to": safe_redirect(redirect_to)})
        link = f"{origin.api_url}/verify?{query}"
    subject, html = _render(kind, code=code, link=link)
    message = await send_email(session=session, recipients=[address], subject=subject, html=html, secret=True)
    if message.status == OutboxStatus.failed:
        raise unexpected(f"Error sending {kind} email")


async def send_email_changed_notice(*, session: AsyncSession, old_email: str, new_email: str) -> None:
    """Tell the address an account just left (GoTrue's "email changed" notification): if it was not its
    owner's doing, they know at once and whom to ask."""
    settings = get_settings()
    brand = escape(settings.brand_name)
    html = (
        "<h2>Your e-mail address was changed</h2>"
        f"<p>Your {brand} account now signs in with <strong>{escape(new_email)}</strong> instead of this address."
        "</p><p>If you did not ask for this, write to "
        f'<a href="mailto:{escape(flags.support_email())}">{escape(flags.support_email())}</a> at once.</p>'
    )
    await send_email(
        session=session,
        recipients=[old_email],
        subject=f"{settings.brand_name}: your e-mail address was changed",
        html=html,
    )
