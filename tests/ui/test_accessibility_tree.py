"""Issue 11 on the server's side: the small-screen menu and drawer are not in a tab's tree until opened
(`MobileOverlays` mounts one at a time, as a modal), the error summary links each error to its field, and
checkout's Place order check lists what is missing in the order of the page."""

from __future__ import annotations

from decimal import Decimal

from components.context import CartHandle, Disclosure, SessionContext, Toaster, UiSession
from components.frame.mobile import MobileOverlays
from components.kit import ErrorSummary
from models.booking import AppointmentRead, AppointmentStatus
from models.catalog import ServiceLocation
from pages.checkout import checkout_errors
from tests import factories
from tests.ui.harness import find, find_all, text


def _session() -> UiSession:
    return UiSession(
        user=None, toaster=Toaster(), cart=CartHandle(), bug_report=Disclosure(), visitor_id="visitor-test"
    )


async def test_mobile_overlays_are_mounted_only_while_open(mount) -> None:
    session = _session()
    async with mount(lambda: SessionContext(MobileOverlays(), value=session)) as ui:
        assert find_all(ui.model, "div") == [] and find_all(ui.model, "a") == []
        session.mobile_nav.open("menu")
        await ui.render()
        menu = find(ui.model, "div", role="dialog", **{"aria-label": "Menu"})
        assert "data-modal" in menu["attributes"] and "data-overlay" in menu["attributes"]
        assert len(find_all(menu, "a")) >= 12
        session.mobile_nav.open("drawer")
        await ui.render()
        assert find_all(ui.model, role="dialog", **{"aria-label": "Menu"}) == []
        find(ui.model, "div", role="dialog", **{"aria-label": "Side menu"})
        await ui.fire(find(ui.model, "button", **{"aria-label": "Close side menu"}))
        assert find_all(ui.model, "div") == []


async def test_error_summary_links_each_error_to_its_field(mount) -> None:
    async with mount(
        lambda: ErrorSummary([("city", "Enter your city"), (None, "That time was taken.")])
    ) as ui:
        summary = find(ui.model, "div", id="error-summary")
        assert summary["attributes"]["tab_index"] == -1
        assert "data-focus-on-mount" in summary["attributes"]
        assert find(summary, "h2").get("children") == ["There is a problem"]
        assert find(summary, "a")["attributes"]["href"] == "#city"
        assert "That time was taken." in text(summary)
    async with mount(lambda: ErrorSummary([])) as ui:
        assert find_all(ui.model, "div") == []


def _hold(location: ServiceLocation) -> AppointmentRead:
    """A visit held at checkout, at `location`."""
    return factories.appointment_read(
        AppointmentStatus.held, location=location, price=Decimal("1"), original_price=Decimal("1")
    )


def test_place_order_checks_follow_the_page_and_the_places_to_book() -> None:
    visits = [("a#0", "Blood draw", ServiceLocation.home), ("b#0", "Video visit", ServiceLocation.virtual)]
    fields, times = checkout_errors(visits, {}, {"zip_code": "１０００", "state": "n"})
    assert list(fields) == ["zip_code", "address_line", "city", "state"]
    assert fields["zip_code"] == "Enter a ZIP code with 5 digits, like 10001"
    assert fields["state"] == "Enter your state as 2 letters, like NY"
    assert times == {
        "a#0": "Choose a day and time for Blood draw",
        "b#0": "Choose a day and time for Video visit",
    }
    # Only the visit with a time is booked: a virtual one needs no address, and no other visit needs a time.
    assert checkout_errors(visits, {"b#0": _hold(ServiceLocation.virtual)}, {}) == ({}, {})
    # A clinic visit needs the ZIP code only; a ZIP+4 is a ZIP code.
    clinic = {"a#0": _hold(ServiceLocation.clinic)}
    assert checkout_errors(visits, clinic, {"zip_code": "10001-1234"}) == ({}, {})
    assert checkout_errors(visits, clinic, {})[0] == {"zip_code": "Enter your ZIP code"}
