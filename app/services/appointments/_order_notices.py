"""What the people of an order's visits hear about the order (subscribers of booking's and payments' events).

- Booked (`OrderPlaced`, `PaymentCaptured`; after the commit): the patient and each provider are notified in
  the app, the patient's confirmation and each provider's 'New visit request' e-mails go to those whose
  preferences want them now, and a pay-at-visit order's visits are queued for automation as
  appointment.created.
- Paid or released (`PaymentCaptured`, `PaymentFailed`; in the transaction): the open screens of the patient
  and the providers refetch their visits once it commits.
- Released (`PaymentFailed`; after the commit): a provider who had accepted one of its visits hears that the
  visit is off (the visit's own cancellation notice).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app import events
from app.outbox import Email, send_emails
from app.services.appointments._emails import visit_email
from app.services.appointments._lifecycle import _tell, appointments_topic
from app.services.appointments._reads import appointment_read, read_of
from app.services.automation.internal import emit_visit_events
from app.services.domain_events import OrderPlaced, PaymentCaptured, PaymentFailed
from app.services.notifications import VisitNote
from app.services.notifications.internal import notify_visits
from app.services.payments import PaymentGateway, gateway_of
from app.services.shared.accounts import account_of
from app.services.shared.fees import PLATFORM_FEE_PERCENT
from app.settings import get_settings
from models.account import AccountRead
from models.booking import Appointment, AppointmentRead, AppointmentStatus, Order
from models.catalog import Service
from models.identity import User
from models.notification import NotificationKind
from models.provider import Provider


def _money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def booking_email_copy(number: str, visits: Sequence[AppointmentRead]) -> tuple[str, str, str]:
    """(subject, heading, what it means) of the patient's e-mail about these visits of order `number`:
    "booked" only over visits their provider has confirmed, "requested" over those that await the provider,
    and both, counted, when the order has some of each."""
    one = len(visits) == 1
    confirmed = sum(visit.status == AppointmentStatus.confirmed for visit in visits)
    if confirmed == len(visits):
        return (
            f"Booking confirmation {number}",
            "Your visit is booked" if one else "Your visits are booked",
            f"Order {number}: "
            + (
                "your provider has confirmed the visit."
                if one
                else "each visit is confirmed by its provider."
            ),
        )
    if not confirmed:
        return (
            f"Booking request {number}",
            "Your visit is requested" if one else "Your visits are requested",
            f"Order {number}: your provider will confirm "
            + ("the visit shortly." if one else "each visit shortly."),
        )
    waiting = len(visits) - confirmed
    return (
        f"Booking request {number}",
        f"{confirmed} of your visits {'is' if confirmed == 1 else 'are'} booked, "
        f"{waiting} {'awaits' if waiting == 1 else 'await'} the provider",
        f"Order {number}: each visit below says whether its provider has confirmed it; the others will "
        "be confirmed shortly.",
    )


async def _send_booking_emails(
    session: AsyncSession,
    patient: AccountRead,
    order: Order,
    booked: list[AppointmentRead],
    providers: dict[str, Provider],
    emails: dict[str, str],
    gateway: PaymentGateway,
) -> None:
    """Notify the patient and each provider of every visit booked (in-app, live), then send the patient's
    confirmation and each provider's 'New visit request' to those whose preferences want the e-mail now,
    times in the provider's zone (one confirmation per zone in the rare order whose providers live in
    different zones), stored with one insert. `emails`: the providers' addresses by user id."""
    notes: list[VisitNote] = []
    for visit in booked:
        provider = providers[visit.provider_id]
        notes += [
            VisitNote(patient.id, "patient", visit.id, visit.starts_at, provider.time_zone),
            VisitNote(provider.user_id, "provider", visit.id, visit.starts_at, provider.time_zone),
        ]
    delivery = await notify_visits(session=session, kind=NotificationKind.visit_booked, notes=notes)
    emails_out: list[Email] = []
    by_zone: dict[str, list[AppointmentRead]] = {}
    for visit in booked:
        by_zone.setdefault(providers[visit.provider_id].time_zone, []).append(visit)
    if patient.email and patient.id in delivery.email_now:
        for time_zone, visits in by_zone.items():
            subject, heading, meaning = booking_email_copy(order.number, visits)
            emails_out.append(
                visit_email(
                    to=patient.email,
                    subject=subject,
                    heading=heading,
                    intro=(
                        f"Thank you for booking with {get_settings().brand_name}. {meaning} Payment: "
                        f"{gateway.label}, {_money(order.total)} including the {PLATFORM_FEE_PERCENT}% platform fee."
                    ),
                    appointments=visits,
                    time_zone=time_zone,
                    closing="You can follow and manage your visits under My Appointments.",
                )
            )
    for provider in providers.values():
        address = emails.get(provider.user_id or "")
        if not address or provider.user_id not in delivery.email_now:
            continue
        visits = [v for v in booked if v.provider_id == provider.id]
        count = "a visit" if len(visits) == 1 else f"{len(visits)} visits"
        emails_out.append(
            visit_email(
                to=address,
                subject="New visit request",
                heading="New visit request",
                intro=(
                    f"{patient.name} requested {count} (order {order.number}). Please confirm under "
                    "Appointments in your dashboard."
                ),
                appointments=visits,
                time_zone=provider.time_zone,
            )
        )
    if emails_out:
        await send_emails(session=session, emails=emails_out)


