"""Data export (the right of access): everything the account holds about its owner, as one JSON document.

What it holds: the profile, the saved address, orders and the visits booked (with their money), help-desk
tickets with their messages (never staff's internal notes), the reviews written, the signed-in sessions,
and, for a provider, the provider profile and the visits they gave (date, service, status, price; never the
patients' names, addresses or notes: those are other people's data). Each export is audited and limited
(`RATE_LIMIT_DATA_EXPORT` an hour per account).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import ratelimit
from app.principal import Principal
from app.services.accounts._lifecycle import get_account_status, get_saved_address
from app.services.accounts._principals import require_account
from app.services.accounts._sessions import audit_own, list_sessions
from app.services.errors import RateLimited
from app.settings import get_settings
from models.audit import AuditAction
from models.base import utcnow
from models.booking import Appointment, Order, Transaction
from models.catalog import Service
from models.provider import Provider, Review
from models.support import Ticket, TicketMessage

EXPORT_FORMAT = "medivisit-account-export/1"
EXPORT_WINDOW = 3600
TOO_MANY = "You downloaded your data several times in the last hour. Please try again later."
MAX_ROWS = 10_000  # per kind: far beyond one person's records, a bound on one answer


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "value"):  # an enum
        return value.value
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
        "exported_at": utcnow().isoformat(),
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
        "sessions": [s.model_dump(mode="json") for s in await list_sessions(session=session, actor=actor)],
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
