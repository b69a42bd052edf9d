"""Data export (the right of access): everything the account holds about its owner, as one JSON document.

What it holds: everything the person can see of themselves — the profile, the saved address, orders and
the visits booked (with their money), store orders with their lines and shipping address, invoices sent to
them with their lines, service requests with their notes and the offers they received, the wallet (balances
and every movement), notifications and notification preferences, help-desk tickets with their messages
(never staff's internal notes), the reviews written, the signed-in sessions, and, for a provider, the
provider profile and the visits they gave (date, service, status, price; never the patients' names,
addresses or notes: those are other people's data). Every time is ISO 8601 in UTC with its offset
("2026-12-01T15:00:00+00:00"). Each export is audited and limited (`RATE_LIMIT_DATA_EXPORT` an hour per
account).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import ratelimit
from app.principal import Principal
from app.services.accounts._lifecycle import get_account_status, get_saved_address
from app.services.accounts._sessions import audit_own, list_sessions
from app.services.errors import RateLimited
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.audit import AuditAction
from models.base import utcnow
from models.booking import Appointment, Order, Transaction
from models.catalog import Service
from models.dispute import Dispute
from models.identity import as_utc
from models.invoice import Invoice, InvoiceLine, InvoiceStatus
from models.ledger import AccountKind, JournalEntry, LedgerAccount, Posting
from models.notification import Notification, NotificationPreference
from models.provider import Provider, Review
from models.service_request import ServiceRequest, ServiceRequestOffer
from models.store import StoreOrder, StoreOrderLine
from models.support import Ticket, TicketMessage

EXPORT_FORMAT = "medivisit-account-export/1"
EXPORT_WINDOW = 3600
TOO_MANY = "You downloaded your data several times in the last hour. Please try again later."
MAX_ROWS = 10_000  # per kind: far beyond one person's records, a bound on one answer


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return as_utc(value).isoformat()  # the database keeps UTC; SQLite hands it back without its zone
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _row(row: Any, *columns: str) -> dict[str, Any]:
    return {name: _plain(getattr(row, name)) for name in columns}


async def export_my_data(*, session: AsyncSession, actor: Principal) -> dict[str, Any]:
    """The signed-in account's own records as a JSON-ready dict."""
    account = await require_account(session=session, actor=actor)
    settings = get_settings()
    if settings.rate_limit_data_export:
        wait = await ratelimit.hit(
            "data_export", account.id, limit=settings.rate_limit_data_export, window=EXPORT_WINDOW
        )
        if wait is not None:
            raise RateLimited(TOO_MANY, retry_after=int(wait) + 1)
    me = account.id
    status = await get_account_status(session=session, actor=actor)
    address = await get_saved_address(session=session, actor=actor)
    orders = await session.scalars(
        select(Order).where(Order.patient_id == me).order_by(Order.created_at).limit(MAX_ROWS)
    )
    visits = await session.execute(
        select(Appointment, Service.name)
        .join(Service, Service.id == Appointment.service_id)
        .where(Appointment.patient_id == me)
        .order_by(Appointment.starts_at)
        .limit(MAX_ROWS)
    )
    payments = await session.scalars(
        select(Transaction).where(Transaction.user_id == me).order_by(Transaction.created_at).limit(MAX_ROWS)
    )
    tickets = list(
        await session.scalars(
            select(Ticket).where(Ticket.user_id == me).order_by(Ticket.created_at).limit(MAX_ROWS)
        )
    )
    messages = await session.scalars(
        select(TicketMessage)
        .where(TicketMessage.ticket_id.in_([t.id for t in tickets]), TicketMessage.is_internal.is_(False))
        .order_by(TicketMessage.created_at)
        .limit(MAX_ROWS)
    )
    thread: dict[str, list[dict[str, Any]]] = {}
    for message in messages:
        thread.setdefault(message.ticket_id, []).append(
            {
                "from": "you" if message.sender_id == me else ("support" if message.from_staff else "other"),
                **_row(message, "content", "created_at"),
            }
        )
    reviews = await session.scalars(
        select(Review).where(Review.author_id == me).order_by(Review.created_at).limit(MAX_ROWS)
    )
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": _plain(utcnow()),
        "profile": {
            **account.model_dump(
                include={"id", "email", "name", "first_name", "last_name", "role", "profile_image"}
                | {"organization", "phone_number", "is_vip"}
            ),
            "role": account.role.value,
            "pending_email": status.pending_email,
            "deletion_due_at": _plain(status.deletion_due_at),
        },
        "addresses": [address.model_dump()] if address else [],
        "orders": [
            _row(
                o,
                "id",
                "number",
                "status",
                "subtotal",
                "platform_fee",
                "total",
                "payment_method",
                "created_at",
            )
            for o in orders
        ],
        "visits": [
            {
                **_row(v, "id", "order_id", "status", "starts_at", "ends_at", "location", "address_line"),
                **_row(v, "city", "state", "zip_code", "notes", "price", "cancelled_by", "cancel_reason"),
                "service": service_name,
            }
            for v, service_name in visits
        ],
        "payments": [
            _row(p, "id", "order_id", "appointment_id", "type", "status", "amount", "currency", "created_at")
            for p in payments
        ],
        "tickets": [
            {
                **_row(
                    t, "number", "subject", "description", "status", "category", "created_at", "closed_at"
                ),
                "messages": thread.get(t.id, []),
            }
            for t in tickets
        ],
        "reviews": [
            _row(r, "id", "provider_id", "appointment_id", "rating", "comment", "created_at") for r in reviews
        ],
        "sessions": [_plain(s.model_dump()) for s in await list_sessions(session=session, actor=actor)],
        "store_orders": await _store_orders(session, me),
        "reported_problems": [
            _row(d, "id", "appointment_id", "reason", "details", "status", "refunded_cents")
            | _row(d, "resolution_note", "opened_at", "resolved_at")
            for d in await session.scalars(
                select(Dispute).where(Dispute.patient_id == me).order_by(Dispute.opened_at).limit(MAX_ROWS)
            )
        ],
        "invoices": await _invoices(session, me),
        "service_requests": await _service_requests(session, me),
        "wallet": await _wallet(session, me),
        "notifications": [
            _row(n, "id", "kind", "category", "title", "body", "link", "created_at", "read_at", "archived_at")
            for n in await session.scalars(
                select(Notification)
                .where(Notification.recipient_id == me)
                .order_by(Notification.created_at)
                .limit(MAX_ROWS)
            )
        ],
        "notification_preferences": [
            _row(p, "category", "in_app", "email", "digest", "updated_at")
            for p in await session.scalars(
                select(NotificationPreference)
                .where(NotificationPreference.user_id == me)
                .order_by(NotificationPreference.category)
            )
        ],
    }
    profile = await session.scalar(select(Provider).where(Provider.user_id == me))
    if profile is not None:
        data["provider_profile"] = _row(
            profile, "id", "first_name", "last_name", "provider_type", "license_type", "license_number"
        ) | _row(profile, "license_state", "is_verified", "is_active", "bio", "photo_url", "time_zone")
        given = await session.execute(
            select(Appointment, Service.name)
            .join(Service, Service.id == Appointment.service_id)
            .where(Appointment.provider_id == profile.id)
            .order_by(Appointment.starts_at)
            .limit(MAX_ROWS)
        )
        data["visits_given"] = [
            {**_row(v, "id", "status", "starts_at", "ends_at", "price"), "service": name} for v, name in given
        ]
    await audit_own(session, account, actor, AuditAction.data_export)
    return data