async def _booked_visits(
    session: AsyncSession, order_id: str
) -> tuple[Order, AccountRead, list[AppointmentRead], dict[str, Provider], dict[str, str]] | None:
    """In one statement: the order, its patient, its visits (by start time), their providers and the
    providers' e-mail addresses by user id. None when the order is gone."""
    patient, provider_user = aliased(User), aliased(User)
    rows = (
        await session.execute(
            select(Appointment, Service, Provider, provider_user.email, Order, patient)
            .join(Order, Order.id == Appointment.order_id)
            .join(patient, patient.id == Order.patient_id)
            .join(Service, Service.id == Appointment.service_id)
            .join(Provider, Provider.id == Appointment.provider_id)
            .outerjoin(provider_user, provider_user.id == Provider.user_id)
            .where(Appointment.order_id == order_id)
            .order_by(Appointment.starts_at, Appointment.id)
        )
    ).all()
    if not rows:
        return None
    order, account = rows[0][4], account_of(rows[0][5])
    providers: dict[str, Provider] = {}
    emails: dict[str, str] = {}
    visits = []
    for visit, service, provider, email, _order, _patient in rows:
        providers[provider.id] = provider
        if email and provider.user_id:
            emails[provider.user_id] = email
        visits.append(
            read_of(
                visit,
                provider=provider,
                service=service,
                patient_name=account.name,
                order_number=order.number,
                reviewed=False,  # just booked: nothing to review yet
                booked_at=order.created_at,
            )
        )
    return order, account, visits, providers, emails


async def announce_order(*, session: AsyncSession, order_id: str) -> list[AppointmentRead]:
    """The booking notifications and e-mails of a booked order; its visits (none: the order is gone)."""
    found = await _booked_visits(session, order_id)
    if found is None:
        return []
    order, patient, visits, providers, emails = found
    await _send_booking_emails(session, patient, order, visits, providers, emails, gateway_of(order))
    return visits


async def announce_placed_order(session: AsyncSession, placed: OrderPlaced) -> None:
    visits = await announce_order(session=session, order_id=placed.order_id)
    await emit_visit_events(session=session, visits=visits, event_type="appointment.created", now=placed.at)


async def announce_paid_order(session: AsyncSession, paid: PaymentCaptured) -> None:
    await announce_order(session=session, order_id=paid.order_id)


async def refresh_order_screens(session: AsyncSession, changed: PaymentCaptured | PaymentFailed) -> None:
    """The patient's and the providers' visit topics, published when the transaction commits."""
    provider_ids = (
        {visit.provider_id for visit in changed.visits}
        if isinstance(changed, PaymentCaptured)
        else set(changed.provider_ids)
    )
    users = {changed.patient_id}
    if provider_ids:
        rows = await session.scalars(select(Provider.user_id).where(Provider.id.in_(provider_ids)))
        users |= {user_id for user_id in rows if user_id}
    for user_id in users:
        await events.publish_on_commit(session, appointments_topic(user_id), {"order_id": changed.order_id})


async def tell_providers_of_released_visits(session: AsyncSession, failed: PaymentFailed) -> None:
    for visit_id in failed.confirmed_visit_ids:
        visit = await session.get(Appointment, visit_id)
        if visit is None:
            continue
        provider = await session.get_one(Provider, visit.provider_id)
        await _tell(
            session, await appointment_read(session, visit), provider, "cancelled", "provider", now=failed.at
        )
