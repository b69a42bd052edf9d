"""Provider search (/find-provider) and browsing (/providers): verified, active providers filtered by service
or category, provider type, ZIP coverage, place of visit and date; sorted by soonest opening, rating or
price; 20 per page, each with its next open slot.

How it stays fast: every filter is an indexed lookup, and every page is an index walk that stops at the page.
With a ZIP code, candidates are that ZIP code's rows of `provider_zip_codes`, which carry copies of the
provider's listing state, type, time zone, weekly hours, rating, lowest price and the mask of services offered
(one bit per catalog service; kept by the commands that change them, `listing_values`): the listed ones are
one range of ix_provider_zip_codes_listed_rating in rating order, or of ix_provider_zip_codes_listed_schedule
per schedule group, with no probe into `providers`, and a service or category is a test of the mask inside
those indexes (an offer probe only for a place of visit). Without one, `providers` is walked
(ix_providers_listing by rating, ix_providers_listing_price_rating by price,
ix_providers_listing_schedule_rating per group); a service is an offer probe or a walk of the service index.
Offer probes read ix_provider_services_provider_offer alone (places and price included), and a type with a
service is first checked against the offers' (type, service) index, so a combination nobody offers costs one
probe. Every sort counts matches only up to a cap past the page (`ProviderPage.more`: "1,000+ providers
match"). A price page in a service or category is bounded first: each service's cheapest matching offers, read
in (service, price) index order, give a price no page member exceeds, and only the candidates whose lowest
price of all is at or below it (a range of ix_provider_zip_codes_listed_price or
ix_providers_listing_price_rating) are joined to their offers at or below it. Soonest-first ranks by schedule
group: the listed providers' distinct (time zone, weekly hours), a few dozen, found by a loose index scan;
`availability.SlotFinder` computes each group's first slot once, a lower bound for its members; the groups are
taken in order of it, a batch at a time (the first sized from the count), one branch per group walking its
members in rating order and stopping after the rows needed, until the page is certain: a broad search reads
only its first rank's groups, and never builds the other few dozen branches. Only the rows fetched have their
busy time loaded. A date filter drops the groups without a slot that day; its count counts in SQL the
candidates without time off or visits that day (they have their group's slot), and the busy time is checked
only of the others it needs and of the page's candidates, never of all. The page itself is loaded in a fixed
number of queries, whatever its size.

The one write: a search with a ZIP code that finds no provider adds one to that ZIP's count of the day
(`analytics.record_unmet_search`, unmet demand for staff analytics; no personal data).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeAlias
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Float,
    Integer,
    Row,
    SQLColumnExpression,
    and_,
    exists,
    false,
    func,
    literal,
    not_,
    select,
    text,
    true,
    tuple_,
    type_coerce,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import QueryableAttribute

from app.services.analytics.internal import record_unmet_search
from app.services.providers._availability import SlotFinder
from app.services.providers._profiles import LISTED, display_name, load_offers
from app.services.shared.clock import day_bounds
from app.settings import get_settings
from models.catalog import Service, ServiceCategory, service_mask
from models.provider import (
    LISTED_SQL,
    MAX_PAGE_SIZE,
    Provider,
    ProviderCard,
    ProviderPage,
    ProviderQuery,
    ProviderService,
    ProviderServiceRead,
    ProviderType,
    ProviderZip,
    RatingRead,
    SearchSort,
)

UNKNOWN_SERVICE = 'We don\'t offer a service called "{slug}", so all services are shown.'


@dataclass(frozen=True)
class _CatalogEntry:
    id: str
    slug: str
    category_slug: str
    duration_minutes: int
    search_bit: int | None


@dataclass(frozen=True)
class _Scope:
    """What the service filter resolved to: one service, a category's services, or any service (None)."""

    service_ids: tuple[str, ...] | None
    chosen: _CatalogEntry | None
    default_minutes: int
    mask: int | None = None  # the services' bits in `service_mask`, if every one has a bit


