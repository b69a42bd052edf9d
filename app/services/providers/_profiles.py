"""Provider profiles: creating them, the services they offer at their own prices, their service area (ZIP
codes), verification, reading a profile, its open times for the week and the featured providers.

Public reads only ever return providers that are verified and active (`LISTED`). Writes take an `actor`
(a Principal): the provider's own account, an owner or admin, or SYSTEM for the command line and seeders. Only an owner or
admin (or the command line) can verify a provider. The provider dashboard uses the `*_own_*` commands,
which take the browser's signed-in Principal and act on that account's own profile.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.common import clean_person_name
from app.principal import Principal
from app.services.catalog import configured_sale, price_at
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.providers._availability import hours_read, open_slots, own_provider
from app.services.providers._licensing import sync_listing, zip_listing
from app.services.shared.accounts import is_admin
from app.services.shared.addresses import ZIP_RE
from app.services.shared.clock import day_bounds
from app.services.shared.signed_in import acting_account, require_account
from models.account import AccountRead, Role
from models.catalog import (
    Service,
    ServiceCategory,
    ServiceLocation,
    locations_mask,
    locations_of,
    service_mask,
)
from models.provider import (
    DEFAULT_TIME_ZONE,
    LISTED_CONDITIONS,
    DaySlots,
    FeaturedProvider,
    Provider,
    ProviderRead,
    ProviderService,
    ProviderServiceRead,
    ProviderType,
    ProviderZip,
    RatingRead,
    WeeklyHours,
)

LISTED = LISTED_CONDITIONS  # verified, active, not suspended, credentials not lapsed
FEATURED_MIN_REVIEWS = 5
FEATURED_LIMIT = 6

NO_PROVIDER = "No provider has this id."
NOT_YOURS = "You can only change your own provider profile."
ONLY_ADMIN_VERIFIES = "Only an owner or admin can verify providers."
ONLY_PROVIDERS = "Only provider accounts can have a provider profile."
PROFILE_EXISTS = "This account already has a provider profile."
BAD_ZIP = "Not a ZIP code: {codes}. ZIP codes are five digits."
TOO_MANY_ZIPS = "A service area can list at most {limit} ZIP codes."
BAD_ZONE = "Unknown time zone."
BAD_NAME = "A first and last name are required."
UNKNOWN_SERVICE = "Unknown service: {slug}."
BAD_PRICE = "{name}: the price must be an amount in dollars from $0 to $99,999."
BAD_LOCATIONS = "{name} can't be offered at: {places}."
NO_PLACES = "{name}: choose at least one place of visit."
NOT_OFFERED = "This provider doesn't offer that service."
ZIP_SEPARATORS = re.compile(r"[\s,;]+")
MAX_ZIPS = 200
MAX_PRICE = Decimal("99999")
OPENING_DAYS = 7


@dataclass(frozen=True)
class ServiceOffer:
    """A service a provider offers: the catalog slug, their price (a Decimal, or as typed), and where
    (default: everywhere allowed)."""

    service_slug: str
    price: Decimal | str
    locations: tuple[ServiceLocation, ...] = ()


def display_name(first: str, last: str) -> str:
    return " ".join(part for part in (first, last) if part)


def _check_zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationFailed(BAD_ZONE) from None
    return name


async def _editable(session: AsyncSession, by: AccountRead | None, provider_id: str) -> Provider:
    provider = await session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    if by is not None and not is_admin(by) and provider.user_id != by.id:
        raise PermissionDenied(NOT_YOURS)
    return provider


async def create_provider(
    *,
    session: AsyncSession,
    actor: Principal,
    first_name: str,
    last_name: str,
    provider_type: ProviderType | str,
    user_id: str | None = None,
    license_type: str = "",
    license_number: str = "",
    license_state: str = "",
    bio: str = "",
    photo_url: str = "",
    languages: Sequence[str] = ("English",),
    time_zone: str = DEFAULT_TIME_ZONE,
    verified: bool = False,
    active: bool = True,
) -> ProviderRead:
    """A provider profile. A provider account may create its own (never verified); owners, admins and the
    command line may create any, verified or not."""
    by = await acting_account(session=session, actor=actor)
    if by is not None and not is_admin(by):
        if by.role != Role.provider:
            raise PermissionDenied(ONLY_PROVIDERS)
        user_id, verified = by.id, False
    first_name, last_name = clean_person_name(first_name)[:80], clean_person_name(last_name)[:80]
    if not first_name or not last_name:
        raise ValidationFailed(BAD_NAME)
    try:
        kind = ProviderType(provider_type)
    except ValueError:
        raise ValidationFailed(f"Unknown provider type {provider_type!r}.") from None
    if user_id is not None and await session.scalar(select(Provider.id).where(Provider.user_id == user_id)):
        raise ValidationFailed(PROFILE_EXISTS)
    row = Provider(
        user_id=user_id,
        first_name=first_name,
        last_name=last_name,
        provider_type=kind,
        license_type=license_type.strip()[:40],
        license_number=license_number.strip()[:40],
        license_state=license_state.strip().upper()[:2],
        bio=bio.strip()[:4000],
        photo_url=photo_url.strip()[:2048],
        languages=[lang.strip()[:40] for lang in languages if lang.strip()][:10],
        time_zone=_check_zone(time_zone),
        is_verified=verified,
        is_active=active,
        rating_average=Decimal("0"),
        review_count=0,
    )
    session.add(row)
    await session.flush()
    return await provider_read(session, row)


async def set_listing(
    *, session: AsyncSession, actor: Principal, provider_id: str, verified: bool, active: bool
) -> ProviderRead:
    """Verify (or un-verify) and activate (or deactivate) a provider: owners, admins, the command line."""
    by = await acting_account(session=session, actor=actor)
    if by is not None and not is_admin(by):
        raise PermissionDenied(ONLY_ADMIN_VERIFIES)
    provider = await session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(NO_PROVIDER)
    provider.is_verified, provider.is_active = verified, active
    await sync_listing(session, provider)
    await session.flush()
    return await provider_read(session, provider)


async def set_services(
    *,
    session: AsyncSession,
    actor: Principal,
    provider_id: str,
    offers: Iterable[ServiceOffer],
    exact_locations: bool = False,
) -> ProviderRead:
    """Replace the services a provider offers, each at the provider's price and allowed locations.

    An offer without locations is offered wherever the service allows, unless `exact_locations` (the
    provider's own editor, where no place ticked is a mistake to point out).
    """
    by = await acting_account(session=session, actor=actor)
    provider = await _editable(session, by, provider_id)
    offers = list(offers)
    services = {
        s.slug: s
        for s in (
            await session.scalars(select(Service).where(Service.slug.in_([o.service_slug for o in offers])))
        ).all()
    }
    rows: dict[str, ProviderService] = {}
    for offer in offers:
        service = services.get(offer.service_slug)
        if service is None:
            raise ValidationFailed(UNKNOWN_SERVICE.format(slug=offer.service_slug))
        try:
            price = Decimal(offer.price).quantize(Decimal("0.01"))
        except (InvalidOperation, TypeError, ValueError):
            raise ValidationFailed(BAD_PRICE.format(name=service.name)) from None
        if not price.is_finite() or price < 0 or price > MAX_PRICE:
            raise ValidationFailed(BAD_PRICE.format(name=service.name))
        if exact_locations and not offer.locations:
            raise ValidationFailed(NO_PLACES.format(name=service.name))
        mask = locations_mask(offer.locations) if offer.locations else service.location_mask
        if mask & ~service.location_mask:
            places = ", ".join(loc.label for loc in locations_of(mask & ~service.location_mask))
            raise ValidationFailed(BAD_LOCATIONS.format(name=service.name, places=places))
        rows[service.id] = ProviderService(
            provider_id=provider.id,
            service_id=service.id,
            price=price,
            location_mask=mask,
            provider_type=provider.provider_type,
        )
    await session.execute(delete(ProviderService).where(ProviderService.provider_id == provider.id))
    session.add_all(rows.values())
    provider.lowest_price = min((row.price for row in rows.values()), default=None)
    provider.service_mask = service_mask(services[o.service_slug].search_bit for o in offers)
    await sync_listing(session, provider)
    await session.flush()
    return await provider_read(session, provider)


async def set_service_area(
    *, session: AsyncSession, actor: Principal, provider_id: str, zip_codes: Iterable[str]
) -> ProviderRead:
    """Replace the ZIP codes a provider travels to."""
    by = await acting_account(session=session, actor=actor)
    provider = await _editable(session, by, provider_id)
    codes = sorted({code.strip() for code in zip_codes})
    bad = [code for code in codes if not ZIP_RE.match(code)]
    if bad:
        raise ValidationFailed(BAD_ZIP.format(codes=", ".join(bad)))
    if len(codes) > MAX_ZIPS:
        raise ValidationFailed(TOO_MANY_ZIPS.format(limit=MAX_ZIPS))
    await session.execute(delete(ProviderZip).where(ProviderZip.provider_id == provider.id))
    session.add_all(ProviderZip(**row) for row in await zip_listing(session, provider, codes))
    await session.flush()
    return await provider_read(session, provider)


def split_zip_codes(text: str) -> list[str]:
    """ZIP codes as typed: separated by commas, semicolons, spaces or new lines."""
    return [code for code in ZIP_SEPARATORS.split(text) if code]


# ---- the signed-in provider's own profile (the provider dashboard) ------------------------------
async def set_own_services(
    *, session: AsyncSession, actor: Principal, offers: Iterable[ServiceOffer]
) -> ProviderRead:
    """Replace the services the signed-in provider offers; every offer names its places of visit."""
    account, provider = await own_provider(session=session, actor=actor)
    return await set_services(
        session=session, actor=actor, provider_id=provider.id, offers=offers, exact_locations=True
    )


async def set_own_service_area(*, session: AsyncSession, actor: Principal, zip_codes: str) -> ProviderRead:
    """Replace the signed-in provider's service area with the ZIP codes typed (duplicates dropped)."""
    account, provider = await own_provider(session=session, actor=actor)
    return await set_service_area(
        session=session, actor=actor, provider_id=provider.id, zip_codes=split_zip_codes(zip_codes)
    )


# ---- reads --------------------------------------------------------------------------------------
async def load_offers(
    session: AsyncSession, provider_ids: list[str], at: datetime
) -> dict[str, list[ProviderServiceRead]]:
    """Services offered by these providers, priced at `at`, in catalog order (one query)."""
    sale = configured_sale(at)
    rows = await session.execute(
        select(
            ProviderService.provider_id,
            ProviderService.price,
            ProviderService.location_mask,
            Service.id,
            Service.slug,
            Service.name,
            Service.duration_minutes,
            ServiceCategory.slug,
        )
        .join(Service, Service.id == ProviderService.service_id)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .where(ProviderService.provider_id.in_(provider_ids))
        .order_by(ServiceCategory.position, Service.position)
    )
    offers: dict[str, list[ProviderServiceRead]] = {pid: [] for pid in provider_ids}
    for provider_id, price, mask, service_id, slug, name, minutes, category_slug in rows:
        offers[provider_id].append(
            ProviderServiceRead(
                service_id=service_id,
                service_slug=slug,
                service_name=name,
                category_slug=category_slug,
                duration_minutes=minutes,
                price=price_at(category_slug=category_slug, price=price, at=at, sale=sale),
                locations=locations_of(mask),
            )
        )
    return offers


async def provider_read(
    session: AsyncSession, provider: Provider, at: datetime | None = None
) -> ProviderRead:
    """The provider's profile as shown: its offers priced at `at` (default: now), ZIP codes and hours."""
    at = at or datetime.now(UTC)
    offers = await load_offers(session, [provider.id], at)
    zips = (
        await session.scalars(
            select(ProviderZip.zip_code)
            .where(ProviderZip.provider_id == provider.id)
            .order_by(ProviderZip.zip_code)
        )
    ).all()
    hours = (
        await session.scalars(
            select(WeeklyHours)
            .where(WeeklyHours.provider_id == provider.id)
            .order_by(WeeklyHours.weekday, WeeklyHours.start_minute)
        )
    ).all()
    return ProviderRead(
        id=provider.id,
        user_id=provider.user_id,
        name=display_name(provider.first_name, provider.last_name),
        first_name=provider.first_name,
        last_name=provider.last_name,
        provider_type=provider.provider_type,
        license_type=provider.license_type,
        license_number=provider.license_number,
        license_state=provider.license_state,
        is_verified=provider.is_verified,
        is_active=provider.is_active,
        suspended_at=provider.suspended_at,
        credentials_lapsed_at=provider.credentials_lapsed_at,
        bio=provider.bio,
        photo_url=provider.photo_url,
        languages=list(provider.languages or []),
        time_zone=provider.time_zone,
        rating=RatingRead(average=Decimal(provider.rating_average or 0), count=provider.review_count),
        services=offers[provider.id],
        zip_codes=list(zips),
        weekly_hours=[hours_read(h) for h in hours],
    )


async def get_provider(
    *, session: AsyncSession, provider_id: str, at: datetime | None = None
) -> ProviderRead:
    """A public profile: verified and active providers only (anything else is 'not found')."""
    provider = await session.scalar(select(Provider).where(Provider.id == provider_id, *LISTED))
    if provider is None:
        raise NotFound(NO_PROVIDER)
    return await provider_read(session, provider, at)


async def get_own_provider(*, session: AsyncSession, actor: Principal) -> ProviderRead | None:
    """The signed-in account's own provider profile, listed or not (None when it has none)."""
    account = await require_account(session=session, actor=actor)
    provider = await session.scalar(select(Provider).where(Provider.user_id == account.id))
    return await provider_read(session, provider) if provider is not None else None


async def list_openings(
    *,
    session: AsyncSession,
    provider_id: str,
    service_slug: str,
    time_zone: str,
    days: int = OPENING_DAYS,
    now: datetime | None = None,
) -> list[DaySlots]:
    """A listed provider's open start times for one of their services, from today for `days` calendar
    days of the visitor's `time_zone`, day by day (empty days included)."""
    now = now or datetime.now(UTC)
    found = (
        await session.execute(
            select(Provider.time_zone, Service.duration_minutes)
            .join(ProviderService, ProviderService.provider_id == Provider.id)
            .join(Service, Service.id == ProviderService.service_id)
            .where(Provider.id == provider_id, *LISTED, Service.slug == service_slug)
        )
    ).first()
    if found is None:
        raise NotFound(NOT_OFFERED)
    provider_zone, minutes = found
    visitor_zone = ZoneInfo(_check_zone(time_zone))
    first_day = now.astimezone(visitor_zone).date()
    days = max(1, min(days, 14))
    start, _ = day_bounds(first_day, time_zone)
    _, end = day_bounds(first_day + timedelta(days=days - 1), time_zone)
    starts = await open_slots(
        session,
        provider_id=provider_id,
        provider_zone=provider_zone,
        duration_minutes=minutes,
        start=start,
        end=end,
        now=now,
    )
    by_day: dict[date, list[datetime]] = {}
    for moment in starts:
        by_day.setdefault(moment.astimezone(visitor_zone).date(), []).append(moment)
    return [
        DaySlots(day=day, starts=by_day.get(day, []))
        for day in (first_day + timedelta(days=offset) for offset in range(days))
    ]


async def list_featured(
    *, session: AsyncSession, min_reviews: int = FEATURED_MIN_REVIEWS, limit: int = FEATURED_LIMIT
) -> list[FeaturedProvider]:
    """The highest-rated listed providers with at least `min_reviews` reviews of completed visits."""
    providers = (
        await session.scalars(
            select(Provider)
            .where(*LISTED, Provider.review_count >= min_reviews)
            .order_by(Provider.rating_average.desc(), Provider.review_count.desc(), Provider.id)
            .limit(min(limit, 24))
        )
    ).all()
    offers = await load_offers(session, [p.id for p in providers], datetime.now(UTC)) if providers else {}
    return [
        FeaturedProvider(
            id=p.id,
            name=display_name(p.first_name, p.last_name),
            provider_type=p.provider_type,
            license_type=p.license_type,
            license_state=p.license_state,
            photo_url=p.photo_url,
            bio=p.bio,
            rating=RatingRead(average=Decimal(p.rating_average), count=p.review_count),
            services=[o.service_name for o in offers.get(p.id, [])],
        )
        for p in providers
    ]
