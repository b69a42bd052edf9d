"""`checkout_options`: for a service, a place of visit and a ZIP code, the open start times of every
eligible provider on one calendar day of the visitor, and their union ("first available");
`checkout_open_days`: which of the visitor's next days have any open time at all, so checkout offers only
those."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.appointments.internal import eligible_providers, provider_calendars
from app.services.booking._rules import MAX_LISTED, bookable_service, place_zip
from app.services.catalog import price_for
from app.services.providers import display_name, slot_rules, visitor_zone
from app.services.shared.clock import current_time, day_bounds, zone
from models.booking import CheckoutOptions, ProviderTimes
from models.catalog import ServiceLocation
from models.provider import RatingRead


# ---- reads --------------------------------------------------------------------------------------
async def checkout_options(
    *,
    session: AsyncSession,
    service_slug: str,
    zip_code: str,
    location: ServiceLocation,
    day: date,
    time_zone: str,
    provider_id: str | None = None,
    now: datetime | None = None,
) -> CheckoutOptions:
    """Open start times on `day` (a calendar day in the visitor's `time_zone`) of every provider who can do
    the visit, or of `provider_id` only, in a fixed number of queries."""
    now = current_time(now)
    time_zone = visitor_zone(time_zone)
    location = ServiceLocation(location)
    service, category_slug = await bookable_service(session, service_slug)
    zip_code = place_zip(service, location, zip_code)
    candidates = await eligible_providers(session, service, location, zip_code, provider_id, day)
    start, end = day_bounds(day, time_zone)
    calendars = await provider_calendars(
        session, [c.provider for c in candidates], slot_rules(service.duration_minutes), start, end, now
    )
    times = {c.provider.id: calendars.starts(c.provider) for c in candidates}
    return CheckoutOptions(
        service_slug=service.slug,
        service_name=service.name,
        duration_minutes=service.duration_minutes,
        location=location,
        zip_code=zip_code,
        day=day,
        time_zone=time_zone,
        providers=[
            ProviderTimes(
                provider_id=c.provider.id,
                name=display_name(c.provider.first_name, c.provider.last_name),
                rating=RatingRead(average=Decimal(c.provider.rating_average), count=c.provider.review_count),
                price=price_for(category_slug=category_slug, price=c.base_price, at=now),
                times=times[c.provider.id],
            )
            for c in candidates[:MAX_LISTED]
        ],
        first_available=sorted({moment for found in times.values() for moment in found}),
    )


MAX_OPEN_DAYS = 31


async def checkout_open_days(
    *,
    session: AsyncSession,
    service_slug: str,
    zip_code: str,
    location: ServiceLocation,
    days: int,
    time_zone: str,
    provider_id: str | None = None,
    now: datetime | None = None,
) -> list[date]:
    """The calendar days of the visitor's `time_zone`, of the `days` (1 to 31) from today on, on which
    `provider_id` (or any provider who can do the visit, for "first available") has an open start time."""
    now = current_time(now)
    time_zone = visitor_zone(time_zone)
    location = ServiceLocation(location)
    service, _category = await bookable_service(session, service_slug)
    zip_code = place_zip(service, location, zip_code)
    today = now.astimezone(zone(time_zone)).date()
    window = [today + timedelta(days=n) for n in range(max(1, min(days, MAX_OPEN_DAYS)))]
    candidates = await eligible_providers(session, service, location, zip_code, provider_id, today)
    start, end = day_bounds(window[0], time_zone)[0], day_bounds(window[-1], time_zone)[1]
    calendars = await provider_calendars(
        session, [c.provider for c in candidates], slot_rules(service.duration_minutes), start, end, now
    )
    open_days = []
    for day in window:
        not_before, before = day_bounds(day, time_zone)
        that_day = dataclasses.replace(calendars, not_before=not_before, before=before)
        # One start time is enough: the lazy slot generator stops at the first.
        if any(that_day.starts(c.provider, first_only=True) for c in candidates):
            open_days.append(day)
    return open_days
