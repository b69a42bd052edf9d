"""Flights: an advertiser submits one (placements, dates, budget, creative) and edits its creative; staff with
manage_ads review it (approve / reject with a reason), pause, resume and end it. Every change is audited, a
new or edited creative is screened for health claims and waits for a person (never approved by itself), and
anything that changes what may serve tells every process to reload its snapshot (`TOPIC`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.principal import Principal
from app.services.accounts import account_of
from app.services.ads._billing import (
    CARD,
    billing_for,
    close_flight_money,
    invoice_numbers,
    invoiced_advertisers,
    payments_of,
)
from app.services.ads._rules import (
    BAD_CHANGE,
    FINISHED,
    FULL,
    MAX_IN_REVIEW,
    MAX_PAGE_SIZE,
    NO_FLIGHT,
    NO_IMAGE,
    NOT_IN_REVIEW,
    PAGE_SIZE,
    PRICE_OF,
    PRICES,
    REASON_REQUIRED,
    REASON_TOO_LONG,
    SOLD,
    TOO_MANY_WAITING,
    TOPIC,
    clean,
    creative_problems,
    flight_problems,
    parse_budget,
    parse_day,
    require_ads_staff,
    require_advertiser,
    screen_claims,
    today,
)
from app.services.domain_events import AdFlightDecided
from app.services.errors import NotFound, ValidationFailed
from models.ads import (
    MAX_REASON,
    AdCreative,
    AdFlight,
    AdFlightPlacement,
    AdImage,
    AvailabilityRead,
    FlightCreate,
    FlightPage,
    FlightRead,
    FlightStatus,
    PriceRead,
)
from models.audit import AuditAction
from models.base import utcnow
from models.identity import User

S = FlightStatus
IMAGE_PATH = "/api/ads/images/{id}"
# Flights that hold a place in a placement's calendar.
HOLDING = (S.review.value, S.payment.value, S.approved.value, S.paused.value)
# Staff's moves after review: (from, to).
MOVES = {
    (S.approved, S.paused),
    (S.paused, S.approved),
    (S.approved, S.ended),
    (S.paused, S.ended),
    (S.review, S.ended),
    (S.payment, S.ended),
}


class FlightInvalid(ValidationFailed):
    """A flight as typed has problems: `errors` maps each field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


def list_ad_prices() -> list[PriceRead]:
    """The price list: every SPEC placement, its price per thousand views, or why it is not sold."""
    return [
        PriceRead(
            placement=p.placement.value,
            label=p.label,
            where=p.where,
            cpm_cents=p.cpm_cents,
            capacity=p.capacity,
            used=p.used,
        )
        for p in PRICES
    ]


async def _booked(
    session: AsyncSession, starts: date, ends: date, placements: Iterable[str], *, excluding: str = ""
) -> dict[str, int]:
    """The most flights holding each placement on any one day from `starts` to `ends` (one query)."""
    wanted = list(placements)
    query = (
        select(AdFlightPlacement.placement, AdFlight.starts_on, AdFlight.ends_on)
        .join(AdFlight, AdFlight.id == AdFlightPlacement.flight_id)
        .where(
            AdFlightPlacement.placement.in_(wanted),
            AdFlight.status.in_(HOLDING),
            AdFlight.starts_on <= ends,
            AdFlight.ends_on >= starts,
        )
    )
    if excluding:
        query = query.where(AdFlight.id != excluding)
    spans: dict[str, list[tuple[date, date]]] = defaultdict(list)
    for placement, first, last in (await session.execute(query)).all():
        spans[placement].append((max(first, starts), min(last, ends)))
    most: dict[str, int] = {}
    for placement in wanted:
        # A sweep over start and end events: the running count's peak is the busiest day.
        events_: list[tuple[date, int]] = []
        for first, last in spans.get(placement, ()):
            events_ += [(first, 1), (last + timedelta(days=1), -1)]
        running = peak = 0
        for _day, change in sorted(events_):
            running += change
            peak = max(peak, running)
        most[placement] = peak
    return most


