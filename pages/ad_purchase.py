"""Purchase Ad Space (/ad-purchase, issue 17 part 4): the price list (per thousand views, per placement, with
the placements not sold and why), which placements have room on the chosen days (`?from=…&to=…`, in the URL),
and, for a signed-in advertiser (a provider, an owner or an admin), the booking form: placements, first and
last day, budget, the creative (image uploaded by the browser to /api/ads/images, headline, line, https
address), a preview in the very markup the slots use, and Submit for review. The service checks everything
again; a mistake shows beside its field and nothing typed is lost."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.ads import (
    ADVERTISER_ROLES,
    end_my_ad_flight,
    flight_problems,
    get_ad_availability,
    get_ad_statement,
    list_ad_prices,
    list_my_ad_flights,
    start_ad_payment,
    submit_ad_flight,
)
from components.ad_slot import ad_card, image_field
from components.browser import client_get_form, follow, native_link
from components.context import use_session
from components.format import format_currency, format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    Field,
    QueryView,
    Region,
    ServerForm,
    TextArea,
    Tone,
    UserText,
    browser_field,
    button_link,
    button_row,
    checklist,
    dialog_actions,
    facts,
    field_group,
    filter_actions,
    form_error,
    hint,
    notice,
    public_page,
    section,
    titled_card,
)
from models.ads import (
    MAX_BODY,
    MAX_HEADLINE,
    MAX_NAME,
    MAX_URL,
    AdCreative,
    AdStatementRead,
    AvailabilityRead,
    FlightCreate,
    FlightRead,
    FlightStatus,
)

PATH = "/ad-purchase"
DEFAULT_DAYS = 14
STANDARDS = (
    "Every ad is reviewed by a person before it runs, and again after any change",
    "Ads are labelled “Sponsored”",
    "Ads are chosen by the page they appear on, never by who is looking: no health data, bookings or "
    "browsing history",
    "Health claims must be accurate and backed by evidence; say “Results vary.” or “Not medical advice.”",
    "Services offered must be legal and properly licensed",
)


def _day(params: dict[str, list[str]], name: str, default: date) -> date:
    try:
        return date.fromisoformat((params.get(name) or [""])[0].strip()[:10])
    except ValueError:
        return default


def _cpm(cents: int) -> str:
    return format_currency(cents / 100)


@component
def AdPurchasePage() -> VdomDict:
    params = use_search_params()
    first = datetime.now(UTC).date()  # flights run by UTC days, as the service counts them
    starts = _day(params, "from", first)
    ends = _day(params, "to", starts + timedelta(days=DEFAULT_DAYS - 1))
    return public_page(
        "Advertise on MediVisit",
        section(_prices(), title="Placements and prices"),
        section(_Availability(starts.isoformat(), ends.isoformat()), title="Availability", muted=True),
        _MyFlights((params.get("payment") or [""])[0]),
        section(
            html.div(
                {"class_name": "split ad-purchase-split"},
                _Booking(starts.isoformat(), ends.isoformat()),
                html.div(
                    html.h2({"class_name": "section-title"}, "Our ad standards"),
                    checklist(*STANDARDS),
                    hint(
                        "Clicks from one network are counted once a minute, crawlers are never counted, and "
                        "no third-party trackers are used."
                    ),
                ),
            ),
            id="book",
        ),
        lead="Reach people arranging care at home, and the providers who deliver it, with clearly labelled "
        "placements across the site. You pay per thousand views, never more than your budget.",
        eyebrow="Purchase Ad Space",
    )


def _prices() -> VdomDict:
    def price(row: Any) -> Any:
        return f"{_cpm(row.cpm_cents)} per 1,000 views" if row.used else Badge("Not sold", tone="neutral")

    return DataTable(
        [
            Column("label", "Placement"),
            Column("where", "Where it appears"),
            Column("cpm_cents", "Price", render=price),
            Column(
                "capacity",
                "Ads at once",
                render=lambda row: str(row.capacity) if row.used else "—",
                numeric=True,
            ),
        ],
        list_ad_prices(),
        caption="Prices per placement (CPM: per thousand views)",
        row_key=lambda row: row.placement,
    )


@component
def _Availability(starts: str, ends: str) -> VdomDict:
    query = use_query(get_ad_availability, starts_on=starts, ends_on=ends)

    def free(row: AvailabilityRead) -> Any:
        if row.free == 0:
            return Badge("Fully booked", tone="danger")
        return Badge(f"{row.free} of {row.capacity} free", tone="success")

    return html._(
        html.form(
            {
                "key": f"range {starts} {ends}",
                "class_name": "form audit-filters ad-range",
                "method": "get",
                "action": PATH,
                "aria-label": "Days to check",
                **client_get_form(),
            },
            browser_field("First day", "from", value=starts, type="date", id_prefix="range"),
            browser_field("Last day", "to", value=ends, type="date", id_prefix="range"),
            filter_actions("Check availability", icon=None),
        ),
        hint(
            f"From {format_date(date.fromisoformat(starts))} to {format_date(date.fromisoformat(ends))}: "
            "the places left on the busiest of those days."
        ),
        QueryView(
            query,
            lambda rows: DataTable(
                [Column("label", "Placement"), Column("free", "Places free", render=free)],
                rows,
                caption="Availability for the chosen days",
                row_key=lambda row: row.placement,
            ),
            loading_label="Checking availability…",
        ),
    )


@component
def _Booking(starts: str, ends: str) -> VdomDict | Component:
    session = use_session()
    user = session.user
    if user is None:
        return titled_card(
            "Book a flight",
            html.p("Sign in with your provider or business account to book placements and upload your ad."),
            actions=(button_link("Sign in", f"/login?redirect={PATH}", icon_name="arrow-right"),),
            class_name="ad-signin",
        )
    if user.role not in ADVERTISER_ROLES and not user.is_master_admin:
        return titled_card(
            "Book a flight",
            html.p(
                "Ad space is bought by providers and business accounts. Patients' accounts can't buy ads, "
                "and nothing about your care is ever used to choose the ads you see."
            ),
            actions=(button_link("Join as Provider", "/become-provider"),),
            class_name="ad-signin",
        )
    return _BookingForm(starts, ends)


def _placement_choices() -> list[Any]:
    return [row for row in list_ad_prices() if row.used]


@component
def _BookingForm(starts: str, ends: str) -> VdomDict:
    session = use_session()
    choices = _placement_choices()
    form = use_form(
        name="",
        starts_on=starts,
        ends_on=ends,
        budget="",
        headline="",
        body="",
        link_url="https://",
        draft=None,  # the default, named: mypy checks the placements below against every keyword left
        **{f"placement_{row.placement}": False for row in choices},
    )
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    problem, set_problem = use_state("")
    image_state: State[dict[str, str] | None] = use_state(None)  # {"id", "url"} once uploaded
    image, set_image = image_state
    preview_state: State[FlightCreate | None] = use_state(None)  # a FlightCreate shown in the slots' markup
    preview, set_preview = preview_state
    booked_state: State[FlightRead | None] = use_state(None)
    booked, set_booked = booked_state

    def refused(message: str) -> None:
        set_problem(message)

    action = use_action(submit_ad_flight, on_success=set_booked, on_error=refused)

    def typed() -> FlightCreate:
        values = form.values
        return FlightCreate(
            name=str(values.get("name", ""))[:500],
            placements=[row.placement for row in choices if values.get(f"placement_{row.placement}")],
            starts_on=str(values.get("starts_on", ""))[:20],
            ends_on=str(values.get("ends_on", ""))[:20],
            budget=str(values.get("budget", ""))[:32],
            creative=AdCreative(
                headline=str(values.get("headline", ""))[:500],
                body=str(values.get("body", ""))[:1000],
                link_url=str(values.get("link_url", ""))[:1000],
                image_id=image["id"] if image else "",
            ),
        )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        data = typed()
        found = flight_problems(data)
        set_errors(found)
        set_problem("")
        if found:
            return
        await action.run(data=data)

    def show_preview() -> None:
        set_preview(typed())

    if booked is not None:
        return titled_card(
            "Thanks: your flight is in review",
            html.p(
                f"“{booked.name}” waits for our team to review it. It starts serving on "
                f"{format_date(booked.starts_on)} once approved, and stops when its "
                f"{format_currency(booked.budget_cents / 100)} budget is spent."
            ),
            hint("Nothing is charged for days it does not run."),
            actions=(button_link("See your ad figures", "/dashboard/ad-analytics", icon_name="arrow-right"),),
            class_name="ad-booked",
            role="status",
        )

    return ServerForm(
        html.h2({"class_name": "section-title"}, "Book a flight"),
        form_error(problem),
        Field(
            "Flight name",
            "name",
            form=form,
            id="ad-name",
            required=True,
            max_length=MAX_NAME,
            hint="For your own reports, e.g. “Spring IV clinic”.",
            error=errors.get("name"),
        ),
        field_group(
            "Placements",
            *(
                Checkbox(
                    f"{row.label} · {_cpm(row.cpm_cents)} per 1,000 views",
                    f"placement_{row.placement}",
                    form=form,
                    id=f"ad-placement-{row.placement.lower()}",
                )
                for row in choices
            ),
            error=errors.get("placements"),
            error_id="ad-placements-error",
            legend_class="label",
            class_name="field ad-placements",
        ),
        html.div(
            {"class_name": "form-row"},
            Field(
                "First day",
                "starts_on",
                form=form,
                id="ad-starts",
                type="date",
                error=errors.get("starts_on"),
            ),
            Field("Last day", "ends_on", form=form, id="ad-ends", type="date", error=errors.get("ends_on")),
        ),
        Field(
            "Budget (USD)",
            "budget",
            form=form,
            id="ad-budget",
            required=True,
            max_length=12,
            input_mode="decimal",
            placeholder="250",
            hint="The most you'll spend; the ad stops when it is used up.",
            error=errors.get("budget"),
        ),
        Field(
            "Headline",
            "headline",
            form=form,
            id="ad-headline",
            required=True,
            max_length=MAX_HEADLINE,
            error=errors.get("headline"),
        ),
        TextArea(
            "Line under the headline",
            "body",
            form=form,
            id="ad-body",
            rows=2,
            max_length=MAX_BODY,
            hint="Include a disclaimer such as “Results vary.” Claims like “cure” or “guaranteed” are flagged.",
            error=errors.get("body"),
        ),
        Field(
            "Link (https)",
            "link_url",
            form=form,
            id="ad-link",
            type="url",
            required=True,
            max_length=MAX_URL,
            error=errors.get("link_url"),
        ),
        image_field(image, set_image, id="ad-image-file"),
        button_row(
            Button("Preview", variant="outline", on_click=show_preview),
            Button("Submit for review", type="submit", pending=action.pending, pending_label="Submitting…"),
        ),
        _preview(preview, image, session.user.name if session.user else "") if preview is not None else "",
        on_submit=submit,
        id="ad-form",
        class_name="ad-form",
    )


def _preview(data: FlightCreate, image: dict | None, advertiser: str) -> VdomDict:
    labels = {row.placement: row.label for row in _placement_choices()}
    shown = data.placements[:3] or ["SERVICES_TOP"]
    creative = data.creative
    return Region(
        "Preview",
        hint("Exactly as it will look on the site. Previews are never counted."),
        *(
            html.div(
                {"key": code, "class_name": "ad-preview-item"},
                html.p({"class_name": "ad-preview-where"}, labels.get(code, code)),
                ad_card(
                    headline=creative.headline,
                    body=creative.body,
                    link_url=creative.link_url,
                    image_url=image["url"] if image else "",
                    advertiser=advertiser,
                    placement=code,
                ),
            )
            for code in shown
        ),
        title_id="ad-preview-title",
        class_name="ad-preview",
        heading="h3",
    )


# ---- the advertiser's flights: billing, spend statement, receipt, ending early (issue 29 item 5) ----------
S = FlightStatus
ENDABLE = (S.review, S.payment, S.approved, S.paused)
STAGE_TONES: dict[str, Tone] = {
    "Awaiting payment": "warning",
    "Running": "success",
    "Scheduled": "info",
    "In review": "warning",
}


def _money(cents: int) -> str:
    return format_currency(cents / 100)


def _stage(flight: FlightRead) -> str:
    """What the flight is doing, in the advertiser's words."""
    if flight.status == S.approved:
        day = datetime.now(UTC).date()
        if day < flight.starts_on:
            return "Scheduled"
        return "Finished" if day > flight.ends_on else "Running"
    return flight.status.label


