"""Ad Analytics (/dashboard/ad-analytics; issue 17 part 4): the signed-in advertiser's own figures — views,
clicks, CTR, spend and budget left — in all, per flight and per placement, a chart of the last 30 days (pygal
SVG, like /staff/analytics), and a CSV download (`GET /api/ads/figures.csv`, api/ads.py). Below, their
flights with status and any reason staff gave, and Edit creative (any change goes back to review).
Accounts that do not advertise are told how to start."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict

from app.services.ads import (
    ADVERTISER_ROLES,
    edit_ad_creative,
    end_my_ad_flight,
    get_ad_figures,
    list_my_ad_flights,
)
from components.ad_slot import ad_card, image_field
from components.context import use_session
from components.format import format_currency, format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Chart,
    Column,
    DataTable,
    Dialog,
    Field,
    QueryView,
    Region,
    ServerForm,
    StaffCard,
    StatCard,
    TextArea,
    Tone,
    UserText,
    button_link,
    button_row,
    dashboard_header,
    dialog_actions,
    form_error,
    portal_body,
    portal_page,
    stat_group,
)
from models.ads import MAX_BODY, MAX_HEADLINE, MAX_URL, AdCreative, AdFiguresRead, FigureRow, FlightRead

CSV_PATH = "/api/ads/figures.csv"
TONES: dict[str, Tone] = {
    "review": "warning",
    "approved": "success",
    "paused": "neutral",
    "rejected": "danger",
    "ended": "neutral",
    "spent": "neutral",
}


def _money(cents: int) -> str:
    return format_currency(cents / 100)


def _ctr(row: FigureRow | AdFiguresRead) -> str:
    return f"{row.clicks / row.views:.2%}" if row.views else "—"


@component
def AdAnalyticsPage() -> VdomDict:
    session = use_session()
    user = session.user
    advertiser = user is not None and (user.role in ADVERTISER_ROLES or user.is_master_admin)
    return portal_page(
        dashboard_header(
            "Ad Analytics",
            lead="How your ads do: views and clicks counted on our servers, what you have spent and what is left.",
        ),
        portal_body(_Figures() if advertiser else _not_advertising()),
    )


def _not_advertising() -> VdomDict:
    return html.div(
        {"class_name": "staff-card"},
        html.h2("No ads on this account"),
        html.p("Providers and business accounts buy ad space on MediVisit; their figures show here."),
        button_row(button_link("About advertising", "/ad-purchase")),
    )


@component
def _Figures() -> VdomDict:
    figures = use_query(get_ad_figures)
    flights = use_query(list_my_ad_flights)
    editing_state: State[FlightRead | None] = use_state(None)
    editing, set_editing = editing_state
    ending_state: State[FlightRead | None] = use_state(None)
    ending, set_ending = ending_state
    return html._(
        QueryView(
            figures, _report, is_empty=lambda data: data is None, loading_label="Loading your figures…"
        ),
        StaffCard(
            "Your flights",
            QueryView(
                flights,
                lambda rows: _flights(rows, set_editing, set_ending),
                is_empty=lambda rows: rows is None,
                loading_label="Loading your flights…",
            ),
            title_id="my-flights-title",
            head=(button_link("Book a flight", "/ad-purchase#book", variant="outline"),),
        ),
        _Editor(editing, [flights, figures], on_close=lambda: set_editing(None), key=f"edit {editing.id}")
        if editing
        else "",
        _Ender(ending, [flights, figures], on_close=lambda: set_ending(None), key=f"end {ending.id}")
        if ending
        else "",
    )


def _report(data: AdFiguresRead) -> VdomDict:
    left = max(data.budget_cents - data.spent_cents, 0)
    labels = [f"{day.day:%b} {day.day.day}" for day in data.days]
    return html._(
        stat_group(
            StatCard(
                "Impressions", f"{data.views:,}", icon="monitor", hint="Views counted, crawlers left out"
            ),
            StatCard("Clicks", f"{data.clicks:,}", icon="arrow-right", hint=f"CTR {_ctr(data)}"),
            StatCard(
                "Spent",
                _money(data.spent_cents),
                icon="dollar",
                hint=f"of {_money(data.budget_cents)} budgeted",
            ),
            StatCard(
                "Budget left", _money(left), icon="wallet", hint="Ads stop when their budget is used up"
            ),
            label="Your ads in all",
        ),
        StaffCard(
            "Last 30 days",
            Chart(
                "Impressions and clicks per day",
                [
                    ("Impressions", [day.views for day in data.days]),
                    ("Clicks", [day.clicks for day in data.days]),
                ],
                labels=labels,
                kind="line",
                label_every=5,
                whole_numbers=True,
                class_name="analytics-chart",
            ),
            title_id="ad-chart-title",
            head=(button_link("Download CSV", CSV_PATH, variant="outline", size="sm", download=""),),
        ),
        Region(
            "By flight",
            _table(data.flights, "Figures by flight", with_placement=False),
            title_id="ad-flights-figures",
            class_name="staff-card",
        ),
        Region(
            "By flight and placement",
            _table(data.placements, "Figures by flight and placement", with_placement=True),
            title_id="ad-placement-figures",
            class_name="staff-card",
        ),
    )


def _table(rows: list[FigureRow], caption: str, *, with_placement: bool) -> VdomDict:
    columns = [Column("flight_name", "Flight", render=lambda r: UserText(r.flight_name))]
    if with_placement:
        columns.append(Column("placement", "Placement"))
    columns += [
        Column("views", "Impressions", render=lambda r: f"{r.views:,}", numeric=True),
        Column("clicks", "Clicks", render=lambda r: f"{r.clicks:,}", numeric=True),
        Column("ctr", "CTR", render=_ctr, numeric=True),
        Column("spent_cents", "Spent", render=lambda r: _money(r.spent_cents), numeric=True),
    ]
    if not with_placement:
        columns.append(
            Column(
                "budget_cents",
                "Budget left",
                render=lambda r: _money(max(r.budget_cents - r.spent_cents, 0)),
                numeric=True,
            )
        )
    return DataTable(
        columns,
        rows,
        caption=caption,
        row_key=lambda r: f"{r.flight_id} {r.placement}",
        empty="No views yet: figures appear once an approved flight has run.",
    )


def _flights(
    rows: list[FlightRead], edit: Callable[[FlightRead], None], end: Callable[[FlightRead], None]
) -> VdomDict:
    def status(flight: FlightRead) -> Any:
        return html._(
            Badge(flight.status.label, tone=TONES.get(flight.status.value, "neutral")),
            html.span({"class_name": "hint ad-reason"}, " ", UserText(flight.reason))
            if flight.reason
            else "",
        )

    def actions(flight: FlightRead) -> Any:
        if flight.status.value in ("ended", "spent"):
            return ""
        can_end = flight.status.value != "rejected"
        return button_row(
            Button(
                "Edit creative",
                size="sm",
                variant="outline",
                on_click=lambda: edit(flight),
                aria_label=f"Edit {flight.name}",
            ),
            Button(
                "End",
                size="sm",
                variant="ghost",
                on_click=lambda: end(flight),
                aria_label=f"End {flight.name}",
            )
            if can_end
            else "",
        )

    return DataTable(
        [
            Column("name", "Flight", render=lambda f: UserText(f.name)),
            Column("status", "Status", render=status),
            Column("placements", "Placements", render=lambda f: ", ".join(f.placements)),
            Column(
                "starts_on", "Days", render=lambda f: f"{format_date(f.starts_on)} – {format_date(f.ends_on)}"
            ),
            Column("budget_cents", "Budget", render=lambda f: _money(f.budget_cents), numeric=True),
            Column("actions", "Actions", render=actions),
        ],
        rows,
        caption="Your flights",
        row_key=lambda f: f.id,
        empty="No flights yet.",
    )


@component
def _Editor(flight: FlightRead, dependants: list[Query], on_close: Callable[[], None]) -> Any:
    session = use_session()
    form = use_form(headline=flight.headline, body=flight.body, link_url=flight.link_url)
    image, set_image = use_state(lambda: {"id": "", "url": flight.image_url} if flight.image_url else None)
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    problem, set_problem = use_state("")

    def saved(result: FlightRead) -> None:
        session.toaster.success("Creative saved", "It is back in review; it runs again once approved.")
        on_close()

    def refused(message: str) -> None:
        set_problem(message)

    action = use_action(edit_ad_creative, refetch=dependants, on_success=saved, on_error=refused)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        creative = AdCreative(
            headline=str(values.get("headline", ""))[:500],
            body=str(values.get("body", ""))[:1000],
            link_url=str(values.get("link_url", ""))[:1000],
            image_id=image["id"] if image else "",
        )
        set_errors({})
        set_problem("")
        await action.run(flight_id=flight.id, creative=creative)

    return Dialog(
        f"Edit “{flight.name}”",
        ad_card(
            headline=flight.headline,
            body=flight.body,
            link_url=flight.link_url,
            image_url=flight.image_url,
            advertiser=flight.advertiser_name,
        ),
        ServerForm(
            form_error(problem),
            Field(
                "Headline",
                "headline",
                form=form,
                id="edit-headline",
                max_length=MAX_HEADLINE,
                error=errors.get("headline"),
            ),
            TextArea(
                "Line under the headline", "body", form=form, id="edit-body", rows=2, max_length=MAX_BODY
            ),
            Field("Link (https)", "link_url", form=form, id="edit-link", type="url", max_length=MAX_URL),
            image_field(image, set_image, id="edit-image-file"),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button(
                    "Save and send to review", type="submit", pending=action.pending, pending_label="Saving…"
                ),
            ),
            on_submit=submit,
            id="ad-edit-form",
        ),
        open=True,
        on_close=on_close,
        description="Any change stops the ad until our team has reviewed it again.",
        id="ad-edit-dialog",
        busy=action.pending,
    )


@component
def _Ender(flight: FlightRead, dependants: list[Query], on_close: Callable[[], None]) -> Any:
    """Ending a flight asks first: it cannot be undone."""
    session = use_session()

    def ended(result: FlightRead) -> None:
        session.toaster.success("Flight ended", f"“{result.name}” no longer runs; nothing more is spent.")
        on_close()

    action = use_action(end_my_ad_flight, refetch=dependants, on_success=ended)
    return Dialog(
        f"End “{flight.name}”?",
        html.p(
            f"It stops running now and spends nothing more. It has spent {_money(flight.spent_cents)} of "
            f"{_money(flight.budget_cents)}. This cannot be undone; book a new flight to run again."
        ),
        footer=dialog_actions(
            Button("Keep it running", variant="ghost", on_click=on_close),
            Button(
                "End flight",
                variant="danger",
                pending=action.pending,
                pending_label="Ending…",
                on_click=lambda: action.run(flight_id=flight.id),
            ),
        ),
        open=True,
        on_close=on_close,
        id="ad-end-dialog",
        busy=action.pending,
    )
