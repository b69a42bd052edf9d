"""Advertisement Management's billing (staff/ads.py `_FlightItem`, issue 29 item 5), without the card gateway:
a flight runs on terms ("On terms, not invoiced yet"); once it has finished, "Invoice $0.04" e-mails the
advertiser an invoice for what it delivered (not its budget) and the flight names the invoice; "Invoice
this advertiser" records the advertiser as invoiced on terms and turns into "Bill by card from now"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, html
from sqlalchemy import select, update

from app import db as app_db
from app.services.ads import end_my_ad_flight, list_ad_flights, review_ad_flight, submit_ad_flight
from components.context import SessionContext
from components.hooks import use_query
from medivisit.reactpy_compat import hook_stack
from models.account import Role
from models.ads import AdAdvertiserTerms, AdFlight
from models.invoice import Invoice
from staff import ads as staff_ads
from tests.factories import Person, person, run
from tests.ui.harness import mount, text, ui_session, until
from tests.unit.test_ads import flight


@component
def _Flights() -> Any:
    query = use_query(list_ad_flights, status="", page=1, page_size=10)
    if query.data is None:
        return html.p("Loading")
    return html.ul(*(staff_ads._FlightItem(f, query, lambda _x: None, key=f.id) for f in query.data.items))


def as_staff(who: Person) -> Callable[[], object]:
    signed_in = ui_session(who)
    return lambda: SessionContext(_Flights(), value=signed_in)


async def test_staff_invoice_a_finished_flight_on_terms_and_mark_an_advertiser_invoiced(configured) -> None:
    hook_stack.install()
    advertiser, owner = await person(Role.provider, "Priya Shah"), await person(Role.owner)
    booked = await run(submit_ad_flight, actor=advertiser.actor, data=flight(name="Spring draws"))
    await run(review_ad_flight, actor=owner.actor, flight_id=booked.id, approve=True)
    async with app_db.unit_of_work() as session:  # three views at $15 per thousand
        await session.execute(update(AdFlight).where(AdFlight.id == booked.id).values(spent_millicents=4_500))
    async with mount(as_staff(owner)) as ui:
        await until(ui, lambda: "On terms, not invoiced yet" in text(ui.model))
        assert "Invoice $0.04" not in text(ui.model)  # still running
    await run(end_my_ad_flight, actor=advertiser.actor, flight_id=booked.id)
    async with mount(as_staff(owner)) as ui:
        await until(ui, lambda: "Invoice $0.04" in text(ui.model))
        await ui.fire(ui.find("button", text="Invoice $0.04"))
        await until(ui, lambda: "On terms, invoice INV-" in text(ui.model))
        assert "Invoice $0.04" not in text(ui.model)
        await ui.fire(ui.find("button", text="Invoice this advertiser"))
        await until(ui, lambda: "Bill by card from now" in text(ui.model))
        assert "(advertiser invoiced on terms)" in text(ui.model)
    async with app_db.unit_of_work() as session:
        invoice = await session.scalar(select(Invoice))
        assert invoice is not None and invoice.total_cents == 4 and invoice.status.value == "sent"
        terms = await session.get(AdAdvertiserTerms, advertiser.id)
        assert terms is not None and terms.invoiced