def _billing(flight: FlightRead) -> str:
    if flight.billing == "card":
        if flight.paid_cents:
            refunded = (
                f"; {_money(flight.refunded_cents)} unspent refunded to your card"
                if flight.refunded_cents
                else ""
            )
            return f"Paid by card: {_money(flight.paid_cents)}{refunded}"
        return f"Awaiting payment: {_money(flight.budget_cents)} by card before it runs"
    if flight.billing == "invoice":
        invoice = f" (invoice {flight.invoice_number})" if flight.invoice_number else ""
        return f"On terms: invoiced after the flight for what it delivered{invoice}"
    return "Once approved: paid by card before it runs, or invoiced if we've agreed terms with you"


@component
def _MyFlights(returned: str) -> Component | str:
    session = use_session()
    user = session.user
    if user is None or (user.role not in ADVERTISER_ROLES and not user.is_master_admin):
        return ""
    return FlightsBilling(returned)


@component
def FlightsBilling(returned: str = "") -> VdomDict:
    """The signed-in advertiser's flights with their billing; `returned` is `?payment=` (done, cancelled)
    after Stripe's page."""
    query = use_query(list_my_ad_flights)
    return section(
        Region(
            "Your flights",
            notice(
                "Thanks: your payment is being confirmed. The flight starts on its first day once Stripe "
                "confirms it.",
                tone="info",
            )
            if returned == "done"
            else notice("The payment was cancelled; your flight waits for its payment.", tone="warning")
            if returned == "cancelled"
            else "",
            QueryView(
                query,
                lambda rows: html.ul(
                    {"class_name": "ad-review-list ad-billing-list"},
                    *(_FlightBilling(f, query, key=f"{f.id} {f.status} {f.paid_cents}") for f in rows),
                ),
                is_empty=lambda rows: not rows,
                empty="No flights yet: book one below.",
                loading_label="Loading your flights…",
            ),
            title_id="my-flights-title",
            title_class="section-title",
            class_name="ad-my-flights",
        ),
        id="my-flights",
    )


