"""Bug reports from the Report Bug dialog: validated, stored and e-mailed to support."""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape

from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.outbox import send_email
from app.principal import Principal
from app.services.errors import Unavailable, ValidationFailed
from app.services.shared.rate_limits import limit
from app.services.shared.signed_in import identity_of
from app.settings import get_settings
from models.bug_report import NOT_LOGGED_IN, BugReport, BugReportRead
from models.mail import OutboxStatus

FIELDS_REQUIRED = "Please fill in all fields"
SEND_FAILED = "Failed to submit bug report. Please try again later."
TOO_MANY = "You have sent several bug reports in the last few minutes. Thank you!"
MAX_TITLE = 200
MAX_DESCRIPTION = 5000
MAX_USER_AGENT = 512


def bug_report_html(
    *, email: str, title: str, description: str, user_id: str, user_agent: str, sent_at: datetime
) -> str:
    """The support e-mail; everything the user typed is escaped."""
    rows = [
        ("From", email),
        ("User ID", user_id),
        ("Browser", user_agent or "Unknown"),
        ("Date", sent_at.strftime("%b %d, %Y %H:%M UTC")),
    ]
    details = "".join(f"<tr><th align='left'>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    body = escape(description).replace("\n", "<br>")
    return (
        f"<h2>Bug Report: {escape(title)}</h2>"
        f"<table cellpadding='4'>{details}</table>"
        f"<h3>Description</h3><p>{body}</p>"
    )


async def submit_bug_report(
    *,
    session: AsyncSession,
    actor: Principal,
    email: str,
    title: str,
    description: str,
    user_agent: str = "",
) -> BugReportRead:
    """Store the report and e-mail it to support. Raises ValidationFailed or Unavailable. Anyone may report;
    the report names the signed-in user only while their session is still valid."""
    email, title, description = email.strip(), title.strip(), description.strip()
    if not (email and title and description):
        raise ValidationFailed(FIELDS_REQUIRED)
    if "@" not in email or len(email) > 320:
        raise ValidationFailed("Please enter a valid email address")
    if len(title) > MAX_TITLE or len(description) > MAX_DESCRIPTION:
        raise ValidationFailed(
            f"Keep the title under {MAX_TITLE} and the description under {MAX_DESCRIPTION} characters"
        )

    settings = get_settings()
    await limit(
        "bug_reports",
        [actor.user_id or actor.visitor_id],
        per_window=settings.rate_limit_bug_reports,
        window=settings.abuse_limit_window,
        message=TOO_MANY,
    )
    await limit(
        "bug_reports_ip",
        [actor.ip],
        per_window=settings.rate_limit_bug_reports_per_ip,
        window=settings.abuse_limit_window,
        message=TOO_MANY,
    )
    identity = await identity_of(session=session, actor=actor)
    report = BugReport(
        email=email,
        title=title,
        description=description,
        user_id=identity.user.id if identity is not None else NOT_LOGGED_IN,
        user_agent=user_agent[:MAX_USER_AGENT],
        created_at=datetime.now(UTC),
    )
    session.add(report)
    await session.flush()
    html = bug_report_html(
        email=email,
        title=title,
        description=description,
        user_id=report.user_id,
        user_agent=report.user_agent,
        sent_at=report.created_at,
    )
    sent = await send_email(
        session=session, recipients=[flags.support_email()], subject=f"Bug Report: {title}", html=html
    )
    if sent.status == OutboxStatus.failed:
        # Nothing is kept: the unit of work rolls back and the user keeps what they typed to try again.
        raise Unavailable(SEND_FAILED)
    return BugReportRead.model_validate(report)