async def get_ad_availability(
    *, session: AsyncSession, starts_on: str, ends_on: str
) -> list[AvailabilityRead]:
    """How many of each sold placement's places are free on every day of the range (anyone may ask)."""
    starts, ends = parse_day(starts_on), parse_day(ends_on)
    if ends < starts or (ends - starts).days > 366:
        raise ValidationFailed("Choose a first day and a last day up to a year apart.")
    booked = await _booked(session, starts, ends, (p.placement.value for p in SOLD))
    return [
        AvailabilityRead(
            placement=p.placement.value,
            label=p.label,
            capacity=p.capacity,
            booked=booked[p.placement.value],
            free=max(p.capacity - booked[p.placement.value], 0),
        )
        for p in SOLD
    ]


async def _image_of(session: AsyncSession, owner_id: str, image_id: str) -> str | None:
    if not image_id:
        return None
    found = await session.scalar(
        select(AdImage.id).where(AdImage.id == image_id[:36], AdImage.owner_id == owner_id)
    )
    if found is None:
        raise FlightInvalid({"image": NO_IMAGE})
    return found


async def _reads(session: AsyncSession, rows: Sequence[AdFlight]) -> list[FlightRead]:
    """Flights as read models: their placements and advertisers' names in two queries for the lot."""
    ids = [row.id for row in rows]
    placements: dict[str, list[str]] = defaultdict(list)
    names: dict[str, str] = {}
    if ids:
        found = await session.execute(
            select(AdFlightPlacement.flight_id, AdFlightPlacement.placement)
            .where(AdFlightPlacement.flight_id.in_(ids))
            .order_by(AdFlightPlacement.placement)
        )
        for flight_id, placement in found.all():
            placements[flight_id].append(placement)
        users = await session.scalars(select(User).where(User.id.in_({row.advertiser_id for row in rows})))
        names = {user.id: account_of(user).name for user in users}
    paid = await payments_of(session, [row.id for row in rows if row.billing == CARD])
    numbers = await invoice_numbers(session, {row.invoice_id for row in rows if row.invoice_id})
    on_terms = await invoiced_advertisers(session, {row.advertiser_id for row in rows})
    return [
        FlightRead(
            id=row.id,
            advertiser_id=row.advertiser_id,
            advertiser_name=names.get(row.advertiser_id, "Advertiser"),
            name=row.name,
            status=FlightStatus(row.status),
            starts_on=row.starts_on,
            ends_on=row.ends_on,
            budget_cents=row.budget_cents,
            spent_cents=row.spent_millicents // 1000,
            headline=row.headline,
            body=row.body,
            link_url=row.link_url,
            image_url=IMAGE_PATH.format(id=row.image_id) if row.image_id else "",
            placements=tuple(placements.get(row.id, ())),
            flags=tuple(row.flags or ()),
            reason=row.reason,
            revision=row.revision,
            created_at=row.created_at,
            billing=row.billing,
            paid_cents=paid[row.id].amount if row.id in paid else 0,
            refunded_cents=paid[row.id].refunded_cents if row.id in paid else 0,
            settled=row.settled_at is not None,
            invoice_number=numbers.get(row.invoice_id or "", ""),
            invoiced_advertiser=row.advertiser_id in on_terms,
        )
        for row in rows
    ]


async def submit_ad_flight(*, session: AsyncSession, actor: Principal, data: FlightCreate) -> FlightRead:
    """An advertiser books a flight; it waits for review with the screening's findings attached."""
    account = await require_advertiser(session=session, actor=actor)
    problems = flight_problems(data)
    if problems:
        raise FlightInvalid(problems)
    waiting = await session.scalar(
        select(func.count())
        .select_from(AdFlight)
        .where(AdFlight.advertiser_id == account.id, AdFlight.status == S.review.value)
    )
    if (waiting or 0) >= MAX_IN_REVIEW:
        raise ValidationFailed(TOO_MANY_WAITING)
    starts, ends = parse_day(data.starts_on), parse_day(data.ends_on)
    chosen = sorted(set(data.placements))
    booked = await _booked(session, starts, ends, chosen)
    full = [code for code in chosen if booked[code] >= PRICE_OF[code].capacity]
    if full:
        raise FlightInvalid({"placements": FULL.format(label=PRICE_OF[full[0]].label)})
    creative = data.creative
    image_id = await _image_of(session, account.id, creative.image_id)
    headline, body = clean(creative.headline), clean(creative.body)
    flags = screen_claims(headline, body)
    row = AdFlight(
        advertiser_id=account.id,
        name=clean(data.name),
        status=S.review.value,
        starts_on=starts,
        ends_on=ends,
        budget_cents=parse_budget(data.budget),
        spent_millicents=0,
        headline=headline,
        body=body,
        link_url=creative.link_url.strip(),
        image_id=image_id,
        flags=flags,
    )
    session.add(row)
    await session.flush()
    session.add_all(
        AdFlightPlacement(flight_id=row.id, placement=code, cpm_cents=PRICE_OF[code].cpm_cents)
        for code in chosen
    )
    await session.flush()
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.ad_submit,
        target=f"ad flight {row.id}",
        details={"placements": chosen, "budget_cents": row.budget_cents, "flags": flags},
    )
    return (await _reads(session, [row]))[0]