@component
def _FlightBilling(flight: FlightRead, query: Query) -> VdomDict:
    session = use_session()
    pay_url, set_pay_url = use_state("")
    showing, set_showing = use_state(False)
    ending, set_ending = use_state(False)
    pay = use_action(start_ad_payment, on_success=set_pay_url)
    remaining = max(flight.budget_cents - flight.spent_cents, 0)
    stage = _stage(flight)
    actions: list[Any] = []
    if flight.status == S.payment:
        actions.append(
            Button(
                f"Pay {_money(flight.budget_cents)} by card",
                icon="arrow-right",
                pending=pay.pending,
                pending_label="Opening Stripe…",
                on_click=lambda: pay.run(flight_id=flight.id),
                aria_label=f"Pay {_money(flight.budget_cents)} by card for {flight.name}",
            )
        )
    actions.append(
        Button(
            "Spend statement",
            variant="outline",
            size="sm",
            on_click=lambda: set_showing(True),
            aria_label=f"Spend statement of {flight.name}",
        )
    )
    if flight.paid_cents:
        actions.append(
            button_link(
                "Download receipt (PDF)",
                f"/api/ads/flights/{flight.id}/receipt.pdf",
                variant="outline",
                size="sm",
                aria_label=f"Download the receipt of {flight.name} (PDF)",
                **native_link(),
            )
        )
    if flight.status in ENDABLE:
        actions.append(
            Button(
                "End flight",
                variant="ghost",
                size="sm",
                on_click=lambda: set_ending(True),
                aria_label=f"End flight {flight.name}",
            )
        )
    return Region(
        UserText(flight.name),
        html.p({"class_name": "hint"}, f"{format_date(flight.starts_on)} to {format_date(flight.ends_on)}"),
        facts(
            ("Billing", _billing(flight)),
            ("Budget", _money(flight.budget_cents)),
            ("Spent to date", _money(flight.spent_cents)),
            ("Remaining", _money(remaining)),
            class_name="ad-facts",
        ),
        follow(pay_url, full_load=True) if pay_url else "",
        html.p({"role": "status"}, "Taking you to Stripe's secure page to pay by card…") if pay_url else "",
        button_row(*actions),
        _Statement(flight.id, on_close=lambda: set_showing(False)) if showing else "",
        _EndDialog(
            flight,
            query,
            on_close=lambda: set_ending(False),
            on_done=lambda: session.toaster.success("Flight ended", flight.name),
        )
        if ending
        else "",
        title_id=f"billing-{flight.id}",
        class_name="ad-review-item ad-billing-item",
        tag="li",
        heading="h3",
        head_class="ad-review-head",
        head=(Badge(stage, tone=STAGE_TONES.get(stage, "neutral")),),
    )