def _scope_of(entries: list[_CatalogEntry], chosen: _CatalogEntry | None, minutes: int) -> _Scope:
    bits = [e.search_bit for e in entries]
    mask = None if None in bits else service_mask(bits)
    return _Scope(tuple(e.id for e in entries), chosen, minutes, mask)


def visitor_zone(name: str | None) -> str:
    try:
        ZoneInfo(name or "")
    except (ZoneInfoNotFoundError, ValueError):
        return get_settings().default_time_zone
    return name or get_settings().default_time_zone


async def _scope(session: AsyncSession, service: str | None) -> tuple[_Scope, str | None]:
    rows = await session.execute(
        select(Service.id, Service.slug, ServiceCategory.slug, Service.duration_minutes, Service.search_bit)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .where(Service.is_active.is_(True))
    )
    entries = [_CatalogEntry(*row) for row in rows]
    # Without one chosen service, a slot must fit the longest visit in scope: then any visit fits it.
    longest = max((e.duration_minutes for e in entries), default=60)
    if not service:
        return _Scope(None, None, longest), None
    chosen = next((e for e in entries if e.slug == service), None)
    if chosen is not None:
        return _scope_of([chosen], chosen, chosen.duration_minutes), None
    in_category = [e for e in entries if e.category_slug == service]
    if in_category:
        minutes = max(e.duration_minutes for e in in_category)
        return _scope_of(in_category, None, minutes), None
    return _Scope(None, None, longest), UNKNOWN_SERVICE.format(slug=service[:40])


@dataclass(frozen=True)
class _Base:
    """Where candidates are read from: `providers`, or, with a ZIP code, that ZIP code's rows of
    `provider_zip_codes`, which carry copies of the provider columns search needs (`listing_values`)."""

    id: QueryableAttribute[str]
    time_zone: QueryableAttribute[str]
    schedule_key: QueryableAttribute[str]
    rating: QueryableAttribute[Decimal]
    review_count: QueryableAttribute[int]
    provider_type: QueryableAttribute[ProviderType | None]
    lowest_price: QueryableAttribute[Decimal | None]
    listed: tuple[ColumnElement[bool], ...]
    # With a ZIP code: the copy of the offered services' mask, in its indexes.
    service_mask: SQLColumnExpression[int] | None = None


PROVIDERS = _Base(
    Provider.id,
    Provider.time_zone,
    Provider.schedule_key,
    Provider.rating_average,
    Provider.review_count,
    Provider.provider_type,
    Provider.lowest_price,
    LISTED,
)


def _base(query: ProviderQuery) -> _Base:
    if query.zip_code is None:
        return PROVIDERS
    z = ProviderZip
    return _Base(
        z.provider_id,
        z.time_zone,
        z.schedule_key,
        z.rating_average,
        z.review_count,
        z.provider_type,
        z.lowest_price,
        (z.zip_code == query.zip_code, z.listed == true()),  # the partial indexes' condition
        z.service_mask,
    )


ORDER_BY_RATING = (Provider.rating_average.desc(), Provider.review_count.desc(), Provider.id)


def _order_by_rating(base: _Base) -> tuple[SQLColumnExpression[Any], ...]:
    return (base.rating.desc(), base.review_count.desc(), base.id)


def _offer_conditions(scope: _Scope, query: ProviderQuery) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if scope.service_ids is not None:
        if len(scope.service_ids) == 1:
            conditions.append(ProviderService.service_id == scope.service_ids[0])
        else:
            conditions.append(ProviderService.service_id.in_(scope.service_ids))
    if query.location is not None:
        conditions.append(ProviderService.location_mask.op("&")(query.location.bit) != 0)
    return conditions


