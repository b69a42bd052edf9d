"""Ads over HTTP (issue 17 part 4): a click counts once per address per ad per minute however often it is
clicked, always lands on the advertiser's page, and the advertiser's CSV has the figure; unknown ads 404."""

from __future__ import annotations

from datetime import timedelta

from app.auth.web import ACCESS_COOKIE
from app.services.ads import get_ad_figures, review_ad_flight, submit_ad_flight
from app.services.ads._rules import today
from models.account import Role
from models.ads import AdCreative, FlightCreate
from tests.factories import person, run

BROWSER = {
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36"
}


async def test_a_hundred_clicks_from_one_address_in_a_minute_count_once(identity_env, client) -> None:
    advertiser, manager = await person(Role.provider), await person(Role.management)
    data = FlightCreate(
        name="Home draws",
        placements=["SERVICES_TOP"],
        starts_on=today().isoformat(),
        ends_on=(today() + timedelta(days=3)).isoformat(),
        budget="25",
        creative=AdCreative(
            headline="Blood draws at home",
            body="Book a licensed phlebotomist. Results vary.",
            link_url="https://example.com/draws",
        ),
    )
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=data)
    unreviewed = await client.get(
        f"/api/ads/click/{booked.id}", params={"p": "SERVICES_TOP"}, headers=BROWSER
    )
    assert unreviewed.status_code == 404  # no redirect to an address nobody has reviewed
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    for _ in range(100):
        answer = await client.get(
            f"/api/ads/click/{booked.id}", params={"p": "SERVICES_TOP"}, headers=BROWSER
        )
        assert answer.status_code == 302 and answer.headers["location"] == "https://example.com/draws"
    figures = await run(get_ad_figures, actor=advertiser.actor)
    assert figures.clicks == 1
    missing = await client.get("/api/ads/click/no-such-ad", params={"p": "SERVICES_TOP"}, headers=BROWSER)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    client.cookies.set(ACCESS_COOKIE, advertiser.access_token)
    report = await client.get("/api/ads/figures.csv")
    assert report.status_code == 200
    assert "Home draws,SERVICES_TOP,0,1," in report.text
