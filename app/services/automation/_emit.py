"""Events from the domain: the one call other domains make (`emit_event`, or the helpers for visits and
tickets). The event is written to the outbox in the caller's own transaction, so it exists only if that
change commits; the delivery job sends it afterwards (never inside the request).

SPEC §5: nothing is queued while the integration is disconnected or when its type is switched off.
SPEC §3: the body is the fields plus eventType, timestamp (ISO), environment and source. Fields are ids,
statuses and times; clinical text (`details`: the service, the patient's notes, a ticket's words) is added
only for the types the owner opted in.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import events
from app.services.automation._access import integration_row
from app.services.automation._catalogue import BY_NAME
from app.services.automation._signing import new_message_id
from app.services.domain_events import (
    AdPaymentSettled,
    LatePaymentRefunded,
    PaymentCaptured,
    PaymentCollected,
    PaymentFailed,
    RefundIssued,
    StoreOrderRefunded,
    StorePaymentCaptured,
    StorePaymentFailed,
)
from app.settings import get_settings
from models.ads import AdPayment
from models.automation import AutomationDelivery, AutomationIntegration, DeliveryStatus
from models.booking import AppointmentRead, AppointmentStatus, Order
from models.payment import CardPayment, CardPaymentStatus
from models.store import StoreCardPayment, StoreOrder
from models.support import Ticket, TicketStatus

SOURCE = "medivisit"
MAX_DETAIL = 2000
MAX_BODY = 64 * 1024


def envelope(event_type: str, fields: dict[str, Any], now: datetime) -> dict[str, Any]:
    """SPEC §3's automation event payload."""
    return {
        **fields,
        "eventType": event_type,
        "timestamp": now.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "environment": get_settings().app_env,
        "source": SOURCE,
    }


def encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, default=str)


def _short(value: Any) -> Any:
    return value[:MAX_DETAIL] if isinstance(value, str) else value


def delivery_for(
    row: AutomationIntegration | None,
    event_type: str,
    fields: dict[str, Any],
    details: dict[str, Any] | None,
    now: datetime,
) -> AutomationDelivery | None:
    """The outbox row for this event, or None when it is skipped (SPEC §5)."""
    if event_type not in BY_NAME:
        raise ValueError(f"Unknown automation event type {event_type!r}")
    if row is None or not row.connected or event_type in (row.disabled_types or []):
        return None
    if details and event_type in (row.detailed_types or []):
        fields = {**fields, **{k: _short(v) for k, v in details.items()}}
    body = encode(envelope(event_type, fields, now))
    if len(body.encode()) > MAX_BODY:
        body = encode(
            envelope(event_type, {"truncated": True, **{k: fields[k] for k in list(fields)[:8]}}, now)
        )
    return AutomationDelivery(
        message_id=new_message_id(),
        event_type=event_type,
        body=body,
        status=DeliveryStatus.pending,
        attempts=0,
        manual=False,
        next_attempt_at=now,
    )


