"""Button, QueryView, Tabs, Dialog, Badge and StatCard as a user meets them."""

from __future__ import annotations

from dataclasses import dataclass, field

from reactpy import component, html, use_state

from components.kit import (
    Badge,
    Button,
    Dialog,
    QueryView,
    StatCard,
    TabPanel,
    Tabs,
    dialog_actions,
    param_href,
)
from tests.ui.harness import attrs, classes, find, find_all, text


# ---- Button ----------------------------------------------------------------------------------------------
async def test_button_clicks_run_async_handlers(mount):
    clicks: list[str] = []

    async def save() -> None:
        clicks.append("saved")

    async with mount(lambda: Button("Save", on_click=save, variant="outline")) as ui:
        button = ui.find("button")
        assert classes(button) == {"btn", "btn-outline"}
        assert attrs(button)["type"] == "button"
        await ui.fire(button)
        assert clicks == ["saved"]


def test_pending_disables_the_button_and_says_so():
    button = Button("Save profile", pending=True, pending_label="Saving…", type="submit")
    assert attrs(button)["disabled"] is True
    assert attrs(button)["aria-busy"] == "true"
    assert text(button) == "Saving…"
    idle = Button("Save profile")
    assert attrs(idle)["disabled"] is False and "aria-busy" not in attrs(idle)


# ---- QueryView -------------------------------------------------------------------------------------------
@dataclass
class FakeQuery:
    data: object = None
    loading: bool = False
    error: str | None = None
    refetches: list[int] = field(default_factory=list)

    def refetch(self) -> None:
        self.refetches.append(1)


def show(rows):
    return html.ul(*(html.li({"key": r}, r) for r in rows))


def test_query_view_loading():
    view = QueryView(FakeQuery(loading=True), show, loading_label="Loading tickets…")
    assert attrs(view)["role"] == "status"
    assert text(view) == "Loading tickets…"
    assert find(view, "span", class_="portal-spinner")


async def test_query_view_error_offers_a_retry_that_refetches(mount):
    query = FakeQuery(error="Could not load tickets.")
    async with mount(lambda: QueryView(query, show)) as ui:
        alert = ui.find(role="alert")
        assert "Could not load tickets." in text(alert)
        await ui.fire(ui.find("button", "Retry"))
        assert query.refetches == [1]


def test_query_view_empty_and_data():
    empty = QueryView(FakeQuery(data=[]), show, empty="No tickets found")
    assert "empty-state" in classes(empty) and text(empty) == "No tickets found"
    custom = QueryView(FakeQuery(data={"n": 0}), show, is_empty=lambda d: d["n"] == 0, empty=html.p("none"))
    assert text(custom) == "none"
    data = QueryView(FakeQuery(data=["a", "b"], loading=True), show)  # a reload keeps the old rows
    assert [text(li) for li in find_all(data, "li")] == ["a", "b"]


# ---- Tabs ------------------------------------------------------------------------------------------------
TABS = [("upcoming", "Upcoming"), ("past", "Past")]


def test_tabs_are_wai_aria_tabs_driven_by_the_url():
    href = param_href(
        "/appointments", {"day": ["2025-01-02"], "tab": ["past"], "page": ["3"]}, default="upcoming"
    )
    tabs = Tabs(TABS, "past", label="Visits", href=href, id="visits")
    assert attrs(tabs)["role"] == "tablist" and attrs(tabs)["aria-label"] == "Visits"
    upcoming, past = find_all(tabs, role="tab")
    assert attrs(past)["aria-selected"] == "true" and attrs(past)["tab_index"] == 0
    assert attrs(upcoming)["aria-selected"] == "false" and attrs(upcoming)["tab_index"] == -1
    assert attrs(past)["aria-controls"] == "visits-panel-past"
    assert "aria-controls" not in attrs(upcoming)  # only the selected panel exists
    assert attrs(upcoming)["href"] == "/appointments?day=2025-01-02"  # default left out, page reset
    assert attrs(past)["href"] == "/appointments?day=2025-01-02&tab=past"
    # The browser sets ?tab= on the URL it is at when clicked (static/js/app.js), dropping ?page=.
    assert (attrs(past)["data-param"], attrs(past)["data-drop"]) == ("tab", "page")
    panel = TabPanel("past", "…", id="visits")
    assert attrs(panel)["role"] == "tabpanel" and attrs(panel)["aria-labelledby"] == attrs(past)["id"]


def test_an_unknown_tab_selects_the_first():
    tabs = Tabs(TABS, "bogus", label="Visits", href=lambda k: f"?tab={k}")
    assert [attrs(t)["aria-selected"] for t in find_all(tabs, role="tab")] == ["true", "false"]
    assert "data-param" not in attrs(
        find_all(tabs, role="tab")[0]
    )  # a link of its own making is followed as is


async def test_button_tabs_call_on_select(mount):
    @component
    def Screen():
        selected, select = use_state("upcoming")
        return Tabs(TABS, selected, label="Visits", on_select=select)

    async with mount(Screen) as ui:
        await ui.fire(ui.find("button", "Past"))
        assert attrs(ui.find("button", "Past"))["aria-selected"] == "true"
        assert attrs(ui.find("button", "Upcoming"))["tab_index"] == -1


# ---- Dialog ----------------------------------------------------------------------------------------------
async def test_dialog_is_labelled_and_closes(mount):
    @component
    def Screen():
        is_open, set_open = use_state(True)

        async def close() -> None:
            set_open(False)

        return html.div(
            Dialog(
                "Report a Bug",
                html.p("Body"),
                open=is_open,
                on_close=close,
                description="Tell us what went wrong.",
                footer=dialog_actions(Button("Cancel", on_click=close, variant="ghost")),
                id="bug",
            )
        )

    async with mount(Screen) as ui:
        dialog = ui.find(role="dialog")
        assert attrs(dialog)["aria-modal"] == "true"
        assert text(find(dialog, "h2", id=attrs(dialog)["aria-labelledby"])) == "Report a Bug"
        assert text(find(dialog, "p", id=attrs(dialog)["aria-describedby"])) == "Tell us what went wrong."
        assert find(ui.model, **{"data-modal": ""})  # Escape and the focus trap (static/js) find it
        await ui.fire(ui.find("button", **{"aria-label": "Close"}))
        assert ui.find_all(role="dialog") == []


def test_closed_dialog_renders_nothing():
    assert not find_all(Dialog("T", open=False, on_close=lambda: None), role="dialog")


# ---- Badge and StatCard ----------------------------------------------------------------------------------
def test_badge_tone():
    badge = Badge("Overdue", tone="danger")
    assert classes(badge) == {"badge", "badge-danger"} and text(badge) == "Overdue"


def test_stat_card_shows_label_value_and_trend():
    card = StatCard("Activity Rate", "82%", hint="+4% from last week", trend=4, icon="chart")
    assert attrs(card)["aria-label"] == "Activity Rate"
    assert text(find(card, "p", class_="stat-value")) == "82%"
    assert "stat-up" in classes(find(card, "p", class_="stat-detail"))
    down = StatCard("Activity Rate", "60%", hint="−5% from last week", trend=-5)
    assert "stat-down" in classes(find(down, "p", class_="stat-detail"))
