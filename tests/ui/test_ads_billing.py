"""The advertiser's flights on /ad-purchase (pages/ad_purchase.py `FlightsBilling`, issue 29 item 5) with the
card gateway: an approved flight says "Awaiting payment" and offers "Pay $50 by card", which opens the
flight's Stripe Checkout page and sends the browser there; once Stripe's webhook confirms it the flight
says it was paid, offers its receipt (PDF) and its spend statement (budget, spent, remaining, impressions,
clicks, the daily spend); ending it says the unspent budget goes back to the card, and does it. Stripe is
the local stand-in of tests/stripe_standin.py."""

from __future__ import annotations

from collections.abc import Callable

from app.services.ads import review_ad_flight, submit_ad_flight
from app.services.payments import handle_stripe_webhook
from components.context import SessionContext
from models.account import Role
from pages import ad_purchase
from tests import stripe_standin
from tests.factories import Person, person, run
from tests.ui.harness import attrs, mount, text, ui_session, until
from tests.unit.test_ads import flight


def as_advertiser(who: Person, returned: str = "") -> Callable[[], object]:
    signed_in = ui_session(who)
    return lambda: SessionContext(ad_purchase.FlightsBilling(returned), value=signed_in)


async def test_an_advertiser_pays_reads_the_statement_and_ends_a_flight(stripe_on) -> None:
    advertiser, manager = await person(Role.provider, "Priya Shah"), await person(Role.management)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight(name="Spring draws"))
    await run(review_ad_flight, actor=manager.actor, flight_id=booked.id, approve=True)
    async with mount(as_advertiser(advertiser)) as ui:
        await until(ui, lambda: "Awaiting payment" in text(ui.model))
        assert "Awaiting payment: $50 by card before it runs" in text(ui.model)
        assert not any("receipt" in attrs(a).get("href", "") for a in ui.find_all("a"))
        await ui.fire(ui.find("button", text="Pay $50 by card"))
        await until(ui, lambda: "Taking you to Stripe" in text(ui.model))
        [going] = [a for a in ui.find_all("a") if "hidden" in attrs(a)]
        checkout = list(stripe_on.sessions.values())[-1]
        assert attrs(going)["href"] == checkout["url"]
    paid = checkout | {"payment_status": "paid", "status": "complete", "payment_intent": "pi_ui_ad"}
    body, header = stripe_standin.signed(stripe_standin.event("checkout.session.completed", paid))
    assert (await run(handle_stripe_webhook, payload=body, signature=header)).result == "paid"
    async with mount(as_advertiser(advertiser, "done")) as ui:
        await until(ui, lambda: "Paid by card: $50" in text(ui.model))
        assert "your payment is being confirmed" in text(ui.model)
        assert "Running" in text(ui.model)
        receipt = ui.find("a", text="Download receipt (PDF)")
        assert attrs(receipt)["href"] == f"/api/ads/flights/{booked.id}/receipt.pdf"
        await ui.fire(ui.find("button", text="Spend statement"))
        await until(ui, lambda: "No views yet." in text(ui.model))
        for words in ("Spent to date", "Remaining", "Impressions", "Clicks", "Today's limit $7.14"):
            assert words in text(ui.model)
        await ui.fire(ui.find("button", **{"aria-label": "Close"}))
        await ui.fire(ui.find("button", text="End flight"))
        assert "the $50 it has not spent is refunded to your card" in text(ui.model)
        [confirm] = [b for b in ui.find_all("button", text="End flight") if "aria-label" not in attrs(b)]
        await ui.fire(confirm)
        await until(ui, lambda: "$50 unspent refunded to your card" in text(ui.model))
        assert "Ended" in text(ui.model)
    [refund] = stripe_on.calls("POST", "/v1/refunds")
    assert refund.params["amount"] == "5000"
