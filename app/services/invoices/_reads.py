"""Reading invoices: staff's list (status filter, search by number or recipient, pages) and one invoice, a
patient's own invoices (sent, paid or void: never drafts), and an invoice's PDF."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.pdf import PdfFile
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.invoices._document import invoice_pdf
from app.services.invoices._rules import MAX_PAGE_SIZE, MAX_SEARCH, NO_INVOICE, PAGE_SIZE, require_invoicing
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from models.audit import AuditAction
from models.identity import as_utc
from models.invoice import Invoice, InvoiceLine, InvoiceLineRead, InvoicePageRead, InvoiceRead, InvoiceStatus
from models.staff import Permission

BAD_STATUS = "Choose draft, sent, paid or void."


def _page(page: int, page_size: int) -> tuple[int, int]:
    return max(int(page), 1), min(max(int(page_size), 1), MAX_PAGE_SIZE)


def invoice_read(row: Invoice, lines: Sequence[InvoiceLine]) -> InvoiceRead:
    return InvoiceRead(
        id=row.id,
        number=row.number,
        status=row.status,
        recipient_kind=row.recipient_kind,
        patient_id=row.patient_id,
        recipient_name=row.recipient_name,
        recipient_email=row.recipient_email,
        recipient_address=row.recipient_address,
        due_on=row.due_on,
        notes=row.notes,
        total_cents=row.total_cents,
        created_at=as_utc(row.created_at),
        sent_at=as_utc(row.sent_at),
        paid_at=as_utc(row.paid_at),
        payment_method=row.payment_method,
        payment_reference=row.payment_reference,
        voided_at=as_utc(row.voided_at),
        void_reason=row.void_reason,
        lines=[
            InvoiceLineRead(
                position=line.position,
                description=line.description,
                quantity=line.quantity,
                unit_price_cents=line.unit_price_cents,
                amount_cents=line.amount_cents,
            )
            for line in sorted(lines, key=lambda line: line.position)
        ],
    )


async def reads_of(session: AsyncSession, rows: Sequence[Invoice]) -> list[InvoiceRead]:
    """The reads of `rows` with their lines, loaded in one query."""
    if not rows:
        return []
    lines = (
        await session.scalars(
            select(InvoiceLine)
            .where(InvoiceLine.invoice_id.in_([row.id for row in rows]))
            .order_by(InvoiceLine.invoice_id, InvoiceLine.position)
        )
    ).all()
    by_invoice: dict[str, list[InvoiceLine]] = {}
    for line in lines:
        by_invoice.setdefault(line.invoice_id, []).append(line)
    return [invoice_read(row, by_invoice.get(row.id, [])) for row in rows]


async def _page_of(
    session: AsyncSession, conditions: list[ColumnElement[bool]], page: int, page_size: int
) -> InvoicePageRead:
    total = await session.scalar(select(func.count()).select_from(Invoice).where(*conditions)) or 0
    rows = (
        await session.scalars(
            select(Invoice)
            .where(*conditions)
            .order_by(Invoice.created_at.desc(), Invoice.id)
            .offset((page - 1) * page_size)
            .limit(page_size)
        )
    ).all()
    return InvoicePageRead(items=await reads_of(session, rows), total=total, page=page, page_size=page_size)


async def list_invoices(
    *,
    session: AsyncSession,
    actor: Principal,
    status: str = "",
    search: str = "",
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> InvoicePageRead:
    """Staff (create_invoices): every invoice, newest first; `status` narrows them, `search` matches part
    of the number, the recipient's name or e-mail (case-insensitive)."""
    await require_invoicing(session=session, actor=actor)
    page, page_size = _page(page, page_size)
    conditions: list[ColumnElement[bool]] = []
    if status:
        if status not in InvoiceStatus.__members__:
            raise ValidationFailed(BAD_STATUS)
        conditions.append(Invoice.status == InvoiceStatus(status))
    needle = " ".join((search or "").split()).lower()[:MAX_SEARCH]
    if needle:
        conditions.append(Invoice.search_text.contains(needle, autoescape=True))
    return await _page_of(session, conditions, page, page_size)


async def _by_number(session: AsyncSession, number: str) -> Invoice | None:
    return await session.scalar(select(Invoice).where(Invoice.number == (number or "").strip().upper()[:16]))


async def get_invoice(*, session: AsyncSession, actor: Principal, number: str) -> InvoiceRead:
    """Staff (create_invoices): one invoice with its lines."""
    await require_invoicing(session=session, actor=actor)
    row = await _by_number(session, number)
    if row is None:
        raise NotFound(NO_INVOICE)
    return (await reads_of(session, [row]))[0]


async def list_my_invoices(
    *, session: AsyncSession, actor: Principal, page: int = 1, page_size: int = PAGE_SIZE
) -> InvoicePageRead:
    """The signed-in account's invoices as a patient recipient (sent, paid or void), newest first."""
    account = await require_account(session=session, actor=actor)
    page, page_size = _page(page, page_size)
    conditions = [Invoice.patient_id == account.id, Invoice.status != InvoiceStatus.draft]
    return await _page_of(session, conditions, page, page_size)


async def get_invoice_pdf(
    *, session: AsyncSession, actor: Principal, number: str, time_zone: str | None = None
) -> PdfFile:
    """An invoice as PDF: for staff holding create_invoices, or its patient recipient once it was sent
    (anyone else: NotFound, as if there were none). Audited."""
    account = await require_account(session=session, actor=actor)
    row = await _by_number(session, number)
    if row is None:
        raise NotFound(NO_INVOICE)
    own = row.patient_id == account.id and row.status is not InvoiceStatus.draft
    if not own:
        allowed = await permissions_of(session=session, account=account)
        if Permission.create_invoices not in allowed:
            raise NotFound(NO_INVOICE)
    read = (await reads_of(session, [row]))[0]
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.invoice_download,
        target=f"invoice {row.number}",
        details={"patient_id": row.patient_id} if row.patient_id else {},
    )
    if row.patient_id and not own:
        await audit.record_by(  # staff reading a patient's invoice: a read of patient data
            session=session,
            account=account,
            actor=actor,
            action=AuditAction.patient_records_view,
            target=row.patient_id,
            details={"invoice_id": row.id, "invoice": row.number, "via": "invoice"},
        )
    return invoice_pdf(read, time_zone)