async def emit_event(
    *,
    session: AsyncSession,
    event_type: str,
    fields: dict[str, Any],
    details: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> bool:
    """Queue `event_type` for n8n with this transaction; False when it is skipped (SPEC §5)."""
    row = await integration_row(session)
    delivery = delivery_for(row, event_type, fields, details, now or datetime.now(UTC))
    if delivery is not None:
        session.add(delivery)
        await events.publish_on_commit(session, "automation", {"event_type": event_type})
    return delivery is not None


_VISIT_EVENTS = {
    AppointmentStatus.cancelled: "appointment.canceled",
    AppointmentStatus.completed: "appointment.completed",
}


def _visit_fields(visit: AppointmentRead) -> dict[str, Any]:
    return {
        "appointmentId": visit.id,
        "orderId": visit.order_id,
        "orderNumber": visit.order_number,
        "patientId": visit.patient_id,
        "providerId": visit.provider_id,
        "serviceId": visit.service_id,
        "status": visit.status.value,
        "startsAt": visit.starts_at.isoformat(),
        "endsAt": visit.ends_at.isoformat(),
        "zipCode": visit.zip_code,
        "price": str(visit.price),
    }


async def emit_visit_events(
    *,
    session: AsyncSession,
    visits: Sequence[AppointmentRead],
    event_type: str | None = None,
    now: datetime | None = None,
) -> None:
    """One event per visit: `event_type` (appointment.created for a booking, .reminder_due for the
    24-hour reminder), else .canceled / .completed / .updated by the visit's new status."""
    for visit in visits:
        kind = event_type or _VISIT_EVENTS.get(visit.status, "appointment.updated")
        details = {
            "serviceName": visit.service_name,
            "notes": visit.notes,
            "cancelReason": visit.cancel_reason,
        }
        await emit_event(
            session=session, event_type=kind, fields=_visit_fields(visit), details=details, now=now
        )


async def emit_ticket_event(
    *, session: AsyncSession, ticket: Ticket, created: bool = False, now: datetime | None = None
) -> bool:
    """support.ticket_created, or .ticket_resolved / .ticket_updated by the ticket's new status."""
    if created:
        event_type = "support.ticket_created"
    elif ticket.status in (TicketStatus.resolved, TicketStatus.closed):
        event_type = "support.ticket_resolved"
    else:
        event_type = "support.ticket_updated"
    fields = {
        "ticketId": ticket.id,
        "ticketNumber": ticket.number,
        "userId": ticket.user_id,
        "status": ticket.status.value,
        "priority": ticket.priority.value,
        "category": ticket.category.value,
        "assignedTo": ticket.assigned_to,
    }
    details = {"subject": ticket.subject, "description": ticket.description}
    return await emit_event(session=session, event_type=event_type, fields=fields, details=details, now=now)


async def _emit_payment(
    session: AsyncSession, event_type: str, money: PaymentCollected | RefundIssued
) -> None:
    fields = {
        "appointmentId": money.appointment_id,
        "orderId": money.order_id,
        "patientId": money.patient_id,
        "providerId": money.provider_id,
        "amountCents": money.amount_cents,
        "currency": "usd",
    }
    await emit_event(session=session, event_type=event_type, fields=fields, now=money.at)


async def queue_payment_succeeded(session: AsyncSession, collected: PaymentCollected) -> None:
    """payment.succeeded, in the ledger's transaction (`PaymentCollected`'s subscriber): money collected at
    the visit. A visit of an order paid by card was announced when the card payment came in
    (`queue_card_payment_succeeded`): its completion moves that same money to the provider, and is not
    a second payment."""
    if not await _listening(session, "payment.succeeded"):
        return
    if await _card_payment(session, collected.order_id, CardPaymentStatus.paid) is not None:
        return
    await _emit_payment(session, "payment.succeeded", collected)


async def queue_payment_refunded(session: AsyncSession, refund: RefundIssued) -> None:
    """payment.refunded, in the ledger's transaction (`RefundIssued`'s subscriber)."""
    await _emit_payment(session, "payment.refunded", refund)


# ---- an order's card payment (the payments webhook's events, in its unit of work) -------------------
async def _listening(session: AsyncSession, event_type: str) -> bool:
    """Whether `event_type` would be queued now (SPEC §5), so a skipped one costs no further reads."""
    row = await integration_row(session)
    return row is not None and row.connected and event_type not in (row.disabled_types or [])


async def _card_payment(
    session: AsyncSession, order_id: str, status: CardPaymentStatus | None = None
) -> CardPayment | None:
    payment = await session.get(CardPayment, order_id)
    return payment if payment is not None and (status is None or payment.status is status) else None


async def _card_fields(
    session: AsyncSession,
    *,
    order_id: str,
    order_number: str | None,
    patient_id: str,
    appointment_ids: Sequence[str],
    provider_ids: Sequence[str],
    amount_cents: int | None,
) -> dict[str, Any]:
    """What n8n hears of an order's card payment: ids, the amount and Stripe's PaymentIntent, never the
    card (brand, digits) nor the visits' services."""
    payment = await _card_payment(session, order_id)
    if order_number is None:
        order_number = await session.scalar(select(Order.number).where(Order.id == order_id))
    if amount_cents is None:
        amount_cents = payment.amount if payment is not None else None
    return {
        "orderId": order_id,
        "orderNumber": order_number,
        "patientId": patient_id,
        "appointmentIds": list(appointment_ids),
        "providerIds": sorted(set(provider_ids)),
        "amountCents": amount_cents,
        "currency": payment.currency if payment is not None else "usd",
        "paymentMethod": "card",
        "paymentIntentId": payment.payment_intent_id if payment is not None else None,
    }


async def queue_card_payment_succeeded(session: AsyncSession, captured: PaymentCaptured) -> None:
    """payment.succeeded for the whole order, once, in the webhook's (or the reconciliation's) transaction
    (`PaymentCaptured`'s subscriber): the event is applied once, so it is queued once."""
    if not await _listening(session, "payment.succeeded"):
        return
    total = sum((visit.price for visit in captured.visits), captured.fee)
    fields = await _card_fields(
        session,
        order_id=captured.order_id,
        order_number=None,
        patient_id=captured.patient_id,
        appointment_ids=[visit.appointment_id for visit in captured.visits],
        provider_ids=[visit.provider_id for visit in captured.visits],
        amount_cents=int((total * 100).to_integral_value()),
    )
    await emit_event(session=session, event_type="payment.succeeded", fields=fields, now=captured.at)


async def queue_card_payment_failed(session: AsyncSession, failed: PaymentFailed) -> None:
    """payment.failed (declined, or its payment page expired), once, in the webhook's (or the
    reconciliation's) transaction (`PaymentFailed`'s subscriber)."""
    if not await _listening(session, "payment.failed"):
        return
    fields = await _card_fields(
        session,
        order_id=failed.order_id,
        order_number=failed.order_number,
        patient_id=failed.patient_id,
        appointment_ids=failed.visit_ids,
        provider_ids=failed.provider_ids,
        amount_cents=None,
    )
    await emit_event(session=session, event_type="payment.failed", fields=fields, now=failed.at)


async def _store_card_fields(
    session: AsyncSession, store_order_id: str, patient_id: str, amount_cents: int | None = None
) -> dict[str, Any]:
    """What n8n hears of a store order's money, like an order's card payment (`_card_fields`): no products,
    no address. Paid by card on its own, its payment's amount and PaymentIntent; else (paid on delivery, or
    with visits in one checkout) the method only."""
    payment = await session.get(StoreCardPayment, store_order_id)
    number = await session.scalar(select(StoreOrder.number).where(StoreOrder.id == store_order_id))
    return {
        "orderId": store_order_id,
        "orderNumber": number,
        "storeOrder": True,
        "patientId": patient_id,
        "appointmentIds": [],
        "providerIds": [],
        "amountCents": amount_cents if amount_cents is not None else payment.amount if payment else None,
        "currency": payment.currency if payment is not None else "usd",
        "paymentMethod": "card" if payment is not None else "on_delivery",
        "paymentIntentId": payment.payment_intent_id if payment is not None else None,
    }


async def queue_store_payment_succeeded(session: AsyncSession, captured: StorePaymentCaptured) -> None:
    """payment.succeeded for a store order paid by card on its own, once (the webhook applies it once)."""
    if await _listening(session, "payment.succeeded"):
        fields = await _store_card_fields(session, captured.store_order_id, captured.patient_id)
        await emit_event(session=session, event_type="payment.succeeded", fields=fields, now=captured.at)


async def queue_store_payment_failed(session: AsyncSession, failed: StorePaymentFailed) -> None:
    """payment.failed for a store order's card payment declined or expired, once."""
    if await _listening(session, "payment.failed"):
        fields = await _store_card_fields(session, failed.store_order_id, failed.patient_id)
        await emit_event(session=session, event_type="payment.failed", fields=fields, now=failed.at)


async def queue_store_order_refunded(session: AsyncSession, refunded: StoreOrderRefunded) -> None:
    """payment.refunded for each refund of a store order (to the card or as wallet credit)."""
    if await _listening(session, "payment.refunded"):
        fields = await _store_card_fields(
            session, refunded.store_order_id, refunded.patient_id, refunded.amount_cents
        )
        fields["refundedTo"] = "card" if refunded.to_card else "wallet"
        await emit_event(session=session, event_type="payment.refunded", fields=fields, now=refunded.at)


async def queue_ad_payment_settled(session: AsyncSession, settled: AdPaymentSettled) -> None:
    """payment.succeeded or payment.failed for an ad flight's prepaid budget, once (the webhook applies it
    once)."""
    event_type = "payment.succeeded" if settled.paid else "payment.failed"
    if not await _listening(session, event_type):
        return
    payment = await session.get(AdPayment, settled.payment_id)
    fields = {
        "adFlightId": settled.flight_id,
        "paymentId": settled.payment_id,
        "amountCents": settled.amount_cents,
        "currency": payment.currency if payment is not None else "usd",
        "paymentMethod": "card",
        "paymentIntentId": payment.payment_intent_id if payment is not None else None,
    }
    await emit_event(session=session, event_type=event_type, fields=fields, now=settled.at)


async def queue_late_payment_refunded(session: AsyncSession, refunded: LatePaymentRefunded) -> None:
    """payment.refunded for a card payment that came in after its order was given up and went back to the
    card in full (`LatePaymentRefunded`'s subscriber, in the webhook's transaction)."""
    if not await _listening(session, "payment.refunded"):
        return
    fields = await _card_fields(
        session,
        order_id=refunded.order_id,
        order_number=refunded.order_number,
        patient_id=refunded.patient_id,
        appointment_ids=(),
        provider_ids=(),
        amount_cents=refunded.amount_cents,
    )
    fields = {**fields, "paymentIntentId": refunded.payment_intent_id, "reason": "paid_after_release"}
    await emit_event(session=session, event_type="payment.refunded", fields=fields, now=refunded.at)
