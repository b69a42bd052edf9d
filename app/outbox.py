"""Outgoing e-mail: every message is stored in the outbox, then delivered over SMTP when SMTP_URL is set."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.mail import DeliveryError, build_message, deliver
from app.settings import get_settings
from models.mail import OutboxMessage, OutboxMessageRead, OutboxStatus

logger = logging.getLogger(__name__)


async def send_email(
    *, session: AsyncSession, sender: str | None = None, recipients: list[str], subject: str, html: str
) -> OutboxMessageRead:
    """Store the message and deliver it now if an SMTP server is configured.

    A failed delivery is recorded on the outbox row (status `failed`, with the reason) and returned,
    not raised: the caller decides whether that fails its own intention.
    """
    settings = get_settings()
    row = OutboxMessage(
        sender=sender or settings.mail_from, recipients=recipients, subject=subject, html=html
    )
    session.add(row)
    await session.flush()
    if settings.smtp_url:
        message = build_message(sender=row.sender, recipients=recipients, subject=subject, html=html)
        try:
            await deliver(settings.smtp_url, message)
        except DeliveryError as exc:
            logger.warning("E-mail %s to %d recipient(s) failed: %s", row.id, len(recipients), exc)
            row.status, row.error = OutboxStatus.failed, str(exc)
        else:
            row.status, row.sent_at = OutboxStatus.sent, datetime.now(UTC)
        await session.flush()
    return OutboxMessageRead.model_validate(row)
