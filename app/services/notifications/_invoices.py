"""Invoices (app/services/invoices): a patient hears that an invoice was e-mailed to them (`InvoiceSent`'s
subscriber, in the sending transaction)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.pdf import money_cents
from app.services.domain_events import InvoiceSent
from app.services.notifications._delivery import notify
from models.notification import NotificationKind

WALLET_INVOICES = "/dashboard/wallet#invoices"


async def tell_invoice_sent(session: AsyncSession, sent: InvoiceSent) -> None:
    await notify(
        session=session,
        recipients=[sent.patient_id],
        kind=NotificationKind.invoice_sent,
        link=WALLET_INVOICES,
        title=f"Invoice {sent.number}: {money_cents(sent.total_cents)} due {sent.due_on:%b} {sent.due_on.day}",
        body="We e-mailed it to you with its PDF; it is also under Invoices in your wallet.",
        now=sent.at,
    )