def _filters(
    base: _Base, scope: _Scope, query: ProviderQuery, *, offers: bool = True
) -> list[ColumnElement[bool]]:
    """The conditions on the candidates; without the one on their offers when `offers` is false."""
    conditions = [*base.listed]
    if query.provider_type is not None:
        conditions.append(base.provider_type == query.provider_type)
    offer_conditions = _offer_conditions(scope, query)
    if not (offer_conditions and offers):
        return conditions
    if base.service_mask is not None and scope.mask is not None:
        # The services, by the mask copied onto the ZIP code's rows: checked inside its listing indexes.
        conditions.append(base.service_mask.op("&")(scope.mask) != 0)
        if query.location is None:
            return conditions
    # A probe of the candidate's offers (an index-only one): pages and capped counts stop early. Its own
    # offers table, even in a statement that joins the offers (a price page).
    probe = exists().where(ProviderService.provider_id == base.id, *offer_conditions)
    conditions.append(probe.correlate_except(ProviderService))
    return conditions


async def _anyone_offers(session: AsyncSession, scope: _Scope, query: ProviderQuery) -> bool:
    """Whether any provider of the chosen type offers a service in scope (there, if a place is chosen): one
    probe of the offers' (type, service) index, so a combination nobody offers is not searched for among
    every provider of the type."""
    offered = exists().where(
        ProviderService.provider_type == query.provider_type, *_offer_conditions(scope, query)
    )
    return bool(await session.scalar(select(literal(1)).where(offered)))


def _price(base: _Base, scope: _Scope, query: ProviderQuery) -> SQLColumnExpression[Decimal | None]:
    """The price a provider is sorted by: the lowest of the services in scope (list prices)."""
    offer_conditions = _offer_conditions(scope, query)
    if not offer_conditions:
        return base.lowest_price
    return (
        select(func.min(ProviderService.price))
        .where(ProviderService.provider_id == base.id, *offer_conditions)
        .scalar_subquery()
    )


def _by_rating(row: _Row) -> tuple[float, int, str]:
    """A row with id, rating_average and review_count, in rating order."""
    return (-(row.rating_average or 0), -row.review_count, row.id)


NEVER = datetime.max.replace(tzinfo=UTC)


def _slot_order(slot: datetime | None) -> tuple[bool, datetime]:
    return (slot is None, slot or NEVER)


async def search_providers(
    *,
    session: AsyncSession,
    query: ProviderQuery,
    time_zone: str | None = None,
    now: datetime | None = None,
    count_unmet: bool = False,
) -> ProviderPage:
    """One page of listed providers matching `query`; `time_zone` is the visitor's (for the date filter).
    `count_unmet`: a search with a ZIP code that finds nobody counts as unmet demand (the search screen's
    live page sets it, not the throw-away copy rendered for the first paint)."""
    now = now or datetime.now(UTC)
    per_page = max(1, min(query.per_page, MAX_PAGE_SIZE))
    scope, note = await _scope(session, query.service)
    if note:
        query = query.model_copy(update={"service": None})
    base = _base(query)
    conditions = _filters(base, scope, query)
    typed_scope = query.provider_type is not None and scope.service_ids is not None
    if typed_scope and not await _anyone_offers(session, scope, query):
        conditions.append(false())
    not_before = before = None
    if query.day is not None:
        not_before, before = day_bounds(query.day, visitor_zone(time_zone))
    finder = SlotFinder(now=now, minutes=scope.default_minutes, not_before=not_before, before=before)

    cap = max(COUNT_CAP, query.page * per_page)
    groups: list[_Group] = []
    if query.sort == SearchSort.soonest or query.day is not None:
        groups = await _schedule_groups(session, query, finder)
    if query.day is not None:
        # Whole groups without a slot on the day go; busy time may still leave a member none (checked below).
        groups = [g for g in groups if g.first is not None]
        conditions = [*conditions, _in_groups(base, groups) if groups else false()]
        total, more = await _count_available(session, base, conditions, finder, cap)
    else:
        total, more = await _count(session, base, conditions, cap)
    if count_unmet and total == 0 and query.zip_code is not None:
        # Unmet demand for staff analytics: one counter per ZIP per day, nothing about the visitor.
        await record_unmet_search(session, zip_code=query.zip_code, now=now)
    page = _clamp(query.page, total, per_page)
    need = page * per_page
    available_only = query.day is not None
    if query.sort == SearchSort.soonest:
        page_ids = await _soonest(
            session, base, conditions, groups, finder, need, matches=total, available_only=available_only
        )
    elif available_only:
        page_ids = await _available_in_order(session, base, conditions, scope, query, finder, need)
    else:
        page_ids = [row.id for row in await _ordered_rows(session, base, conditions, scope, query, need)]
    page_ids = page_ids[(page - 1) * per_page : need]

    items = await _cards(session, page_ids, scope, query, now, finder)
    return ProviderPage(
        items=items,
        total=total,
        page=page,
        per_page=per_page,
        query=query.model_copy(update={"page": page}),
        notes=[note] if note else [],
        more=more,
    )