@component
def _Statement(flight_id: str, on_close: Any) -> Any:
    query = use_query(get_ad_statement, flight_id=flight_id)
    name = query.data.flight.name if query.data is not None else "your flight"
    return Dialog(
        f"Spend statement: {name}",
        QueryView(query, _statement, loading_label="Loading the statement…"),
        open=True,
        on_close=on_close,
        id="ad-statement",
    )


def _statement(data: AdStatementRead) -> VdomDict:
    flight = data.flight
    return html.div(
        facts(
            ("Budget", _money(flight.budget_cents)),
            ("Spent to date", _money(data.spent_cents)),
            ("Remaining", _money(data.remaining_cents)),
            ("Impressions", f"{data.views:,}"),
            ("Clicks", f"{data.clicks:,}"),
            ("Today's limit", _money(data.daily_cap_cents) if data.daily_cap_cents else "—"),
            ("Billing", _billing(flight)),
            class_name="ad-facts",
        ),
        hint(
            "Delivery is spread across the flight: each day it may spend what is left of the budget over the "
            "days left, and it never spends more than the budget."
        ),
        DataTable(
            [
                Column("day", "Day", render=lambda d: format_date(d.day)),
                Column("views", "Impressions", render=lambda d: f"{d.views:,}", numeric=True),
                Column("clicks", "Clicks", render=lambda d: f"{d.clicks:,}", numeric=True),
                Column("spent_cents", "Spent", render=lambda d: _money(d.spent_cents), numeric=True),
            ],
            data.days,
            caption="Daily spend",
            row_key=lambda d: d.day.isoformat(),
            empty="No views yet.",
        ),
    )


def _end_text(flight: FlightRead) -> str:
    if flight.billing == "card" and flight.paid_cents:
        left = max(flight.paid_cents - flight.spent_cents, 0)
        return f"It stops serving now, and the {_money(left)} it has not spent is refunded to your card."
    if flight.billing == "invoice":
        return "It stops serving now; you are invoiced only for what it delivered."
    return "It stops now. Nothing has been charged."


@component
def _EndDialog(flight: FlightRead, query: Query, on_close: Any, on_done: Any) -> Any:
    problem, set_problem = use_state("")

    def done(_result: Any) -> None:
        on_done()
        on_close()

    end = use_action(end_my_ad_flight, refetch=[query], on_success=done, on_error=set_problem)
    return Dialog(
        f"End “{flight.name}” now?",
        html.p(_end_text(flight)),
        form_error(problem),
        footer=dialog_actions(
            Button("Keep it running", variant="ghost", on_click=on_close),
            Button(
                "End flight",
                pending=end.pending,
                pending_label="Ending…",
                on_click=lambda: end.run(flight_id=flight.id),
            ),
        ),
        open=True,
        on_close=on_close,
        id="ad-end-dialog",
        busy=end.pending,
    )
