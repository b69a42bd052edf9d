"""Ads (app/services/ads): the advertiser hears of staff's decision on a flight in their inbox (and
e-mail, as their preferences say)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import AdFlightDecided
from app.services.notifications._delivery import notify
from models.ads import FlightStatus as S
from models.notification import NotificationKind

ADVERTISER_NEWS = {
    S.approved.value: ("Your ad “{name}” is approved", "It runs in its placements from its first day."),
    S.payment.value: (
        "Your ad “{name}” is approved",
        "Pay its budget by card on Purchase Ad Space; it runs from its first day once paid.",
    ),
    S.rejected.value: ("Your ad “{name}” needs changes", "Our reviewer said: {reason}"),
    S.paused.value: ("Your ad “{name}” is paused", "{reason}"),
    S.ended.value: ("Your ad “{name}” has ended", "{reason}"),
}


async def tell_ad_flight_decided(session: AsyncSession, decided: AdFlightDecided) -> None:
    title, body = ADVERTISER_NEWS[decided.status]
    await notify(
        session=session,
        recipients=[decided.advertiser_id],
        kind=NotificationKind.ad_flight,
        link="/dashboard/ad-analytics",
        title=title.format(name=decided.name),
        body=body.format(reason=decided.reason).strip(),
    )
