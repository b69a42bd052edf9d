"""Advertisement Management (/staff/ads, manage_ads; issue 17 part 4): the review queue and every flight by
status (`?status=review|approved|paused|rejected|ended|spent|all`, paged in the URL). Each flight shows its
creative in the slots' own markup, what the health-claim screening found (the reviewer decides: nothing is
approved by itself), its placements, days, budget and spend. Approve, Reject (a reason the advertiser reads),
Pause, Resume and End; app/services/ads checks the permission and audits each."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.ads import (
    invoice_ad_flight,
    list_ad_flights,
    review_ad_flight,
    set_ad_flight_status,
    set_ad_invoicing,
)
from components.ad_slot import ad_card
from components.context import use_session
from components.format import format_currency, format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Dialog,
    ListQuery,
    PagedItems,
    QueryView,
    Region,
    ServerForm,
    StaffCard,
    StatusTabs,
    TextArea,
    Tone,
    UserText,
    bullets,
    button_row,
    choice_param,
    dialog_actions,
    facts,
    hint,
    page_param,
    staff_screen,
)
from components.staff_frame import StaffFrame, StaffSection
from models.ads import MAX_REASON, FlightPage, FlightRead, FlightStatus

PATH = "/staff/ads"
PAGE_SIZE = 10
S = FlightStatus
TABS = (
    ("review", "Waiting for review"),
    ("payment", "Awaiting payment"),
    ("approved", "Approved"),
    ("paused", "Paused"),
    ("rejected", "Rejected"),
    ("ended", "Ended"),
    ("spent", "Budget spent"),
    ("all", "All"),
)
TONES: dict[str, Tone] = {
    "review": "warning",
    "payment": "warning",
    "approved": "success",
    "paused": "neutral",
    "rejected": "danger",
    "ended": "neutral",
    "spent": "neutral",
}


@component
def AdsPage() -> Component:
    return StaffFrame(StaffSection(_Ads, slug="ads"), active="ads")


@component
def _Ads() -> VdomDict:
    params = use_search_params()
    status = choice_param(params, "status", dict(TABS), default="review")
    page = page_param(params, last=999_999)
    url = ListQuery(PATH, {"status": status}, defaults={"status": "review"})
    query = use_query(
        list_ad_flights,
        status="" if status == "all" else status,
        page=page,
        page_size=PAGE_SIZE,
    )
    asking_state: State[tuple[FlightRead, str] | None] = use_state(
        None
    )  # (flight, the move) that needs a reason
    asking, set_asking = asking_state
    return staff_screen(
        "Advertisement Management",
        StaffCard(
            "Flights",
            StatusTabs(
                TABS,
                status,
                QueryView(
                    query,
                    lambda data: _flights(data, url, query, set_asking),
                    is_empty=lambda data: data is None,
                    loading_label="Loading flights…",
                ),
                label="Flights by status",
                href=url.tab_href("status"),
                id="ads-tabs",
                class_name="tabs ad-tabs",
            ),
            title_id="ads-title",
        ),
        _Reason(
            asking[0],
            asking[1],
            query,
            on_close=lambda: set_asking(None),
            key=f"{asking[0].id} {asking[1]}",
        )
        if asking
        else "",
        lead="Review ads before they run, and pause or end any flight. Ads run only in their placements, "
        "chosen by the page, never by who is looking.",
    )


def _flights(
    data: FlightPage, url: ListQuery, query: Query, ask: Callable[[tuple[FlightRead, str] | None], None]
) -> VdomDict:
    return PagedItems(
        data,
        html.ul(
            {"class_name": "ad-review-list"},
            *(
                _FlightItem(flight, query, ask, key=f"{flight.id} {flight.revision} {flight.status}")
                for flight in data.items
            ),
        ),
        empty="No flights are waiting for review."
        if url.filters["status"] == "review"
        else "No flights here.",
        empty_class="empty-note",
        href=url.page_href,
        label="Pages of flights",
    )


@component
def _FlightItem(
    flight: FlightRead, query: Query, ask: Callable[[tuple[FlightRead, str] | None], None]
) -> VdomDict:
    session = use_session()
    approve = use_action(review_ad_flight, refetch=[query])
    resume = use_action(set_ad_flight_status, refetch=[query])
    terms = use_action(set_ad_invoicing, refetch=[query])
    invoice = use_action(
        invoice_ad_flight,
        refetch=[query],
        on_success=lambda number: session.toaster.success("Invoice sent", f"{number} for {flight.name}"),
    )
    title_id = f"flight-{flight.id}"
    actions: list[Any] = []
    if flight.status == S.review:
        actions = [
            Button(
                "Approve",
                icon="check",
                pending=approve.pending,
                pending_label="Approving…",
                on_click=lambda: approve.run(flight_id=flight.id, approve=True),
                aria_label=f"Approve {flight.name}",
            ),
            Button(
                "Reject",
                variant="outline",
                on_click=lambda: ask((flight, "reject")),
                aria_label=f"Reject {flight.name}",
            ),
        ]
    elif flight.status == S.approved:
        actions = [
            Button(
                "Pause",
                variant="outline",
                on_click=lambda: ask((flight, "paused")),
                aria_label=f"Pause {flight.name}",
            ),
        ]
    elif flight.status == S.paused:
        actions = [
            Button(
                "Resume",
                pending=resume.pending,
                pending_label="Resuming…",
                on_click=lambda: resume.run(flight_id=flight.id, status="approved"),
                aria_label=f"Resume {flight.name}",
            ),
        ]
    finished = flight.status in (S.ended, S.spent) or (
        flight.status in (S.approved, S.paused) and flight.ends_on < datetime.now(UTC).date()
    )
    if flight.billing == "invoice" and not flight.invoice_number and finished and flight.spent_cents:
        actions.append(
            Button(
                f"Invoice {format_currency(flight.spent_cents / 100)}",
                variant="outline",
                pending=invoice.pending,
                pending_label="Sending the invoice…",
                on_click=lambda: invoice.run(flight_id=flight.id),
                aria_label=f"Invoice {flight.name} for what it delivered",
            )
        )
    actions.append(
        Button(
            "Bill by card from now" if flight.invoiced_advertiser else "Invoice this advertiser",
            variant="ghost",
            pending=terms.pending,
            pending_label="Saving…",
            on_click=lambda: terms.run(
                advertiser_id=flight.advertiser_id, invoiced=not flight.invoiced_advertiser
            ),
            aria_label=(
                f"Bill {flight.advertiser_name} by card from now"
                if flight.invoiced_advertiser
                else f"Invoice {flight.advertiser_name} on terms"
            ),
        )
    )
    if flight.status in (S.review, S.payment, S.approved, S.paused):
        actions.append(
            Button(
                "End",
                variant="ghost",
                on_click=lambda: ask((flight, "ended")),
                aria_label=f"End {flight.name}",
            )
        )
    return Region(
        UserText(flight.name),
        html.div(
            {"class_name": "ad-review-body"},
            ad_card(
                headline=flight.headline,
                body=flight.body,
                link_url=flight.link_url,
                image_url=flight.image_url,
                advertiser=flight.advertiser_name,
            ),
            facts(
                ("Advertiser", UserText(flight.advertiser_name)),
                ("Link", html.code(flight.link_url)),
                ("Placements", ", ".join(flight.placements)),
                ("Days", f"{format_date(flight.starts_on)} to {format_date(flight.ends_on)}"),
                (
                    "Budget",
                    f"{format_currency(flight.spent_cents / 100)} spent of {format_currency(flight.budget_cents / 100)}",
                ),
                ("Billing", _billing(flight)),
                (
                    "Version",
                    f"Creative {flight.revision}"
                    + (" (edited: review again)" if flight.revision > 1 else ""),
                ),
                class_name="ad-facts",
            ),
        ),
        _screening(flight),
        hint("Reason given: ", UserText(flight.reason)) if flight.reason else "",
        button_row(*actions) if actions else "",
        title_id=title_id,
        class_name="ad-review-item",
        tag="li",
        heading="h3",
        head_class="ad-review-head",
        head=(Badge(flight.status.label, tone=TONES.get(flight.status.value, "neutral")),),
    )


def _billing(flight: FlightRead) -> str:
    terms = " (advertiser invoiced on terms)" if flight.invoiced_advertiser else ""
    if flight.billing == "card":
        if flight.paid_cents:
            refunded = (
                f", {format_currency(flight.refunded_cents / 100)} refunded" if flight.refunded_cents else ""
            )
            return f"Card: paid {format_currency(flight.paid_cents / 100)}{refunded}{terms}"
        return f"Card: awaiting payment{terms}"
    if flight.billing == "invoice":
        sent = f", invoice {flight.invoice_number}" if flight.invoice_number else ", not invoiced yet"
        return f"On terms{sent}{terms}"
    return f"Decided on approval{terms}"


def _screening(flight: FlightRead) -> VdomDict:
    if not flight.flags:
        return html.p(
            {"class_name": "ad-screening is-clear"},
            icon("check", size=16),
            "Screening found no health claims, drug names or missing disclaimer. A person still decides.",
        )
    return html.div(
        {"class_name": "ad-screening is-flagged", "role": "note"},
        html.p(
            icon("alert", size=16), html.strong("Screening flagged this creative — check before approving:")
        ),
        bullets(flight.flags),
    )


MOVE_WORDS = {
    "reject": ("Reject", "Rejecting…", "Why is it rejected? The advertiser reads this.", True),
    "paused": ("Pause", "Pausing…", "Why is it paused? (optional)", False),
    "ended": ("End", "Ending…", "Why is it ended? (optional)", False),
}


@component
def _Reason(flight: FlightRead, move: str, query: Query, on_close: Callable[[], None]) -> Any:
    session = use_session()
    form = use_form(reason="")
    problem, set_problem = use_state("")
    verb, pending_label, label, required = MOVE_WORDS[move]

    def done(_result: Any) -> None:
        session.toaster.success(f"{verb} done", flight.name)
        on_close()

    action = use_action(
        review_ad_flight if move == "reject" else set_ad_flight_status,
        refetch=[query],
        on_success=done,
        on_error=set_problem,
    )

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        reason = str(form.values.get("reason", ""))[: MAX_REASON * 2]
        if required and not reason.strip():
            set_problem("Say why, so the advertiser can put it right.")
            return
        if move == "reject":
            await action.run(flight_id=flight.id, approve=False, reason=reason)
        else:
            await action.run(flight_id=flight.id, status=move, reason=reason)

    return Dialog(
        f"{verb} “{flight.name}”",
        ServerForm(
            TextArea(
                label,
                "reason",
                form=form,
                id="ad-reason",
                rows=3,
                max_length=MAX_REASON,
                required=required,
                error=problem or None,
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button(verb, type="submit", pending=action.pending, pending_label=pending_label),
            ),
            on_submit=submit,
            id="ad-reason-form",
        ),
        open=True,
        on_close=on_close,
        id="ad-reason-dialog",
        busy=action.pending,
    )