async def _store_orders(session: AsyncSession, me: str) -> list[dict[str, Any]]:
    orders = list(
        await session.scalars(
            select(StoreOrder)
            .where(StoreOrder.patient_id == me)
            .order_by(StoreOrder.created_at)
            .limit(MAX_ROWS)
        )
    )
    lines: dict[str, list[dict[str, Any]]] = {}
    if orders:
        for line in await session.scalars(
            select(StoreOrderLine).where(StoreOrderLine.order_id.in_([o.id for o in orders]))
        ):
            lines.setdefault(line.order_id, []).append(_row(line, "name", "unit_price_cents", "quantity"))
    return [
        _row(o, "id", "number", "status", "fulfilment", "subtotal_cents", "shipping_cents", "tax_cents")
        | _row(o, "fee_cents", "total_cents")
        | _row(o, "payment_method", "ship_name", "ship_line1", "ship_line2", "ship_city", "ship_state")
        | _row(o, "ship_zip", "carrier", "tracking_number", "created_at", "shipped_at", "delivered_at")
        | _row(o, "returned_at", "canceled_at")
        | {"lines": lines.get(o.id, [])}
        for o in orders
    ]


async def _invoices(session: AsyncSession, me: str) -> list[dict[str, Any]]:
    """The invoices sent to the person (a draft is still staff's)."""
    invoices = list(
        await session.scalars(
            select(Invoice)
            .where(Invoice.patient_id == me, Invoice.status != InvoiceStatus.draft)
            .order_by(Invoice.created_at)
            .limit(MAX_ROWS)
        )
    )
    lines: dict[str, list[dict[str, Any]]] = {}
    if invoices:
        for line in await session.scalars(
            select(InvoiceLine)
            .where(InvoiceLine.invoice_id.in_([i.id for i in invoices]))
            .order_by(InvoiceLine.position)
        ):
            lines.setdefault(line.invoice_id, []).append(
                _row(line, "description", "quantity", "unit_price_cents", "amount_cents")
            )
    return [
        _row(i, "id", "number", "status", "recipient_name", "recipient_email", "recipient_address")
        | _row(i, "due_on", "total_cents", "created_at", "sent_at", "paid_at", "payment_method", "voided_at")
        | {"lines": lines.get(i.id, [])}
        for i in invoices
    ]


