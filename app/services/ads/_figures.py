"""An advertiser's figures (/dashboard/ad-analytics and its CSV): views, clicks, CTR, spend and budget left
per flight and per placement, and per day for the last DAYS days, aggregated in SQL over the daily counters
of their own flights only."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.ads._rules import require_advertiser, today
from models.ads import AdDailyStat, AdFiguresRead, AdFlight, DayRow, FigureRow

DAYS = 30


async def get_ad_figures(*, session: AsyncSession, actor: Principal) -> AdFiguresRead:
    """The signed-in advertiser's figures (nobody else's: every query is limited to their flights)."""
    account = await require_advertiser(session=session, actor=actor)
    mine = AdFlight.advertiser_id == account.id
    flights = (
        await session.execute(
            select(AdFlight.id, AdFlight.name, AdFlight.budget_cents, AdFlight.spent_millicents)
            .where(mine)
            .order_by(AdFlight.created_at.desc(), AdFlight.id)
            .limit(100)
        )
    ).all()
    names = {flight_id: (name, budget) for flight_id, name, budget, _spent in flights}
    sums = (
        await session.execute(
            select(
                AdDailyStat.flight_id,
                AdDailyStat.placement,
                func.sum(AdDailyStat.views),
                func.sum(AdDailyStat.clicks),
                func.sum(AdDailyStat.cost_millicents),
            )
            .join(AdFlight, AdFlight.id == AdDailyStat.flight_id)
            .where(mine)
            .group_by(AdDailyStat.flight_id, AdDailyStat.placement)
            .order_by(AdDailyStat.flight_id, AdDailyStat.placement)
        )
    ).all()
    placements = [
        FigureRow(
            flight_id=flight_id,
            flight_name=names[flight_id][0],
            placement=placement,
            views=int(views or 0),
            clicks=int(clicks or 0),
            spent_cents=int(cost or 0) // 1000,
            budget_cents=names[flight_id][1],
        )
        for flight_id, placement, views, clicks, cost in sums
        if flight_id in names
    ]
    totals: dict[str, tuple[int, int]] = {}
    for row in placements:
        views, clicks = totals.get(row.flight_id, (0, 0))
        totals[row.flight_id] = (views + row.views, clicks + row.clicks)
    flight_rows = [
        FigureRow(
            flight_id=flight_id,
            flight_name=name,
            placement="",
            views=totals.get(flight_id, (0, 0))[0],
            clicks=totals.get(flight_id, (0, 0))[1],
            spent_cents=spent // 1000,
            budget_cents=budget,
        )
        for flight_id, name, budget, spent in flights
    ]
    start = today() - timedelta(days=DAYS - 1)
    per_day = dict(
        (day, (int(views or 0), int(clicks or 0), int(cost or 0) // 1000))
        for day, views, clicks, cost in (
            await session.execute(
                select(
                    AdDailyStat.day,
                    func.sum(AdDailyStat.views),
                    func.sum(AdDailyStat.clicks),
                    func.sum(AdDailyStat.cost_millicents),
                )
                .join(AdFlight, AdFlight.id == AdDailyStat.flight_id)
                .where(mine, AdDailyStat.day >= start)
                .group_by(AdDailyStat.day)
            )
        ).all()
    )
    days = [
        DayRow(day=day, views=found[0], clicks=found[1], spent_cents=found[2])
        for offset in range(DAYS)
        for day in [start + timedelta(days=offset)]
        for found in [per_day.get(day, (0, 0, 0))]
    ]
    return AdFiguresRead(
        flights=flight_rows,
        placements=placements,
        days=days,
        views=sum(row.views for row in flight_rows),
        clicks=sum(row.clicks for row in flight_rows),
        spent_cents=sum(row.spent_cents for row in flight_rows),
        budget_cents=sum(row.budget_cents for row in flight_rows),
    )