COUNT_CAP = 1000
_Row: TypeAlias = "Row[*tuple[Any, ...]]"  # a row of the search's statements, read by column name


async def _count(
    session: AsyncSession, base: _Base, conditions: list[ColumnElement[bool]], cap: int
) -> tuple[int, bool]:
    """(matches, whether there are more): counting stops past `cap`, so a broad search does not visit
    every match just to print their number."""
    matches = select(base.id).where(*conditions).limit(cap + 1).subquery()
    found = await session.scalar(select(func.count()).select_from(matches)) or 0
    return (cap, True) if found > cap else (found, False)


async def _ordered_rows(
    session: AsyncSession,
    base: _Base,
    conditions: list[ColumnElement[bool]],
    scope: _Scope,
    query: ProviderQuery,
    need: int,
    *,
    schedules: bool = False,
) -> list[_Row]:
    """The first `need` candidates by rating (or by price, then rating), as rows of (id), or of (id,
    time_zone, schedule_key) with `schedules` (ids alone keep a walk through ties index-only)."""
    columns = [base.id.label("id")]
    grouped = [base.time_zone, base.schedule_key] if schedules else []
    columns += [column.label(column.key) for column in grouped]
    statement = select(*columns).where(*conditions)
    by_rating = _order_by_rating(base)
    if query.sort != SearchSort.price:
        statement = statement.order_by(*by_rating)
    elif (bound := await _price_bound(session, base, scope, query, need)) is not None:
        # Only the candidates' offers at or below the bound: their lowest is the provider's lowest price in
        # scope. A candidate's lowest price of all (its listing copy, in the price indexes) is no higher, so
        # only candidates with one at or below the bound are joined to their offers (not every offer in
        # scope at or below it, across the country).
        offers = and_(
            ProviderService.provider_id == base.id,
            *_offer_conditions(scope, query),
            ProviderService.price <= bound,
        )
        statement = (
            statement.join(ProviderService, offers)
            .where(base.lowest_price <= bound)
            .group_by(base.id, base.rating, base.review_count, *grouped)
            .order_by(func.min(ProviderService.price), *by_rating)
        )
    else:
        statement = statement.order_by(_price(base, scope, query).asc().nulls_last(), *by_rating)
    return list((await session.execute(statement.limit(need))).all())


async def _price_bound(
    session: AsyncSession, base: _Base, scope: _Scope, query: ProviderQuery, need: int
) -> Decimal | None:
    """A price no higher than the lowest in-scope price of the `need` cheapest candidates, or None.

    Sorting by price needs each candidate's lowest price among the services in scope: computed for every
    candidate, that is most of a broad search's time. Instead each service's `need` cheapest matching
    offers are read in (service, price) index order; the `need`-th provider among them, by the lowest
    price seen, bounds the page: every provider ranked up to `need` has an in-scope offer at or below it.
    """
    if scope.service_ids is None:
        return None
    location = [] if query.location is None else _offer_conditions(_Scope(None, None, 0), query)
    where = _filters(base, scope, query, offers=False)
    table = base.id.table
    cheapest = [
        select(ProviderService.provider_id, ProviderService.price)
        .join(table, base.id == ProviderService.provider_id)
        .where(ProviderService.service_id == service_id, *location, *where)
        .order_by(ProviderService.price)
        .limit(need)
        .subquery()
        for service_id in scope.service_ids
    ]
    statement: CompoundSelect[str, Decimal] = union_all(
        *(select(sub.c.provider_id, sub.c.price) for sub in cheapest)
    )
    seen: set[str] = set()
    for provider_id, price in sorted((await session.execute(statement)).all(), key=lambda row: row[1]):
        seen.add(provider_id)
        if len(seen) == need:
            return price
    return None  # fewer than `need` candidates: no bound needed


