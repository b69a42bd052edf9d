"""Appointments as the screens and e-mails read them: one batch of queries for any number of rows.

Shared by checkout (`booking`) and the visit lifecycle (`appointments`), so both hand out the same
`AppointmentRead` (patient and provider names, service, order number, whether the visit was reviewed, its
money from the ledger: paid ahead or at the visit, collected, due);
`read_of` builds one without a query from rows the caller already holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.appointments._policy import START_EARLY, patient_change_refusal, provider_sees_details
from app.services.ledger.internal import visit_payments
from app.services.providers import display_name
from app.services.shared.accounts import account_of
from models.booking import Appointment, AppointmentRead, Order
from models.catalog import Service
from models.identity import User, as_utc
from models.provider import Provider, Review

_Row = TypeVar("_Row", Provider, Service, User)


async def appointment_reads(
    session: AsyncSession,
    rows: Sequence[Appointment],
    *,
    now: datetime | None = None,
    for_provider: bool = False,
    with_payment: bool = False,
) -> list[AppointmentRead]:
    """`AppointmentRead`s of `rows`, in the same order, in at most five queries; `now` decides whether the
    patient may still change each visit. `for_provider`: the reads go to the visits' provider, so a closed
    visit's home address and intake notes are left out once its window has passed (`provider_sees_details`).
    `with_payment`: each read carries its money from the ledger (`payment`: one or two more queries), as
    the visit lists need it."""
    if not rows:
        return []
    now = now or datetime.now(UTC)

    async def by_id(model: type[_Row], ids: set[str]) -> dict[str, _Row]:
        found = await session.scalars(select(model).where(model.id.in_(ids)))
        return {row.id: row for row in found}

    providers = await by_id(Provider, {r.provider_id for r in rows})
    services = await by_id(Service, {r.service_id for r in rows})
    patients = await by_id(User, {r.patient_id for r in rows})
    order_ids = {r.order_id for r in rows if r.order_id}
    placed: dict[str | None, tuple[str, datetime]] = (
        {
            order_id: (number, created_at)
            for order_id, number, created_at in (
                await session.execute(
                    select(Order.id, Order.number, Order.created_at).where(Order.id.in_(order_ids))
                )
            ).all()
        }
        if order_ids
        else {}
    )
    reviewed = set(
        (
            await session.scalars(
                select(Review.appointment_id).where(Review.appointment_id.in_([r.id for r in rows]))
            )
        ).all()
    )
    payments = await visit_payments(session, rows) if with_payment else {}
    reads = []
    for row in rows:
        patient = patients.get(row.patient_id)
        order = placed.get(row.order_id)
        reads.append(
            read_of(
                row,
                provider=providers[row.provider_id],
                service=services[row.service_id],
                patient_name=account_of(patient).name if patient is not None else "Patient",
                order_number=order[0] if order else None,
                booked_at=order[1] if order else None,
                reviewed=row.id in reviewed,
                now=now,
                for_provider=for_provider,
            ).model_copy(update={"payment": payments.get(row.id)})
        )
    return reads


def read_of(
    row: Appointment,
    *,
    provider: Provider,
    service: Service,
    patient_name: str,
    order_number: str | None,
    reviewed: bool,
    booked_at: datetime | None = None,
    now: datetime | None = None,
    for_provider: bool = False,
) -> AppointmentRead:
    """The `AppointmentRead` of a row whose provider, service and patient the caller already holds (no
    query: checkout builds what it just wrote this way); `now` decides whether the patient may still change
    it, `booked_at` (when its order was placed; else the row's creation) when the grace period began;
    `for_provider` as in `appointment_reads`."""
    now = now or datetime.now(UTC)
    hidden = for_provider and not provider_sees_details(
        status=row.status,
        ends_at=row.ends_at,
        completed_at=row.completed_at,
        cancelled_at=row.cancelled_at,
        now=now,
    )
    return AppointmentRead(
        id=row.id,
        order_id=row.order_id,
        order_number=order_number,
        patient_id=row.patient_id,
        patient_name=patient_name,
        provider_id=row.provider_id,
        provider_name=display_name(provider.first_name, provider.last_name),
        provider_user_id=provider.user_id,
        service_id=row.service_id,
        service_slug=service.slug,
        service_name=service.name,
        status=row.status,
        starts_at=as_utc(row.starts_at),
        ends_at=as_utc(row.ends_at),
        hold_expires_at=as_utc(row.hold_expires_at),
        location=row.location,
        address_line="" if hidden else row.address_line,
        city="" if hidden else row.city,
        state=row.state,
        zip_code=row.zip_code,
        notes="" if hidden else row.notes,
        details_hidden=hidden,
        price=row.price,
        original_price=row.original_price,
        cancelled_by=row.cancelled_by,
        cancel_reason=row.cancel_reason,
        reviewed=reviewed,
        start_opens_at=as_utc(row.starts_at) - START_EARLY,
        change_refusal=patient_change_refusal(
            status=row.status, starts_at=row.starts_at, booked_at=booked_at or row.created_at, now=now
        ),
    )


async def appointment_read(
    session: AsyncSession, row: Appointment, *, with_payment: bool = False
) -> AppointmentRead:
    return (await appointment_reads(session, [row], with_payment=with_payment))[0]
