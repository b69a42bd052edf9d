"""Self-serve ads (`app.services.ads`, issue 17 part 4) on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
only manage_ads reviews (the advertiser is notified), the screening flags health claims but never decides, an edited live creative goes
back to review, a placement's places run out, spend never passes the budget (the flight stops serving),
and an advertiser reads only their own figures."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select, update

import app.services.ads._serving as serving
from app import db as app_db
from app import ratelimit
from app.principal import Principal
from app.services.ads import (
    FREQUENCY_CAP,
    FlightInvalid,
    edit_ad_creative,
    end_my_ad_flight,
    get_ad_figures,
    list_ad_flights,
    live_ads,
    review_ad_flight,
    screen_claims,
    serve_ad,
    set_ad_flight_status,
    submit_ad_flight,
    truncate_ip,
)
from app.services.ads._rules import today
from app.services.ads.internal import forget_old_ad_views, load_live_ads
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from models.account import Role
from models.ads import AdCreative, AdFlight, AdViewMark, FlightCreate, FlightStatus
from models.audit import AuditAction, AuditEntry
from models.notification import Notification
from tests.factories import Person, person, run

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36"
HOME = "203.0.113.25"


@pytest.fixture(autouse=True)
def own_snapshot(monkeypatch) -> None:
    """This process's live-ads snapshot is the tests' own: later tests (screens) never see these flights."""
    monkeypatch.setattr(serving, "_snapshot", {})


def flight(**change) -> FlightCreate:  # noqa: ANN003
    creative = AdCreative(
        headline="Mobile IV therapy in Brooklyn",
        body="Licensed nurses come to you. Results vary.",
        link_url="https://example.com/iv",
    )
    data = {
        "name": "Spring clinic",
        "placements": ["SERVICES_TOP"],
        "starts_on": today().isoformat(),
        "ends_on": (today() + timedelta(days=6)).isoformat(),
        "budget": "50",
        "creative": creative,
    }
    return FlightCreate(**{**data, **change})


async def test_only_manage_ads_reviews_and_every_decision_is_audited(identity) -> None:
    advertiser = await person(Role.provider)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight())
    assert booked.status == FlightStatus.review
    for outsider in (advertiser, await person(Role.hr), await person(Role.support)):
        with pytest.raises(PermissionDenied):
            await run(review_ad_flight, actor=outsider.actor, flight_id=booked.id, approve=True)
    manager = await person(Role.management)  # SPEC §6: management holds manage_ads
    queue = await run(list_ad_flights, actor=manager.actor, status="review")
    assert [item.id for item in queue.items] == [booked.id]
    with pytest.raises(ValidationFailed):
        await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=False, reason=" ")
    approved = await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    assert approved.status == FlightStatus.approved
    async with app_db.unit_of_work() as session:
        actions = (
            await session.scalars(
                select(AuditEntry.action).where(AuditEntry.target == f"ad flight {booked.id}")
            )
        ).all()
    assert set(actions) == {AuditAction.ad_submit.value, AuditAction.ad_review.value}
    async with app_db.unit_of_work() as session:
        told = (
            await session.scalars(
                select(Notification.title).where(Notification.recipient_id == advertiser.id)
            )
        ).all()
    assert told == ["Your ad “Spring clinic” is approved"]


async def test_patients_cannot_buy_ad_space(identity) -> None:
    patient = await person(Role.patient)
    with pytest.raises(PermissionDenied):
        await run(submit_ad_flight, actor=patient.actor, data=flight())
    with pytest.raises(PermissionDenied):
        await run(submit_ad_flight, actor=Principal.visitor("v1"), data=flight())


def test_screening_flags_claims_drug_names_and_a_missing_disclaimer() -> None:
    found = screen_claims("Miracle detox drip", "Guaranteed to cure fatigue. Ozempic on request.")
    assert "Health claim: “miracle”" in found and "Health claim: “cure”" in found
    assert "Drug name: “ozempic”" in found
    assert any("No disclaimer" in item for item in found)
    assert screen_claims("Mobile phlebotomy", "Blood draws at home. Results vary.") == []
    assert truncate_ip("203.0.113.77") == "203.0.113.0"
    assert truncate_ip("2001:db8:abcd:12:1:2:3:4") == "2001:db8:abcd::"


async def test_bad_input_names_each_field_and_https_is_required(identity) -> None:
    advertiser = await person(Role.provider)
    bad = flight(
        placements=["CHECKOUT_PAGE"],
        budget="0.5",
        creative=AdCreative(headline="", body="x" * 200, link_url="http://example.com"),
    )
    with pytest.raises(FlightInvalid) as refused:
        await run(submit_ad_flight, actor=advertiser.actor, data=bad)
    assert set(refused.value.errors) == {"placements", "budget", "headline", "body", "link_url"}


async def test_an_edited_live_creative_goes_back_to_review_and_stops_serving(identity) -> None:
    advertiser, manager = await person(Role.provider), await person(Role.management)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight())
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    await load_live_ads()
    assert [ad.flight_id for ad in live_ads("SERVICES_TOP")] == [booked.id]
    edited = await run(
        edit_ad_creative,
        actor=advertiser.actor,
        flight_id=booked.id,
        creative=AdCreative(
            headline="Miracle IV", body="Cures everything.", link_url="https://example.com/iv"
        ),
    )
    assert edited.status == FlightStatus.review and edited.revision == 2
    assert "Health claim: “miracle”" in edited.flags
    await load_live_ads()
    assert live_ads("SERVICES_TOP") == ()


async def test_a_placement_takes_only_its_capacity_of_flights(identity) -> None:
    advertiser = await person(Role.provider)
    for _ in range(2):  # HOMEPAGE_FEATURED holds two flights at once
        await run(submit_ad_flight, actor=advertiser.actor, data=flight(placements=["HOMEPAGE_FEATURED"]))
    with pytest.raises(FlightInvalid) as refused:
        await run(submit_ad_flight, actor=advertiser.actor, data=flight(placements=["HOMEPAGE_FEATURED"]))
    assert "fully booked" in refused.value.errors["placements"]


async def test_spend_never_passes_the_budget_and_a_spent_flight_stops(identity) -> None:
    ratelimit.reset()
    advertiser, manager = await person(Role.provider), await person(Role.management)
    # $15 per thousand views: 1,500 thousandths of a cent a view; 2,000 left pays for one more.
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight(budget="10"))
    async with app_db.unit_of_work() as session:
        row = await session.get(AdFlight, booked.id)
        row.spent_millicents = 10 * 100 * 1000 - 2_000
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    await load_live_ads()
    shown = [
        await run(
            serve_ad, placement="SERVICES_TOP", visitor=f"visitor-{n}", user_agent=BROWSER, ip=f"203.0.{n}.7"
        )
        for n in range(3)
    ]
    assert [ad is not None for ad in shown] == [True, False, False]
    figures = await run(get_ad_figures, actor=advertiser.actor)
    assert figures.views == 1 and figures.spent_cents <= figures.budget_cents
    async with app_db.unit_of_work() as session:
        assert (await session.get(AdFlight, booked.id)).status == FlightStatus.spent.value


async def test_an_advertiser_sees_only_their_own_figures(identity) -> None:
    ratelimit.reset()
    mine, theirs = await person(Role.provider), await person(Role.provider)
    manager = await person(Role.management)
    a = await run(submit_ad_flight, actor=mine.actor, data=flight(name="Mine"))
    b = await run(
        submit_ad_flight, actor=theirs.actor, data=flight(name="Theirs", placements=["SEARCH_RESULTS"])
    )
    for booked in (a, b):
        await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    await load_live_ads()
    await run(serve_ad, placement="SEARCH_RESULTS", visitor="someone", user_agent=BROWSER, ip=HOME)
    await run(
        serve_ad, placement="SERVICES_TOP", visitor="someone", user_agent="Googlebot/2.1", ip=HOME
    )  # not counted
    figures = await run(get_ad_figures, actor=mine.actor)
    assert [row.flight_name for row in figures.flights] == ["Mine"]
    assert figures.views == 0 and figures.placements == []
    other = await run(get_ad_figures, actor=theirs.actor)
    assert other.views == 1 and other.placements[0].placement == "SEARCH_RESULTS"


async def test_one_view_per_page_view_and_at_most_the_cap_per_visitor(identity, monkeypatch) -> None:
    ratelimit.reset()
    advertiser, manager = await person(Role.provider), await person(Role.management)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight())
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    await load_live_ads()

    async def shown() -> bool:
        return (
            await run(serve_ad, placement="SERVICES_TOP", visitor="one-visitor", user_agent=BROWSER, ip=HOME)
            is not None
        )

    assert [await shown(), await shown()] == [True, False]  # a second slot of the same page view: no repeat
    monkeypatch.setattr(serving, "SAME_PAGE_SECONDS", 0)  # later page views
    assert [await shown() for _ in range(FREQUENCY_CAP)] == [True] * (FREQUENCY_CAP - 1) + [False]
    assert (
        await run(
            serve_ad, placement="SERVICES_TOP", visitor="another", user_agent=BROWSER, ip="198.51.100.9"
        )
        is not None
    )
    # Shown FREQUENCY_CAP times to one visitor, billed once for their network this hour; once for the other's.
    assert (await run(get_ad_figures, actor=advertiser.actor)).views == 2


async def test_an_advertiser_ends_only_their_own_flight(identity) -> None:
    mine, theirs = await person(Role.provider), await person(Role.provider)
    manager = await person(Role.management)
    booked = await run(submit_ad_flight, actor=mine.actor, data=flight())
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    with pytest.raises(NotFound):
        await run(end_my_ad_flight, actor=theirs.actor, flight_id=booked.id)
    ended = await run(end_my_ad_flight, actor=mine.actor, flight_id=booked.id)
    assert ended.status == FlightStatus.ended
    await load_live_ads()
    assert live_ads("SERVICES_TOP") == ()


async def test_staff_pause_resume_and_end_a_flight(identity) -> None:
    advertiser, manager = await person(Role.provider), await person(Role.management)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight())
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    with pytest.raises(PermissionDenied):
        await run(set_ad_flight_status, actor=advertiser.actor, flight_id=booked.id, status="paused")
    await run(
        set_ad_flight_status, actor=manager.actor, flight_id=booked.id, status="paused", reason="Checking"
    )
    await load_live_ads()
    assert live_ads("SERVICES_TOP") == ()
    await run(set_ad_flight_status, actor=manager.actor, flight_id=booked.id, status="approved")
    await load_live_ads()
    assert [ad.flight_id for ad in live_ads("SERVICES_TOP")] == [booked.id]
    await run(set_ad_flight_status, actor=manager.actor, flight_id=booked.id, status="ended")
    with pytest.raises(ValidationFailed):  # ended is final
        await run(set_ad_flight_status, actor=manager.actor, flight_id=booked.id, status="approved")


async def approved_flight(**change) -> tuple[Person, str]:  # noqa: ANN003
    advertiser, manager = await person(Role.provider), await person(Role.management)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight(**change))
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    await load_live_ads()
    return advertiser, booked.id


async def test_a_view_is_billed_once_per_network_and_placement_per_hour_whatever_the_cookies(
    identity,
) -> None:
    """Twelve loads from one address, each without the cookie of the one before (a new visitor every
    time), bill one view; another /24 bills its own; the next hour bills again; crawlers never."""
    ratelimit.reset()
    advertiser, flight_id = await approved_flight(placements=["SERVICES_TOP", "SEARCH_RESULTS"])

    async def load(visitor: str, ip: str, placement: str = "SERVICES_TOP", agent: str = BROWSER) -> bool:
        return await run(serve_ad, placement=placement, visitor=visitor, user_agent=agent, ip=ip) is not None

    assert all([await load(f"fresh-cookie-{n}", HOME) for n in range(12)])  # every load still shows it
    assert (await run(get_ad_figures, actor=advertiser.actor)).views == 1
    assert await load("neighbour", "203.0.113.200")  # the same /24: the same network
    assert await load("crawler", "192.0.2.1", agent="Googlebot/2.1")
    assert (await run(get_ad_figures, actor=advertiser.actor)).views == 1
    assert await load("elsewhere", "198.51.100.9")  # another network
    assert await load("phone", "2001:db8:1::1") and await load("phone-2", "2001:db8:1:ffff::2")  # one /48
    assert await load("same-place-other-slot", HOME, "SEARCH_RESULTS")  # another placement
    figures = await run(get_ad_figures, actor=advertiser.actor)
    assert figures.views == 4
    assert {(row.placement, row.views) for row in figures.placements} == {
        ("SERVICES_TOP", 3),
        ("SEARCH_RESULTS", 1),
    }
    async with app_db.unit_of_work() as session:
        marks = (await session.scalars(select(AdViewMark))).all()
    assert len(marks) == 4 and not any("203.0.113" in m.network for m in marks)  # no address is kept

    # An hour later (the marks' window moved back one) the network counts again; old marks are forgotten.
    async with app_db.unit_of_work() as session:
        await session.execute(update(AdViewMark).values(period=AdViewMark.period - 1))
    async with app_db.unit_of_work() as session:
        assert await forget_old_ad_views(session=session) == 4
    assert await load("next-hour", HOME)
    assert (await run(get_ad_figures, actor=advertiser.actor)).views == 5


async def test_concurrent_loads_from_one_network_bill_one_view(identity) -> None:
    ratelimit.reset()
    advertiser, _flight_id = await approved_flight()
    shown = await asyncio.gather(
        *(
            run(serve_ad, placement="SERVICES_TOP", visitor=f"burst-{n}", user_agent=BROWSER, ip=HOME)
            for n in range(12)
        )
    )
    assert all(ad is not None for ad in shown)
    assert (await run(get_ad_figures, actor=advertiser.actor)).views == 1
    async with app_db.unit_of_work() as session:  # $15 per thousand views: one view, 1.5 cents
        assert (await session.get(AdFlight, _flight_id)).spent_millicents == 1_500