@dataclass(frozen=True)
class _Group:
    """Listed providers sharing a time zone and weekly hours: without busy time they share a first slot."""

    time_zone: str
    schedule: str
    first: datetime | None


# The distinct (time zone, weekly hours) of listed providers (of a ZIP code's), a few dozen at most (a ZIP code's
# share a time zone): on PostgreSQL one index probe per pair (a loose index scan of
# ix_providers_listing_schedule_rating or ix_provider_zip_codes_listed_schedule), however many share them.
_LOOSE_SCAN = """
    WITH RECURSIVE pairs(time_zone, schedule_key) AS (
        (SELECT time_zone, schedule_key FROM {table} WHERE {listed} ORDER BY time_zone, schedule_key LIMIT 1)
        UNION ALL
        SELECT following.time_zone, following.schedule_key FROM pairs, LATERAL (
            SELECT t.time_zone, t.schedule_key FROM {table} AS t
            WHERE {listed} AND (t.time_zone, t.schedule_key) > (pairs.time_zone, pairs.schedule_key)
            ORDER BY t.time_zone, t.schedule_key LIMIT 1
        ) AS following
    )
    SELECT time_zone, schedule_key FROM pairs
"""
_DISTINCT_SCHEDULES = text(_LOOSE_SCAN.format(table="providers", listed=LISTED_SQL))
_DISTINCT_ZIP_SCHEDULES = text(
    _LOOSE_SCAN.format(table="provider_zip_codes", listed="zip_code = :zip AND listed")
)


async def _schedule_groups(session: AsyncSession, query: ProviderQuery, finder: SlotFinder) -> list[_Group]:
    """Every (time zone, weekly hours) among listed providers (of the ZIP code, if one is chosen), by first
    slot: candidates need not be counted per group, so a broad search never visits them all."""
    postgres = session.get_bind().dialect.name == "postgresql"
    if query.zip_code is not None:
        if postgres:
            rows = await session.execute(_DISTINCT_ZIP_SCHEDULES, {"zip": query.zip_code})
        else:
            z = ProviderZip
            rows = await session.execute(
                select(z.time_zone, z.schedule_key)
                .where(z.zip_code == query.zip_code, z.listed == true())
                .distinct()
            )
    elif postgres:
        rows = await session.execute(_DISTINCT_SCHEDULES)
    else:
        rows = await session.execute(
            select(Provider.time_zone, Provider.schedule_key).where(*LISTED).distinct()
        )
    groups = [_Group(tz, schedule, finder.unblocked(tz, schedule)) for tz, schedule in rows]
    return sorted(groups, key=lambda g: (*_slot_order(g.first), g.time_zone, g.schedule))


def _in_groups(base: _Base, groups: list[_Group]) -> ColumnElement[bool]:
    return tuple_(base.time_zone, base.schedule_key).in_([(g.time_zone, g.schedule) for g in groups])


MAX_CHECKED = 8000  # candidates whose busy time is loaded by id; past that, by a subquery of them all