async def edit_ad_creative(
    *, session: AsyncSession, actor: Principal, flight_id: str, creative: AdCreative
) -> FlightRead:
    """The advertiser changes the creative; any change sends the flight back to review (a live ad stops
    serving until a person has looked at the new one)."""
    account = await require_advertiser(session=session, actor=actor)
    row = await session.get(AdFlight, flight_id[:36], with_for_update=True, populate_existing=True)
    if row is None or row.advertiser_id != account.id:
        raise NotFound(NO_FLIGHT)
    if row.status in (S.ended.value, S.spent.value):
        raise ValidationFailed(FINISHED)
    problems = creative_problems(creative.headline, creative.body, creative.link_url)
    if problems:
        raise FlightInvalid(problems)
    image_id = await _image_of(session, account.id, creative.image_id) if creative.image_id else row.image_id
    new = {
        "headline": clean(creative.headline),
        "body": clean(creative.body),
        "link_url": creative.link_url.strip(),
        "image_id": image_id,
    }
    changed = [field for field, value in new.items() if getattr(row, field) != value]
    if not changed:
        return (await _reads(session, [row]))[0]
    was = row.status
    for field, value in new.items():
        setattr(row, field, value)
    row.flags = screen_claims(row.headline, row.body)
    row.revision += 1
    row.status = S.review.value
    row.reason = ""
    await session.flush()
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.ad_edit,
        target=f"ad flight {row.id}",
        details={"fields": changed, "from": was, "revision": row.revision, "flags": row.flags},
    )
    if was == S.approved.value:
        await events.publish_on_commit(session, TOPIC, {"flight_id": row.id})
    return (await _reads(session, [row]))[0]


async def list_my_ad_flights(*, session: AsyncSession, actor: Principal) -> list[FlightRead]:
    """The signed-in advertiser's own flights, newest first (at most MAX_PAGE_SIZE)."""
    account = await require_advertiser(session=session, actor=actor)
    rows = (
        await session.scalars(
            select(AdFlight)
            .where(AdFlight.advertiser_id == account.id)
            .order_by(AdFlight.created_at.desc(), AdFlight.id)
            .limit(MAX_PAGE_SIZE)
        )
    ).all()
    return await _reads(session, rows)


