"""Serving and counting: approved, in-flight ads in each placement, from a snapshot this process keeps in
memory (loaded at start-up, again on every `TOPIC` event and every REFRESH seconds, like the feature toggles),
so a slot never queries to find its ad; then one view or click counted on the server with billing hygiene.

- Contextual only: an ad is chosen by the placement alone, never by who is looking (no account, bookings or
  health data reach this module; the visitor cookie is hashed and used only for the frequency cap).
- Frequency cap: FREQUENCY_CAP views of one ad per visitor per FREQUENCY_WINDOW, and one ad once per page
  view, in the shared rate-limit counters (app/ratelimit: this process, PostgreSQL or Redis).
- A view is billed at the placement's price per thousand, only while the budget covers it (one conditional
  UPDATE); the flight whose budget cannot pay for another view becomes 'spent' and stops serving.
- Pacing (issue 29 item 5): a flight spends at most the budget left over the days left on each day (the
  day's cap, kept on its row: no aggregate per view); past the cap it rests until the next UTC day. The
  prices come from the snapshot, so a billed view is one UPDATE of the flight and one of its day's counter.
- Only approved flights serve: a flight billed by card is approved once its payment came in.
- A view is billed at most once per ad per placement per network (the client address cut to /24 or /48)
  per VIEW_WINDOW, whatever the cookies: the first insert of its `ad_view_marks` row (primary key, ON
  CONFLICT DO NOTHING, so concurrent loads bill one) bills it; later ones show the ad unbilled. The row
  keeps a keyed hash of the network, never the address, and is deleted after its window
  (`forget_old_ad_views`, a periodic job). A load without a client address is not billed.
- A click is counted once per ad per truncated client address (/24, /48) per minute; crawlers' views and
  clicks are not counted; previews never reach this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import time
from collections import defaultdict

from sqlalchemy import delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import events, ratelimit
from app.auth.keys import get_key_ring
from app.db import changed_rows
from app.jobs import run_command
from app.services.accounts import account_of
from app.services.ads._flights import IMAGE_PATH
from app.services.ads._rules import (
    CLICK_WINDOW,
    FREQUENCY_CAP,
    FREQUENCY_WINDOW,
    NO_FLIGHT,
    PRICE_OF,
    SAME_PAGE_SECONDS,
    TOPIC,
    VIEW_WINDOW,
    is_bot,
    today,
    truncate_ip,
)
from app.services.errors import NotFound
from models.ads import AdDailyStat, AdFlight, AdFlightPlacement, AdViewMark, FlightStatus, LiveAd
from models.identity import User

logger = logging.getLogger(__name__)
REFRESH = 60.0  # seconds between reloads when no event arrives

# This process's copy of what may serve, by placement (replaced whole, never edited in place).
_snapshot: dict[str, tuple[LiveAd, ...]] = {}


async def read_live_ads(*, session: AsyncSession) -> dict[str, tuple[LiveAd, ...]]:
    """Approved flights whose last day has not passed, by placement (three queries in all)."""
    rows = (
        await session.scalars(
            select(AdFlight).where(
                AdFlight.status == FlightStatus.approved.value, AdFlight.ends_on >= today()
            )
        )
    ).all()
    if not rows:
        return {}
    ids = [row.id for row in rows]
    placements: dict[str, set[str]] = defaultdict(set)
    prices: dict[str, list[tuple[str, int]]] = defaultdict(list)
    found = await session.execute(
        select(AdFlightPlacement.flight_id, AdFlightPlacement.placement, AdFlightPlacement.cpm_cents).where(
            AdFlightPlacement.flight_id.in_(ids)
        )
    )
    for flight_id, placement, cpm in found.all():
        placements[flight_id].add(placement)
        prices[flight_id].append((placement, cpm))
    users = await session.scalars(select(User).where(User.id.in_({row.advertiser_id for row in rows})))
    names = {user.id: account_of(user).name for user in users}
    live: dict[str, list[LiveAd]] = defaultdict(list)
    for row in rows:
        ad = LiveAd(
            flight_id=row.id,
            advertiser_name=names.get(row.advertiser_id, ""),
            headline=row.headline,
            body=row.body,
            link_url=row.link_url,
            image_url=IMAGE_PATH.format(id=row.image_id) if row.image_id else "",
            placements=frozenset(placements[row.id]),
            starts_on=row.starts_on,
            ends_on=row.ends_on,
            prices=tuple(sorted(prices[row.id])),
        )
        for placement in ad.placements:
            live[placement].append(ad)
    return {placement: tuple(ads) for placement, ads in live.items()}


async def load_live_ads() -> None:
    """Read what may serve into this process, keeping the last copy when the read fails."""
    global _snapshot
    try:
        fresh = await run_command(read_live_ads)
    except Exception:  # noqa: BLE001 - the next round tries again
        logger.exception("Could not load the live ads")
        return
    _snapshot = fresh


async def keep_ads_fresh() -> None:
    """Load again on each `TOPIC` event and every REFRESH seconds (until cancelled)."""
    async with events.subscribe(TOPIC) as queue:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.get(), REFRESH)
            await load_live_ads()


def live_ads(placement: str) -> tuple[LiveAd, ...]:
    """The ads that may show in `placement` today (memory only)."""
    day = today()
    return tuple(ad for ad in _snapshot.get(placement, ()) if ad.starts_on <= day <= ad.ends_on)


async def _count(
    session: AsyncSession, flight_id: str, placement: str, *, views: int = 0, clicks: int = 0, cost: int = 0
) -> None:
    """Add to the flight's counters for today (one UPDATE; the day's row is made by the first count)."""
    day = today()
    where = (AdDailyStat.flight_id == flight_id, AdDailyStat.placement == placement, AdDailyStat.day == day)
    change = {
        "views": AdDailyStat.views + views,
        "clicks": AdDailyStat.clicks + clicks,
        "cost_millicents": AdDailyStat.cost_millicents + cost,
    }
    if await changed_rows(session, update(AdDailyStat).where(*where).values(**change)):
        return
    try:
        async with session.begin_nested():
            session.add(
                AdDailyStat(
                    flight_id=flight_id,
                    placement=placement,
                    day=day,
                    views=views,
                    clicks=clicks,
                    cost_millicents=cost,
                )
            )
    except IntegrityError:  # another request made the row first
        await session.execute(update(AdDailyStat).where(*where).values(**change))


async def _bill_view(session: AsyncSession, ad: LiveAd, placement: str) -> bool:
    """Count one view if the budget and today's pace pay for it; else mark the flight spent when its budget
    cannot pay for another view (it stops serving). Pacing: a flight may spend on a day the budget left
    over the days left (its last day included), set by the day's first view; once the day's spend reaches
    it, the flight rests until tomorrow. One UPDATE in the common case (a second and third on a day's
    first view, or at the end of the budget)."""
    cpm = dict(ad.prices).get(placement)
    if cpm is None:
        cpm = await session.scalar(
            select(AdFlightPlacement.cpm_cents).where(
                AdFlightPlacement.flight_id == ad.flight_id, AdFlightPlacement.placement == placement
            )
        )
    if cpm is None:
        return False
    day = today()
    flight_id = ad.flight_id
    approved = AdFlight.status == FlightStatus.approved.value
    bill = (
        update(AdFlight)
        .where(
            AdFlight.id == flight_id,
            approved,
            AdFlight.spent_millicents + cpm <= AdFlight.budget_cents * 1000,
            AdFlight.paced_on == day,
            AdFlight.paced_millicents < AdFlight.pace_cap_millicents,
        )
        .values(
            spent_millicents=AdFlight.spent_millicents + cpm,
            paced_millicents=AdFlight.paced_millicents + cpm,
        )
    )
    paid = await changed_rows(session, bill)
    if not paid:
        days_left = max((ad.ends_on - day).days + 1, 1)
        new_day = await changed_rows(
            session,
            update(AdFlight)
            .where(
                AdFlight.id == flight_id,
                approved,
                or_(AdFlight.paced_on.is_(None), AdFlight.paced_on != day),
            )
            .values(
                paced_on=day,
                paced_millicents=0,
                pace_cap_millicents=(AdFlight.budget_cents * 1000 - AdFlight.spent_millicents) // days_left,
            ),
        )
        if new_day:
            paid = await changed_rows(session, bill)
    if not paid:
        spent = await changed_rows(
            session,
            update(AdFlight)
            .where(
                AdFlight.id == flight_id,
                approved,
                AdFlight.spent_millicents + cpm > AdFlight.budget_cents * 1000,
            )
            .values(status=FlightStatus.spent.value),
        )
        if spent:
            await events.publish_on_commit(session, TOPIC, {"flight_id": flight_id})
        return False  # spent out, or resting until tomorrow (today's pace is reached)
    await _count(session, flight_id, placement, views=1, cost=cpm)
    return True


def _visitor_key(visitor: str) -> str:
    return hashlib.sha256(f"ads:{visitor}".encode()).hexdigest()[:24]


def _period(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // VIEW_WINDOW)


async def _first_view(session: AsyncSession, flight_id: str, placement: str, network: str) -> bool:
    """Mark the network's view of the flight in the placement for this window; False when it already was
    (by this request's peers too: the second insert of a key waits for the first and then does nothing)."""
    key = hmac.new(get_key_ring().secret, f"ad-view:{network}".encode(), hashlib.sha256).hexdigest()[:32]
    insert = (postgresql if session.get_bind().dialect.name == "postgresql" else sqlite).insert(AdViewMark)
    marked = await changed_rows(
        session,
        insert.values(
            flight_id=flight_id, placement=placement, network=key, period=_period()
        ).on_conflict_do_nothing(),
    )
    return marked == 1


async def forget_old_ad_views(*, session: AsyncSession, now: float | None = None) -> int:
    """Delete the view marks of windows that have ended (a periodic job); returns how many."""
    return await changed_rows(session, delete(AdViewMark).where(AdViewMark.period < _period(now)))


async def serve_ad(
    *, session: AsyncSession, placement: str, visitor: str, user_agent: str, ip: str = ""
) -> LiveAd | None:
    """The ad a live page's slot shows now, its view counted; None when none may show. `visitor` is the
    anonymous visitor cookie (only for the frequency cap), `ip` the client's address (only for counting a
    view once per network: not stored); crawlers see ads but are never counted."""
    if placement not in PRICE_OF or not PRICE_OF[placement].used:
        return None
    candidates = list(live_ads(placement))
    random.shuffle(candidates)  # rotation between the flights sharing a placement
    who = _visitor_key(visitor) if visitor else ""
    for ad in candidates:
        if who:
            key = f"{ad.flight_id}:{who}"
            if await ratelimit.hit("ad_page", key, limit=1, window=SAME_PAGE_SECONDS) is not None:
                continue
            if await ratelimit.hit("ad_cap", key, limit=FREQUENCY_CAP, window=FREQUENCY_WINDOW) is not None:
                continue
        network = truncate_ip(ip)
        if not who or not network or is_bot(user_agent):
            return ad
        if not await _first_view(session, ad.flight_id, placement, network):
            return ad  # shown, but this network's view in this window is already billed
        if await _bill_view(session, ad, placement):
            return ad
    return None


async def record_ad_click(
    *, session: AsyncSession, flight_id: str, placement: str, ip: str, user_agent: str
) -> str:
    """Count a click (once per ad per /24 or /48 per minute, never a crawler's, only on an approved flight in a
    placement it bought) and return where it goes; NotFound for an unknown flight or one not reviewed."""
    row = (
        await session.execute(select(AdFlight.link_url, AdFlight.status).where(AdFlight.id == flight_id[:36]))
    ).first()
    # Only a reviewed creative's address is followed: the counter is no open redirect for ads nobody approved
    # (a new flight, a rejected one, or an edited one back in review).
    if row is None or row.status in (FlightStatus.review.value, FlightStatus.rejected.value):
        raise NotFound(NO_FLIGHT)
    link_url, status = row
    bought = await session.scalar(
        select(AdFlightPlacement.id).where(
            AdFlightPlacement.flight_id == flight_id[:36], AdFlightPlacement.placement == placement[:32]
        )
    )
    network = truncate_ip(ip)
    billable = status == FlightStatus.approved.value and bought and network and not is_bot(user_agent)
    if (
        billable
        and await ratelimit.hit("ad_click", f"{flight_id[:36]}:{network}", limit=1, window=CLICK_WINDOW)
        is None
    ):
        await _count(session, flight_id[:36], placement[:32], clicks=1)
    return link_url
