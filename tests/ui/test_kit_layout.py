"""The kit's layout and content pieces that replaced hand-written markup in the screens: the staff and
settings panels named by their heading, the portal body, button rows, hints and description lists."""

from __future__ import annotations

from components.kit import (
    ServerForm,
    SettingsCard,
    StaffCard,
    button_link,
    button_row,
    cta_band,
    facts,
    hint,
    portal_body,
    portal_page,
)
from tests.ui.harness import attrs, classes, find, find_all, text


def test_a_staff_card_is_a_section_named_by_its_heading():
    panel = StaffCard("Flights", "the list", title_id="ads-title", head=("3",), head_class="verify-head")
    assert panel["tagName"] == "section" and classes(panel) == {"staff-card"}
    assert attrs(panel)["aria-labelledby"] == "ads-title"
    head = find(panel, "div", class_="staff-card-head")
    assert classes(head) == {"staff-card-head", "verify-head"}
    assert attrs(find(head, "h2"))["id"] == "ads-title" and text(head) == "Flights 3"
    assert text(panel) == "Flights 3 the list"


def test_a_settings_card_is_a_section_named_by_its_title():
    panel = SettingsCard("Sign out", "Sign out of this browser.", title_id="settings-signout")
    assert panel["tagName"] == "section" and classes(panel) == {"settings-card"}
    title = find(panel, "h2")
    assert attrs(title)["id"] == attrs(panel)["aria-labelledby"] == "settings-signout"
    assert classes(title) == {"settings-title"}


def test_the_portal_body_keeps_its_extra_classes():
    body = portal_body("x", class_name="settings-grid")
    assert body["tagName"] == "div" and classes(body) == {"container", "portal-body", "settings-grid"}


def test_facts_are_terms_then_details():
    listing = facts(("Name", "Pat Lee"), ("Email", "pat@example.test"), class_name="settings-facts")
    assert listing["tagName"] == "dl" and classes(listing) == {"settings-facts"}
    assert [e["tagName"] for e in find_all(listing) if e is not listing] == ["dt", "dd", "dt", "dd"]
    assert text(listing) == "Name Pat Lee Email pat@example.test"
    assert attrs(facts(("a", "b"))) == {}


def test_hints_and_button_rows():
    assert hint("Optional.")["tagName"] == "p" and classes(hint("Optional.")) == {"hint"}
    row = button_row("a", "b")
    assert classes(row) == {"button-row"} and text(row) == "a b"


def test_a_portal_page_holds_its_header_and_body():
    page = portal_page("header", portal_body("body"))
    assert page["tagName"] == "div" and classes(page) == {"portal"} and text(page) == "header body"


def test_a_form_is_checked_by_the_server_and_named_when_labelled():
    async def sent(_event: dict) -> None:
        return None

    form = ServerForm(
        "fields", on_submit=sent, id="contract-form", label="New contract", class_name="corp-row"
    )
    assert form["tagName"] == "form" and classes(form) == {"form", "corp-row"}
    assert attrs(form)["no_validate"] is True
    assert attrs(form)["id"] == "contract-form" and attrs(form)["aria-label"] == "New contract"
    assert "on_submit" in form["eventHandlers"]


def test_a_fact_may_have_several_pieces_of_detail():
    listing = facts(("Sites", "3 · ", "Boston"))
    assert text(find(listing, "dd")) == "3 · Boston"


def test_a_call_to_action_band_has_its_heading_line_and_action():
    band = cta_band("Licensed provider?", "Join as a provider.", button_link("Join", "/become-provider"))
    assert classes(band) == {"cta-band"}
    assert text(find(band, "h2")) == "Licensed provider?" and text(find(band, "p")) == "Join as a provider."
    assert attrs(find(band, "a"))["href"] == "/become-provider"
