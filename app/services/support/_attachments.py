"""Help-desk attachments: staged when uploaded (POST /api/uploads), claimed by the ticket or message they
are sent with, and downloaded (GET /api/attachments/{id}) only by those who may see them:
- the uploader, while the file is staged (not sent yet);
- staff with view_support_tickets;
- the ticket's customer, except for files of internal notes.
Anyone else is told the file does not exist, so an id reveals nothing.

Files staged and never sent are swept after a day; one person holds at most 20 staged files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import case, delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, storage
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from app.services.support._reads import attachment_read
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.staff import Permission
from models.support import AttachmentRead, Ticket, TicketAttachment, TicketMessage

MAX_STAGED = 20
PER_MESSAGE = 5
STAGED_LIFETIME = timedelta(days=1)
ATTACHMENT_NOT_FOUND = "This file does not exist."
TOO_MANY_STAGED = "You have too many files waiting to be sent. Send your message or try again tomorrow."
TOO_MANY_FILES = f"You can attach at most {PER_MESSAGE} files to one message."
NOT_STAGED = "An attached file is missing or was already sent. Please attach it again."


@dataclass(frozen=True)
class AttachmentFile:
    """A file someone may download: what it is and where it lies."""

    attachment: AttachmentRead
    path: Path


async def _sweep_abandoned(session: AsyncSession) -> None:
    """Forget files staged more than a day ago and never sent, and delete them from storage."""
    cutoff = utcnow() - STAGED_LIFETIME
    stale = TicketAttachment.ticket_id.is_(None) & (TicketAttachment.created_at < cutoff)
    keys = list(await session.scalars(select(TicketAttachment.storage_key).where(stale).limit(200)))
    if keys:
        await session.execute(delete(TicketAttachment).where(TicketAttachment.storage_key.in_(keys)))
        for key in keys:
            await storage.remove(key)


async def _check_quotas(session: AsyncSession, *, uploader_id: str, size: int) -> None:
    """UPLOAD_QUOTA_BYTES_PER_DAY per person (any 24 hours) and UPLOAD_STORAGE_BYTES for everybody."""
    settings = get_settings()
    since = utcnow() - timedelta(days=1)
    mine_today, everyone = (
        await session.execute(
            select(
                func.coalesce(
                    func.sum(
                        case(
                            (
                                (TicketAttachment.uploaded_by == uploader_id)
                                & (TicketAttachment.created_at >= since),
                                TicketAttachment.size,
                            )
                        )
                    ),
                    0,
                ),
                func.coalesce(func.sum(TicketAttachment.size), 0),
            )
        )
    ).one()
    if mine_today + size > settings.upload_quota_bytes_per_day:
        raise ValidationFailed(
            f"You can upload up to {settings.upload_quota_bytes_per_day // (1024 * 1024)} MB of files a day. "
            "Please try again tomorrow, or send fewer files.",
            code="quota_exceeded",
        )
    if everyone + size > settings.upload_storage_bytes:
        raise ValidationFailed(
            "File uploads are paused because our storage is full. Please describe the problem in words for now.",
            code="storage_full",
        )


async def stage_attachment(
    *, session: AsyncSession, actor: Principal, filename: str, data: bytes
) -> AttachmentRead:
    """Store an upload of the signed-in user as a staged attachment (not on any ticket yet)."""
    account = await require_account(session=session, actor=actor)
    try:
        name, content_type = storage.check_upload(filename, data)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    await _sweep_abandoned(session)
    staged = (
        await session.execute(
            select(func.count())
            .select_from(TicketAttachment)
            .where(TicketAttachment.uploaded_by == account.id, TicketAttachment.ticket_id.is_(None))
        )
    ).scalar_one()
    if staged >= MAX_STAGED:
        raise ValidationFailed(TOO_MANY_STAGED, code="too_many_uploads")
    await _check_quotas(session, uploader_id=account.id, size=len(data))
    key = await storage.save(data)
    row = TicketAttachment(
        uploaded_by=account.id, filename=name, content_type=content_type, size=len(data), storage_key=key
    )
    session.add(row)
    try:
        await session.flush()
    except Exception:
        await storage.remove(key)
        raise
    return attachment_read(row)


async def claim_attachments(
    session: AsyncSession,
    *,
    uploader_id: str,
    attachment_ids: Sequence[str],
    ticket_id: str,
    message_id: str | None = None,
) -> list[TicketAttachment]:
    """Attach the uploader's staged files to a ticket (and one of its messages)."""
    ids = list(dict.fromkeys(attachment_ids))
    if not ids:
        return []
    if len(ids) > PER_MESSAGE:
        raise ValidationFailed(TOO_MANY_FILES)
    rows = list(
        await session.scalars(
            select(TicketAttachment).where(
                TicketAttachment.id.in_(ids),
                TicketAttachment.uploaded_by == uploader_id,
                TicketAttachment.ticket_id.is_(None),
            )
        )
    )
    if len(rows) != len(ids):
        raise ValidationFailed(NOT_STAGED)
    for row in rows:
        row.ticket_id, row.message_id = ticket_id, message_id
    return sorted(rows, key=lambda row: ids.index(row.id))


async def _may_download(
    session: AsyncSession, account: AccountRead, row: TicketAttachment, ticket: Ticket | None
) -> bool:
    if row.ticket_id is None:
        return row.uploaded_by == account.id
    if Permission.view_support_tickets in await permissions_of(session=session, account=account):
        return True
    if ticket is None or ticket.user_id != account.id:
        return False
    if row.message_id is None:
        return True
    message = await session.get(TicketMessage, row.message_id)
    return message is not None and not message.is_internal


async def open_attachment(*, session: AsyncSession, actor: Principal, attachment_id: str) -> AttachmentFile:
    """The file behind `attachment_id`, if the signed-in user may download it; else NotFound. A download
    of a customer's file by someone else (the help desk) is written to the audit log, with the client's
    address and browser."""
    account = await require_account(session=session, actor=actor)
    row = await session.get(TicketAttachment, attachment_id)
    ticket = await session.get(Ticket, row.ticket_id) if row is not None and row.ticket_id else None
    if row is None or not await _may_download(session, account, row, ticket):
        raise NotFound(ATTACHMENT_NOT_FOUND)
    if ticket is not None and account.id != ticket.user_id:
        await audit.record_by(
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.attachment_download,
            target=row.filename,
            details={"ticket": f"#{ticket.number}", "ticket_id": ticket.id, "attachment_id": row.id},
        )
    return AttachmentFile(attachment_read(row), storage.path_of(row.storage_key))


async def add_message(
    session: AsyncSession,
    ticket: Ticket,
    *,
    sender_id: str,
    content: str,
    from_staff: bool,
    internal: bool,
    attachment_ids: Sequence[str],
    now: datetime,
) -> tuple[TicketMessage, list[TicketAttachment]]:
    """Append a message to the ticket's thread with the sender's staged files attached to it."""
    message = TicketMessage(
        ticket_id=ticket.id,
        sender_id=sender_id,
        from_staff=from_staff,
        content=content,
        is_internal=internal,
        created_at=now,
    )
    session.add(message)
    await session.flush()
    attachments = await claim_attachments(
        session,
        uploader_id=sender_id,
        attachment_ids=attachment_ids,
        ticket_id=ticket.id,
        message_id=message.id,
    )
    return message, attachments
