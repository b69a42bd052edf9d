"""The invoices domain's words, limits, gates and the checks of what staff type.

Permissions (SPEC §6): creating, editing, sending, voiding and reading invoices need `create_invoices`;
recording a payment (marking one paid) needs `process_payments`, the permission of every other command
that books money received into the ledger (refunds, goodwill credit, payouts): whoever confirms that money
arrived is a payments role, which may be, but need not be, the person who issued the invoice.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.accounts import account_of
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.identity import User
from models.invoice import (
    MAX_ADDRESS,
    MAX_DESCRIPTION,
    MAX_EMAIL,
    MAX_LINES,
    MAX_NAME,
    MAX_NOTES,
    MAX_QUANTITY,
    MAX_REASON,
    MAX_REFERENCE,
    MAX_UNIT_PRICE_CENTS,
    InvoiceCreate,
    InvoiceLineInput,
    PaymentMethod,
    RecipientKind,
)
from models.staff import Permission

PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
MAX_SEARCH = 100
MAX_DUE_DAYS = 366

NO_INVOICE = "No invoice has this number."
NEED_NAME = "Enter the organization's name."
NEED_EMAIL = "Enter a billing e-mail address such as billing@example.com."
NO_PATIENT = "No account has this e-mail address. Enter the e-mail the patient signs in with."
LONG_NAME = f"The name can be at most {MAX_NAME} characters."
LONG_ADDRESS = f"The address can be at most {MAX_ADDRESS} characters."
LONG_NOTES = f"The notes can be at most {MAX_NOTES} characters."
NO_LINES = "Add at least one line."
TOO_MANY_LINES = f"An invoice can have at most {MAX_LINES} lines."
LINE_DESCRIPTION = "Line {n}: describe what is billed (at most " + str(MAX_DESCRIPTION) + " characters)."
LINE_QUANTITY = "Line {n}: the quantity is a whole number from 1 to " + f"{MAX_QUANTITY:,}."
LINE_PRICE = "Line {n}: the unit price is between $0.00 and " + f"${MAX_UNIT_PRICE_CENTS // 100:,}."
DUE_PAST = "The due date cannot be in the past."
DUE_FAR = "The due date can be at most a year ahead."
NOTHING_TO_BILL = "An invoice of $0.00 cannot be sent: add a line with a price."
ONLY_DRAFT = "This invoice was {status}: only a draft can be edited."
NOT_SENDABLE = "This invoice is {status}: only a draft can be sent."
NOT_PAYABLE = "This invoice is {status}: only a sent invoice can be marked paid."
NOT_VOIDABLE = "This invoice is {status}: only a draft or a sent invoice can be voided."
NEED_REASON = f"Give the reason for voiding it (at most {MAX_REASON} characters)."
BAD_METHOD = "Choose how it was paid."
LONG_REFERENCE = f"The payment reference can be at most {MAX_REFERENCE} characters."
NOT_DELIVERED = "The invoice e-mail could not be delivered ({reason}). It is still a draft: try again."

METHOD_LABELS = {
    PaymentMethod.bank_transfer: "Bank transfer",
    PaymentMethod.card: "Card",
    PaymentMethod.check: "Check",
    PaymentMethod.cash: "Cash",
    PaymentMethod.other: "Other",
}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


async def require_invoicing(*, session: AsyncSession, actor: Principal) -> AccountRead:
    return await require_permission(session=session, actor=actor, permission=Permission.create_invoices)


async def require_payments(*, session: AsyncSession, actor: Principal) -> AccountRead:
    return await require_permission(session=session, actor=actor, permission=Permission.process_payments)


def today() -> date:
    return datetime.now(UTC).date()


def clean_lines(lines: list[InvoiceLineInput]) -> list[tuple[str, int, int]]:
    """(description, quantity, unit price cents) of each line, or the first problem in words."""
    if not lines:
        raise ValidationFailed(NO_LINES)
    if len(lines) > MAX_LINES:
        raise ValidationFailed(TOO_MANY_LINES)
    cleaned = []
    for n, line in enumerate(lines, start=1):
        description = " ".join((line.description or "").split())
        if not description or len(description) > MAX_DESCRIPTION:
            raise ValidationFailed(LINE_DESCRIPTION.format(n=n))
        if not 1 <= int(line.quantity) <= MAX_QUANTITY:
            raise ValidationFailed(LINE_QUANTITY.format(n=n))
        if not 0 <= int(line.unit_price_cents) <= MAX_UNIT_PRICE_CENTS:
            raise ValidationFailed(LINE_PRICE.format(n=n))
        cleaned.append((description, int(line.quantity), int(line.unit_price_cents)))
    return cleaned


async def clean_recipient(session: AsyncSession, data: InvoiceCreate) -> tuple[str | None, str, str, str]:
    """(patient id, name, e-mail, address) of the recipient, or the first problem in words."""
    address = (data.recipient_address or "").strip()
    if len(address) > MAX_ADDRESS:
        raise ValidationFailed(LONG_ADDRESS)
    if data.recipient_kind is RecipientKind.patient:
        email = (data.patient_email or "").strip().lower()[:MAX_EMAIL]
        user = await session.scalar(select(User).where(User.email == email)) if email else None
        if user is None:
            raise ValidationFailed(NO_PATIENT)
        name = account_of(user).name.strip() or email
        return user.id, name[:MAX_NAME], email, address
    name = " ".join((data.recipient_name or "").split())
    if not name:
        raise ValidationFailed(NEED_NAME)
    if len(name) > MAX_NAME:
        raise ValidationFailed(LONG_NAME)
    email = (data.recipient_email or "").strip().lower()
    if len(email) > MAX_EMAIL or not _EMAIL.match(email):
        raise ValidationFailed(NEED_EMAIL)
    return None, name, email, address


def clean_due(due_on: date) -> date:
    # A day of slack: the staff member's today may still be UTC's yesterday.
    if due_on < today() - timedelta(days=1):
        raise ValidationFailed(DUE_PAST)
    if due_on > today() + timedelta(days=MAX_DUE_DAYS):
        raise ValidationFailed(DUE_FAR)
    return due_on


def clean_notes(notes: str) -> str:
    notes = (notes or "").strip()
    if len(notes) > MAX_NOTES:
        raise ValidationFailed(LONG_NOTES)
    return notes
