"""Who can take a visit's time, for every command that writes appointments (booking's holds and checkout,
staff reassigning a visit, a patient rescheduling, service requests' offers): the listed providers who offer
a service at a place and may travel there (`eligible_providers`), their calendars around a window
(`provider_calendars`), and the row lock writers of one provider's time queue on (`lock_providers`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from itertools import islice

from sqlalchemy import ColumnElement, SQLColumnExpression, and_, bindparam, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.providers import (
    LISTED,
    ORDER_BY_RATING,
    Hours,
    Interval,
    SlotRules,
    generate_slots,
    licensed_in,
)
from app.services.providers.internal import load_calendars
from app.services.shared.addresses import zip_state
from app.services.shared.clock import today_utc
from models.catalog import Service, ServiceLocation
from models.provider import Provider, ProviderService, ProviderZip

_LOCK_PROVIDER = (
    select(Provider.id).where(Provider.id == bindparam("provider_id")).with_for_update(key_share=True)
)


async def lock_providers(session: AsyncSession, provider_ids: list[str]) -> None:
    """Queue behind other writers of these providers' time (PostgreSQL row locks, always taken in id order:
    `hold_slot` and `place_order` both take them before writing appointments, so they cannot deadlock)."""
    for provider_id in sorted(set(provider_ids)):
        await session.execute(_LOCK_PROVIDER, {"provider_id": provider_id})


@dataclass(frozen=True)
class Candidate:
    provider: Provider
    base_price: Decimal  # the provider's own price, before any sale


def serves_zip(
    provider_id: SQLColumnExpression[str],
    zip_code: object,
    state: object,
    day: object,
    agreed: ColumnElement[bool] | None = None,
) -> ColumnElement[bool]:
    """SQL: the provider travels to the ZIP code (their area holds it, or `agreed`: `agreed_to_travel`) and
    holds a licence of its state valid on `day` (the licence-state rule, `providers.licensed_in`); values
    or bound parameters."""
    travels: ColumnElement[bool] = exists().where(
        ProviderZip.provider_id == provider_id, ProviderZip.zip_code == zip_code
    )
    if agreed is not None:
        travels = or_(travels, agreed)
    return and_(travels, licensed_in(provider_id, state, day))


async def eligible_providers(
    session: AsyncSession,
    service: Service,
    location: ServiceLocation,
    zip_code: str,
    provider_id: str | None,
    day: date | None = None,
) -> list[Candidate]:
    """Listed providers who offer the service at this place and (unless virtual) travel to the ZIP code
    and are licensed in its state on `day` (default today), best rated first."""
    statement = (
        select(Provider, ProviderService.price)
        .join(ProviderService, ProviderService.provider_id == Provider.id)
        .where(
            *LISTED,
            ProviderService.service_id == service.id,
            ProviderService.location_mask.op("&")(location.bit) != 0,
        )
        .order_by(*ORDER_BY_RATING)
    )
    if zip_code:
        statement = statement.where(
            serves_zip(Provider.id, zip_code, zip_state(zip_code), day or today_utc())
        )
    if provider_id is not None:
        statement = statement.where(Provider.id == provider_id)
    return [Candidate(provider, price) for provider, price in (await session.execute(statement)).all()]


@dataclass(frozen=True)
class Calendars:
    """Weekly hours, busy time and time off of some providers around [not_before, before)."""

    rules: SlotRules
    now: datetime
    not_before: datetime
    before: datetime
    hours: dict[str, tuple[Hours, ...]]
    busy: dict[str, list[Interval]]
    blocked: dict[str, list[Interval]]
    expired: set[str]  # providers with an expired hold in the window (its row still counts for no-overlap)

    def starts(
        self, provider: Provider, *, with_busy: bool = True, first_only: bool = False
    ) -> list[datetime]:
        """The provider's open start times in the window (ignoring booked and held time if not `with_busy`;
        only the first, if any, with `first_only`)."""
        return list(
            islice(
                generate_slots(
                    hours=self.hours.get(provider.id, ()),
                    time_zone=provider.time_zone,
                    now=self.now,
                    rules=self.rules,
                    busy=self.busy.get(provider.id, ()) if with_busy else (),
                    blocked=self.blocked.get(provider.id, ()),
                    not_before=self.not_before,
                    before=self.before,
                ),
                1 if first_only else None,
            )
        )


async def provider_calendars(
    session: AsyncSession,
    providers: list[Provider],
    rules: SlotRules,
    not_before: datetime,
    before: datetime,
    now: datetime,
) -> Calendars:
    """The calendars of all `providers` in one query (none for no provider)."""
    if not providers:
        return Calendars(rules, now, not_before, before, {}, {}, {}, set())
    # Room for a visit starting at the end of the window, and the travel buffer on both sides.
    buffer = timedelta(minutes=rules.buffer_minutes)
    reach = before + timedelta(minutes=rules.duration_minutes) + buffer
    hours, busy, blocked, expired = await load_calendars(
        session, [p.id for p in providers], not_before - buffer, reach, now
    )
    return Calendars(rules, now, not_before, before, hours, busy, blocked, expired)