async def _count_available(
    session: AsyncSession, base: _Base, conditions: list[ColumnElement[bool]], finder: SlotFinder, cap: int
) -> tuple[int, bool]:
    """`_count` for a date filter: only candidates with a slot on the day count. The groups without one are
    gone from `conditions`, so a candidate without busy or blocked time in the day's window has its group's
    slot: those are counted in SQL (up to the cap), with no row fetched. Only while that leaves the count
    undecided are the others fetched (as many as could decide it first) and checked against their busy time."""
    free, more = await _count(session, base, [*conditions, *finder.free(base.id)], cap)
    if more:
        return cap, True
    constrained = [*conditions, not_(and_(*finder.free(base.id)))]
    limit = cap + 1 - free
    while True:
        statement = select(
            base.id.label("id"), base.time_zone.label("time_zone"), base.schedule_key.label("schedule_key")
        ).where(*constrained)
        rows = (await session.execute(statement.limit(limit))).all()
        await finder.load(
            session, [r.id for r in rows] if limit <= MAX_CHECKED else select(base.id).where(*constrained)
        )
        available = free + sum(1 for r in rows if finder.exact(r.id, r.time_zone, r.schedule_key) is not None)
        if available > cap:
            return cap, True
        if len(rows) < limit:
            return available, False
        limit = max(limit * 2, limit + cap + 1 - available)


async def _available_in_order(
    session: AsyncSession,
    base: _Base,
    conditions: list[ColumnElement[bool]],
    scope: _Scope,
    query: ProviderQuery,
    finder: SlotFinder,
    need: int,
) -> list[str]:
    """The first `need` candidates in rating or price order that have a slot on the chosen day."""
    fetch = need + 10
    while True:
        rows = await _ordered_rows(session, base, conditions, scope, query, fetch, schedules=True)
        await finder.load(session, [r.id for r in rows])
        kept = [r.id for r in rows if finder.exact(r.id, r.time_zone, r.schedule_key) is not None]
        if len(kept) >= need or len(rows) < fetch:
            return kept[:need]
        fetch *= 2


SPARE_ROWS = 10  # rows soonest fetches past the page, for members whose busy time puts them further back


def _first_batch(groups: list[_Group], matches: int, limit: int) -> int:
    """How many groups soonest's first statement ranks: enough to hold about `limit` of the `matches`
    candidates (half as many again, as groups differ in size; a capped count only makes it more), rounded
    up to whole ranks, so one statement usually settles the page."""
    per_group = max(matches, 1) / len(groups)
    end = min(len(groups), max(1, math.ceil(1.5 * limit / per_group)))
    while end < len(groups) and groups[end].first == groups[end - 1].first:
        end += 1
    return end


def _soonest_statement(
    base: _Base,
    conditions: list[ColumnElement[bool]],
    batch: list[_Group],
    rank_of: dict[tuple[bool, datetime], int],
    limit: int,
) -> CompoundSelect[*tuple[Any, ...]]:
    """The first `limit` candidates of `batch`'s groups by (their group's first slot, rating): one branch
    per group, an index range in rating order that stops after `limit` rows. The union is ordered as it
    stands (a SELECT around it would copy every branch's columns: most of the Python cost)."""
    columns = (
        base.id.label("id"),
        base.time_zone.label("time_zone"),
        base.schedule_key.label("schedule_key"),
        type_coerce(base.rating, Float).label("rating_average"),
        base.review_count.label("review_count"),
    )
    order_by_rating = _order_by_rating(base)
    branches = union_all(
        *(
            select(*columns, literal(rank_of[_slot_order(g.first)], Integer).label("rank"))
            .where(*conditions, base.time_zone == g.time_zone, base.schedule_key == g.schedule)
            .order_by(*order_by_rating)
            .limit(limit)
            .subquery()
            .select()
            for g in batch
        )
    )
    c = branches.selected_columns
    return branches.order_by(c.rank, c.rating_average.desc(), c.review_count.desc(), c.id).limit(limit)