async def _service_requests(session: AsyncSession, me: str) -> list[dict[str, Any]]:
    """The person's service requests with their notes and the offers providers made them."""
    requests = list(
        await session.execute(
            select(ServiceRequest, Service.name)
            .join(Service, Service.id == ServiceRequest.service_id)
            .where(ServiceRequest.patient_id == me)
            .order_by(ServiceRequest.created_at)
            .limit(MAX_ROWS)
        )
    )
    offers: dict[str, list[dict[str, Any]]] = {}
    if requests:
        found = await session.execute(
            select(ServiceRequestOffer, Provider.first_name, Provider.last_name)
            .join(Provider, Provider.id == ServiceRequestOffer.provider_id)
            .where(ServiceRequestOffer.request_id.in_([r.id for r, _name in requests]))
            .order_by(ServiceRequestOffer.created_at)
        )
        for offer, first, last in found:
            offers.setdefault(offer.request_id, []).append(
                _row(offer, "price", "starts_at", "message", "status", "created_at", "decided_at")
                | {"provider": f"{first} {last}".strip()}
            )
    return [
        _row(r, "id", "status", "location", "zip_code", "state", "time_zone", "windows", "notes")
        | _row(r, "order_number", "created_at", "expires_at", "closed_at")
        | {"service": name, "offers": offers.get(r.id, [])}
        for r, name in requests
    ]


async def _wallet(session: AsyncSession, me: str) -> dict[str, Any]:
    """The wallet's balances (credit to spend, money held for booked visits) and every movement of them."""
    accounts = {
        a.id: a
        for a in await session.scalars(
            select(LedgerAccount).where(
                LedgerAccount.owner_id == me,
                LedgerAccount.kind.in_([AccountKind.patient_credit, AccountKind.patient_booked]),
            )
        )
    }
    balance = {kind: 0 for kind in ("patient_credit", "patient_booked")}
    for account in accounts.values():
        balance[account.kind.value] = account.balance
    movements: Iterable[tuple[Posting, JournalEntry]] = (
        await session.execute(
            select(Posting, JournalEntry)
            .join(JournalEntry, JournalEntry.id == Posting.entry_id)
            .where(Posting.account_id.in_(list(accounts)))
            .order_by(Posting.created_at, Posting.id)
            .limit(MAX_ROWS)
        )
        if accounts
        else []
    )
    return {
        "credit_cents": balance["patient_credit"],
        "booked_cents": balance["patient_booked"],
        "entries": [
            {
                "account": posting.account_kind.value,
                "amount_cents": posting.amount,
                **_row(entry, "kind", "description", "order_id", "appointment_id", "created_at"),
            }
            for posting, entry in movements
        ],
    }
