"""What staff do with invoices: create a draft (its number allocated at once), edit it while it is a draft,
send it (the e-mail with its PDF; a patient recipient is also notified in-app), mark it paid (the payment
posted to the ledger: world → platform_invoices, so every posting still sums to zero), or void it from
draft or sent with a reason. Each command locks the invoice's row before it reads its status (two staff
pressing Send at once send it once) and writes an audit entry.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.mail import Attachment
from app.outbox import Email, send_emails
from app.principal import Principal
from app.services.domain_events import InvoiceSent
from app.services.errors import NotFound, Unavailable, ValidationFailed
from app.services.invoices._document import invoice_email_html, invoice_pdf
from app.services.invoices._reads import reads_of
from app.services.invoices._rules import (
    BAD_METHOD,
    LONG_REFERENCE,
    NEED_REASON,
    NO_INVOICE,
    NOT_DELIVERED,
    NOT_PAYABLE,
    NOT_SENDABLE,
    NOT_VOIDABLE,
    NOTHING_TO_BILL,
    ONLY_DRAFT,
    clean_due,
    clean_lines,
    clean_notes,
    clean_recipient,
    require_invoicing,
    require_payments,
    today,
)
from app.services.ledger import WORLD, move
from app.services.ledger.internal import post
from app.services.shared.locks import write_lock
from app.settings import get_settings
from models.audit import AuditAction
from models.base import new_id, utcnow
from models.invoice import (
    MAX_REASON,
    MAX_REFERENCE,
    Invoice,
    InvoiceCounter,
    InvoiceCreate,
    InvoiceLine,
    InvoiceRead,
    InvoiceStatus,
    InvoiceUpdate,
    PaymentMethod,
)
from models.ledger import AccountKind, EntryKind
from models.mail import OutboxStatus

WALLET_INVOICES = "/dashboard/wallet#invoices"


async def next_number(session: AsyncSession, year: int) -> str:
    """The year's next number, INV-YYYY-NNNNN: one atomic upsert of the year's counter (a concurrent
    creator waits on the row until this unit of work ends, then takes the number after it)."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    upsert = dialect.insert(InvoiceCounter).values(year=year, last=1)
    upsert = upsert.on_conflict_do_update(
        index_elements=[InvoiceCounter.year], set_={"last": InvoiceCounter.last + 1}
    ).returning(InvoiceCounter.last)
    last = (await session.execute(upsert)).scalar_one()
    return f"INV-{year}-{last:05d}"


def _search_text(number: str, name: str, email: str) -> str:
    return f"{number} {name} {email}".lower()[:600]


async def _write_lines(session: AsyncSession, invoice_id: str, lines: list[tuple[str, int, int]]) -> int:
    await session.execute(delete(InvoiceLine).where(InvoiceLine.invoice_id == invoice_id))
    await session.execute(
        insert(InvoiceLine),
        [
            {
                "id": new_id(),
                "invoice_id": invoice_id,
                "position": position,
                "description": description,
                "quantity": quantity,
                "unit_price_cents": price,
                "amount_cents": quantity * price,
            }
            for position, (description, quantity, price) in enumerate(lines, start=1)
        ],
    )
    return sum(quantity * price for _d, quantity, price in lines)


async def create_invoice(*, session: AsyncSession, actor: Principal, data: InvoiceCreate) -> InvoiceRead:
    """Staff (create_invoices): a draft invoice to an organization or a patient, numbered now."""
    staff = await require_invoicing(session=session, actor=actor)
    patient_id, name, email, address = await clean_recipient(session, data)
    lines = clean_lines(data.lines)
    due_on, notes = clean_due(data.due_on), clean_notes(data.notes)
    number = await next_number(session, today().year)
    row = Invoice(
        id=new_id(),
        number=number,
        status=InvoiceStatus.draft,
        recipient_kind=data.recipient_kind,
        patient_id=patient_id,
        recipient_name=name,
        recipient_email=email,
        recipient_address=address,
        search_text=_search_text(number, name, email),
        due_on=due_on,
        notes=notes,
        created_by=staff.id,
    )
    session.add(row)
    await session.flush()
    row.total_cents = await _write_lines(session, row.id, lines)
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.invoice_created,
        target=f"invoice {number}",
        details={"recipient_kind": data.recipient_kind.value, "total_cents": row.total_cents},
    )
    await session.flush()
    return (await reads_of(session, [row]))[0]


async def _locked(session: AsyncSession, invoice_id: str) -> Invoice:
    await write_lock(session, Invoice.id, [invoice_id])
    row = await session.scalar(
        select(Invoice).where(Invoice.id == invoice_id).execution_options(populate_existing=True)
    )
    if row is None:
        raise NotFound(NO_INVOICE)
    return row


