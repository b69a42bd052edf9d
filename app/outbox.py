"""Outgoing e-mail: every message is stored in the outbox, then delivered over SMTP when SMTP_URL is set.

A message that carries a secret (a one-time code or link: `secret=True`) does not stay readable in the
table: its body is replaced by a notice once it is delivered, or, when it was not, once the secret has
expired (`redact_after`, swept by the first send of every later transaction: a checkout that sends
several messages sweeps once, and stores them with one insert through `send_emails`).

Attachments (an invoice's PDF) travel with the SMTP delivery only: the outbox row keeps the body, not the
file, which its sender can always produce again (the invoice's PDF download).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.mail import Attachment, DeliveryError, build_message, deliver
from app.settings import get_settings
from models.mail import OutboxMessage, OutboxMessageRead, OutboxStatus

logger = logging.getLogger(__name__)


_SWEPT_IN = "outbox_swept_in"  # session.info: the transaction whose first send swept expired secrets
REDACTED = "<p>[This message held a one-time code or link. It was removed after delivery or expiry.]</p>"


@dataclass(frozen=True)
class Email:
    """One message to store and send."""

    recipients: list[str]
    subject: str
    html: str
    sender: str | None = None
    secret: bool = False
    attachments: tuple[Attachment, ...] = ()


_SWEEP = (
    update(OutboxMessage)
    .where(OutboxMessage.redact_after <= bindparam("now"))
    .values(html=REDACTED, redact_after=None)
    .execution_options(synchronize_session=False)
)


async def send_email(
    *,
    session: AsyncSession,
    sender: str | None = None,
    recipients: list[str],
    subject: str,
    html: str,
    secret: bool = False,
) -> OutboxMessageRead:
    """Store the message and deliver it now if an SMTP server is configured.

    A failed delivery is recorded on the outbox row (status `failed`, with the reason) and returned,
    not raised: the caller decides whether that fails its own intention. With `secret`, the stored body is
    removed after delivery, or after MAILER_OTP_EXP when it could not be delivered.
    """
    email = Email(recipients=recipients, subject=subject, html=html, sender=sender, secret=secret)
    return (await send_emails(session=session, emails=[email]))[0]


async def send_emails(*, session: AsyncSession, emails: Sequence[Email]) -> list[OutboxMessageRead]:
    """`send_email` for several messages at once: stored with one insert, then delivered one by one."""
    settings = get_settings()
    now = datetime.now(UTC)
    transaction = session.sync_session.get_transaction()
    if transaction is None or session.info.get(_SWEPT_IN) is not transaction:
        await session.execute(_SWEEP, {"now": now})
        session.info[_SWEPT_IN] = session.sync_session.get_transaction()
    rows = [
        OutboxMessage(
            sender=email.sender or settings.mail_from,
            recipients=email.recipients,
            subject=email.subject,
            html=email.html,
            redact_after=now + timedelta(seconds=settings.mailer_otp_exp) if email.secret else None,
        )
        for email in emails
    ]
    session.add_all(rows)
    await session.flush()
    if settings.smtp_url:
        for row, email in zip(rows, emails, strict=True):
            message = build_message(
                sender=row.sender,
                recipients=email.recipients,
                subject=email.subject,
                html=email.html,
                attachments=email.attachments,
            )
            try:
                await deliver(settings.smtp_url, message)
            except DeliveryError as exc:
                logger.warning("E-mail %s to %d recipient(s) failed: %s", row.id, len(email.recipients), exc)
                row.status, row.error = OutboxStatus.failed, str(exc)
            else:
                row.status, row.sent_at = OutboxStatus.sent, datetime.now(UTC)
                if email.secret:
                    row.html, row.redact_after = REDACTED, None
        await session.flush()
    return [OutboxMessageRead.model_validate(row) for row in rows]