async def list_ad_flights(
    *,
    session: AsyncSession,
    actor: Principal,
    status: str = "review",
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> FlightPage:
    """Staff's queue (manage_ads): flights in `status` ("" for all), oldest first for review, else newest."""
    await require_ads_staff(session=session, actor=actor)
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    page = max(1, min(page, 10_000))
    query = select(AdFlight)
    if status in {s.value for s in FlightStatus}:
        query = query.where(AdFlight.status == status)
    order = AdFlight.created_at.asc() if status == S.review.value else AdFlight.created_at.desc()
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = (
        await session.scalars(
            query.order_by(order, AdFlight.id).limit(page_size).offset((page - 1) * page_size)
        )
    ).all()
    return FlightPage(items=await _reads(session, rows), total=total or 0, page=page, page_size=page_size)


def _reason(text: str, *, required: bool) -> str:
    reason = clean(text)
    if required and not reason:
        raise ValidationFailed(REASON_REQUIRED)
    if len(reason) > MAX_REASON:
        raise ValidationFailed(REASON_TOO_LONG)
    return reason


async def review_ad_flight(
    *, session: AsyncSession, actor: Principal, flight_id: str, approve: bool, reason: str = ""
) -> FlightRead:
    """Staff (manage_ads) approve a flight in review, or reject it with a reason the advertiser sees."""
    staff = await require_ads_staff(session=session, actor=actor)
    reason = _reason(reason, required=not approve)
    row = await session.get(AdFlight, flight_id[:36], with_for_update=True, populate_existing=True)
    if row is None:
        raise NotFound(NO_FLIGHT)
    if row.status != S.review.value:
        raise ValidationFailed(NOT_IN_REVIEW)
    if approve and row.ends_on < today():
        raise ValidationFailed("This flight's last day has passed; it can only be rejected.")
    if approve:
        # Prepaid by card before it serves, or run on terms (app/services/ads/_billing).
        row.billing = row.billing or await billing_for(session, row.advertiser_id)
        unpaid = row.billing == CARD and row.id not in await payments_of(session, [row.id])
        row.status = (S.payment if unpaid else S.approved).value
    else:
        row.status = S.rejected.value
    row.reason = reason
    row.reviewed_by = staff.id
    row.reviewed_at = utcnow()
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.ad_review,
        target=f"ad flight {row.id}",
        details={
            "decision": row.status,
            "reason": reason,
            "revision": row.revision,
            "flags": list(row.flags or ()),
        },
    )
    await events.publish_on_commit(session, TOPIC, {"flight_id": row.id})
    await _tell_advertiser(session, row)
    return (await _reads(session, [row]))[0]


async def set_ad_flight_status(
    *, session: AsyncSession, actor: Principal, flight_id: str, status: str, reason: str = ""
) -> FlightRead:
    """Staff (manage_ads) pause, resume (approved) or end a flight."""
    staff = await require_ads_staff(session=session, actor=actor)
    row = await session.get(AdFlight, flight_id[:36], with_for_update=True, populate_existing=True)
    if row is None:
        raise NotFound(NO_FLIGHT)
    try:
        to = FlightStatus(status)
    except ValueError:
        raise ValidationFailed(BAD_CHANGE.format(now=row.status, to=str(status)[:20])) from None
    now = FlightStatus(row.status)
    if (now, to) not in MOVES:
        raise ValidationFailed(BAD_CHANGE.format(now=now.label.lower(), to=to.label.lower()))
    reason = _reason(reason, required=False)
    row.status = to.value
    row.reason = reason
    await session.flush()
    if to == S.ended:
        await close_flight_money(session, row, utcnow())  # the unspent budget back to the card
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.ad_status,
        target=f"ad flight {row.id}",
        details={"from": now.value, "to": to.value, "reason": reason},
    )
    await events.publish_on_commit(session, TOPIC, {"flight_id": row.id})
    await _tell_advertiser(session, row)
    return (await _reads(session, [row]))[0]


async def end_my_ad_flight(*, session: AsyncSession, actor: Principal, flight_id: str) -> FlightRead:
    """The advertiser stops their own flight for good (in review, approved or paused): it serves no more and
    spends nothing more; what it spent stays in the figures."""
    account = await require_advertiser(session=session, actor=actor)
    row = await session.get(AdFlight, flight_id[:36], with_for_update=True, populate_existing=True)
    if row is None or row.advertiser_id != account.id:
        raise NotFound(NO_FLIGHT)
    now = FlightStatus(row.status)
    if (now, S.ended) not in MOVES:
        raise ValidationFailed(BAD_CHANGE.format(now=now.label.lower(), to=S.ended.label.lower()))
    row.status = S.ended.value
    row.reason = "Ended by the advertiser."
    await session.flush()
    await close_flight_money(session, row, utcnow())  # the unspent budget back to the card
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.ad_status,
        target=f"ad flight {row.id}",
        details={"from": now.value, "to": S.ended.value, "by": "advertiser"},
    )
    await events.publish_on_commit(session, TOPIC, {"flight_id": row.id})
    return (await _reads(session, [row]))[0]


async def _tell_advertiser(session: AsyncSession, row: AdFlight) -> None:
    """The advertiser hears of staff's decision in their inbox (and e-mail, as their preferences say)."""
    await events.publish_event(
        session,
        AdFlightDecided(
            flight_id=row.id,
            advertiser_id=row.advertiser_id,
            name=row.name,
            status=row.status,
            reason=row.reason,
        ),
    )