async def _soonest(
    session: AsyncSession,
    base: _Base,
    conditions: list[ColumnElement[bool]],
    groups: list[_Group],
    finder: SlotFinder,
    need: int,
    *,
    matches: int,
    available_only: bool = False,
) -> list[str]:
    """The first `need` candidates by first open slot (ties: rating, reviews, id), out of `matches` (the
    capped count); with `available_only` (a date filter), only those with a slot at all.

    A group's shared first slot is a lower bound for each member. The groups are taken in order of it, a
    batch at a time (`_soonest_statement`; the first sized by `_first_batch`, then twice as many groups
    each time), and the rows fetched have their busy time checked, until `need` rows are certainly ahead of
    every row not looked at yet: those past the batch's limit, and the members of the groups not taken
    yet. Each branch costs Python to build and reads up to `limit` rows, so a search whose first groups
    fill the page never touches the other few dozen; usually it is one statement, whatever the page size.
    """
    if need <= 0 or not groups or matches == 0:
        return []
    firsts = sorted({_slot_order(g.first) for g in groups})
    rank_of = {first: index for index, first in enumerate(firsts)}
    limit = need + SPARE_ROWS
    start, end = 0, _first_batch(groups, matches, limit)
    done: list[_Row] = []  # the rows of groups[:start], every one of their members
    while True:
        statement = _soonest_statement(base, conditions, groups[start:end], rank_of, limit)
        rows = (await session.execute(statement)).all()
        await finder.load(session, [r.id for r in rows])

        def key(row: _Row) -> tuple[bool, datetime, float, int, str]:
            return (*_slot_order(finder.exact(row.id, row.time_zone, row.schedule_key)), *_by_rating(row))

        ranked = sorted([*done, *rows], key=key)
        if available_only:
            ranked = [r for r in ranked if finder.exact(r.id, r.time_zone, r.schedule_key) is not None]
        # Rows not fetched from the batch come after its last one in (first slot, rating) order; members of
        # the groups not taken yet, at or after the next group's first slot.
        truncated = len(rows) == limit
        past_batch = (*firsts[rows[-1].rank], *_by_rating(rows[-1])) if truncated else None
        next_group = _slot_order(groups[end].first) if end < len(groups) else None
        bounds = [b for b in (past_batch, next_group) if b is not None]
        if not bounds:
            return [r.id for r in ranked[:need]]  # every candidate has been looked at
        bound = min(bounds)
        certain = 0
        for row in ranked:
            if key(row) >= bound:
                break
            certain += 1
        if certain >= need:
            return [r.id for r in ranked[:need]]
        if truncated and past_batch == bound:
            limit *= 2  # the same groups, further
        elif truncated:
            end = min(len(groups), end + (end - start))  # more groups, with the rows still due from these
        else:
            done += rows
            start, end = end, min(len(groups), end + 2 * (end - start))


def _clamp(page: int, total: int, per_page: int) -> int:
    return max(1, min(page, -(-total // per_page)))


def _in_scope(offer: ProviderServiceRead, scope: _Scope, query: ProviderQuery) -> bool:
    if scope.service_ids is not None and offer.service_id not in scope.service_ids:
        return False
    return query.location is None or query.location in offer.locations


async def _cards(
    session: AsyncSession,
    ids: list[str],
    scope: _Scope,
    query: ProviderQuery,
    now: datetime,
    finder: SlotFinder,
) -> list[ProviderCard]:
    """Cards for one page of providers, in the order of `ids` (a fixed number of queries)."""
    if not ids:
        return []
    providers = {p.id: p for p in (await session.scalars(select(Provider).where(Provider.id.in_(ids)))).all()}
    offers = await load_offers(session, ids, now)
    await finder.load(session, ids)
    cards = []
    for pid in ids:
        p = providers[pid]
        matching = [o for o in offers.get(pid, []) if _in_scope(o, scope, query)]
        cheapest = min(matching, key=lambda o: o.price.charge, default=None)
        cards.append(
            ProviderCard(
                id=p.id,
                name=display_name(p.first_name, p.last_name),
                provider_type=p.provider_type,
                license_type=p.license_type,
                license_state=p.license_state,
                photo_url=p.photo_url,
                bio=p.bio,
                languages=list(p.languages or []),
                rating=RatingRead(average=Decimal(p.rating_average or 0), count=p.review_count),
                services=[o.service_name for o in matching],
                price=cheapest.price if cheapest else None,
                price_is_from=scope.chosen is None and len(matching) > 1,
                next_slot=finder.exact(pid, p.time_zone, p.schedule_key),
                slot_minutes=scope.chosen.duration_minutes if scope.chosen else None,
            )
        )
    return cards