async def update_invoice(
    *, session: AsyncSession, actor: Principal, invoice_id: str, data: InvoiceUpdate
) -> InvoiceRead:
    """Staff (create_invoices): change a draft's recipient, lines, due date or notes."""
    staff = await require_invoicing(session=session, actor=actor)
    row = await _locked(session, invoice_id)
    if row.status is not InvoiceStatus.draft:
        raise ValidationFailed(ONLY_DRAFT.format(status=row.status.value))
    patient_id, name, email, address = await clean_recipient(session, data)
    lines = clean_lines(data.lines)
    due_on, notes = clean_due(data.due_on), clean_notes(data.notes)
    row.recipient_kind, row.patient_id = data.recipient_kind, patient_id
    row.recipient_name, row.recipient_email, row.recipient_address = name, email, address
    row.search_text = _search_text(row.number, name, email)
    row.due_on, row.notes = due_on, notes
    row.total_cents = await _write_lines(session, row.id, lines)
    row.updated_at = utcnow()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.invoice_updated,
        target=f"invoice {row.number}",
        details={"total_cents": row.total_cents},
    )
    await session.flush()
    return (await reads_of(session, [row]))[0]


async def send_invoice(
    *, session: AsyncSession, actor: Principal, invoice_id: str, now: datetime | None = None
) -> InvoiceRead:
    """Staff (create_invoices): e-mail a draft to its recipient with its PDF attached; a patient recipient is
    also notified in-app. Refused when the e-mail could not be delivered (the invoice stays a draft)."""
    staff = await require_invoicing(session=session, actor=actor)
    at = now or utcnow()
    row = await _locked(session, invoice_id)
    if row.status is not InvoiceStatus.draft:
        raise ValidationFailed(NOT_SENDABLE.format(status=row.status.value))
    if row.total_cents <= 0:
        raise ValidationFailed(NOTHING_TO_BILL)
    row.status, row.sent_at = InvoiceStatus.sent, at
    await session.flush()
    read = (await reads_of(session, [row]))[0]
    document = invoice_pdf(read)
    site = get_settings().site_url.rstrip("/")
    link = site + WALLET_INVOICES if row.patient_id else ""
    [outbox] = await send_emails(
        session=session,
        emails=[
            Email(
                recipients=[row.recipient_email],
                subject=f"Invoice {row.number} from {get_settings().brand_name}",
                html=invoice_email_html(read, link),
                attachments=(Attachment(document.filename, document.content, document.media_type),),
            )
        ],
    )
    if outbox.status is OutboxStatus.failed:
        raise Unavailable(NOT_DELIVERED.format(reason=(outbox.error or "no answer")[:120]))
    if row.patient_id:
        await events.publish_event(
            session,
            InvoiceSent(
                invoice_id=row.id,
                number=row.number,
                patient_id=row.patient_id,
                total_cents=row.total_cents,
                due_on=read.due_on,
                at=at,
            ),
        )
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.invoice_sent,
        target=f"invoice {row.number}",
        details={"to": row.recipient_email, "total_cents": row.total_cents, "delivered": outbox.status.value},
    )
    return read


async def mark_invoice_paid(
    *,
    session: AsyncSession,
    actor: Principal,
    invoice_id: str,
    method: str,
    reference: str = "",
    now: datetime | None = None,
) -> InvoiceRead:
    """Staff (process_payments): record that a sent invoice was paid in full, how and with which reference;
    the payment is posted to the ledger (world → platform_invoices)."""
    staff = await require_payments(session=session, actor=actor)
    if method not in PaymentMethod.__members__:
        raise ValidationFailed(BAD_METHOD)
    reference = " ".join((reference or "").split())
    if len(reference) > MAX_REFERENCE:
        raise ValidationFailed(LONG_REFERENCE)
    at = now or utcnow()
    row = await _locked(session, invoice_id)
    if row.status is not InvoiceStatus.sent:
        raise ValidationFailed(NOT_PAYABLE.format(status=row.status.value))
    row.ledger_entry_id = await post(
        session=session,
        kind=EntryKind.invoice_paid,
        legs=move(row.total_cents, WORLD, (AccountKind.platform_invoices, "")),
        description=f"Invoice {row.number} paid",
        actor_id=staff.id,
        reason=reference,
        at=at,
    )
    row.status, row.paid_at = InvoiceStatus.paid, at
    row.payment_method, row.payment_reference = method, reference
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.invoice_paid,
        target=f"invoice {row.number}",
        details={"method": method, "reference": reference, "amount_cents": row.total_cents},
    )
    await session.flush()
    return (await reads_of(session, [row]))[0]


async def void_invoice(
    *, session: AsyncSession, actor: Principal, invoice_id: str, reason: str, now: datetime | None = None
) -> InvoiceRead:
    """Staff (create_invoices): void a draft or a sent invoice, with the reason (its number stays used)."""
    staff = await require_invoicing(session=session, actor=actor)
    reason = " ".join((reason or "").split())
    if not reason or len(reason) > MAX_REASON:
        raise ValidationFailed(NEED_REASON)
    row = await _locked(session, invoice_id)
    if row.status not in (InvoiceStatus.draft, InvoiceStatus.sent):
        raise ValidationFailed(NOT_VOIDABLE.format(status=row.status.value))
    previous = row.status
    row.status, row.voided_at, row.void_reason = InvoiceStatus.void, now or utcnow(), reason
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.invoice_voided,
        target=f"invoice {row.number}",
        details={"reason": reason, "from": previous.value},
    )
    await session.flush()
    return (await reads_of(session, [row]))[0]
