"""Marketplace (/dashboard/marketplace, issue 17): the providers' job board. A listed provider sees the live
service requests they are eligible for (a service they offer at that place, a ZIP code within reach of
their service area, a licence of its state), newest first, updated live as patients post them, and sends one offer per
request: a start time open in their calendar inside one of the patient's preferred times, a price within
the catalog bounds and a short message. Patients' notes are never shown here. The rules and their wording
live in app/services/service_requests.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.service_requests import (
    SERVICE_REQUESTS_TOPIC,
    list_job_board,
    list_offer_times,
    price_bounds,
    reach_miles,
    send_offer,
)
from components.context import use_session
from components.format import format_money, format_slot, format_time
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    QueryView,
    Select,
    ServerForm,
    StaffCard,
    TextArea,
    Tone,
    button_row,
    dashboard_header,
    dialog_actions,
    form_error,
    hint,
    loading_state,
    portal_body,
    portal_page,
    request_details,
    status_card,
)
from models.service_request import MAX_MESSAGE, OfferStatus, ServiceRequestRead

OFFER_SENT = "Offer sent"
BAD_PRICE = "Enter the price in dollars, e.g. 95 or 95.50."
NO_TIMES = (
    "You have no open time inside these preferred times. Add weekly hours under Services, or free up your "
    "calendar, to offer on this request."
)
MY_OFFER: dict[OfferStatus, tuple[str, Tone]] = {
    OfferStatus.pending: ("Offer sent", "info"),
    OfferStatus.accepted: ("Accepted", "success"),
    OfferStatus.declined: ("Not chosen", "neutral"),
    OfferStatus.withdrawn: ("Withdrawn", "neutral"),
    OfferStatus.expired: ("Expired", "neutral"),
}


def offer_badge(status: OfferStatus) -> VdomDict:
    text, tone = MY_OFFER[status]
    return Badge(text, tone=tone)


def parse_price(text: str) -> Decimal | None:
    cleaned = (text or "").strip().replace(",", "").removeprefix("$").strip()[:12]
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


@component
def MarketplacePage() -> VdomDict:
    board = use_query(list_job_board)
    use_topic(SERVICE_REQUESTS_TOPIC, refetch=[board])
    offering, set_offering = use_state(None)
    chosen = next((r for r in board.data or () if r.id == offering), None)
    return portal_page(
        dashboard_header(
            "Marketplace",
            lead=f"Service requests from patients within {reach_miles():g} miles of your service area, newest "
            "first. New ones appear here as they're posted.",
        ),
        portal_body(
            StaffCard(
                "Open requests",
                QueryView(
                    board,
                    lambda rows: html.ul(
                        {"class_name": "request-cards board-cards", "aria-live": "polite"},
                        *(_board_card(r, set_offering) for r in rows),
                    ),
                    empty="No open requests in your area right now. New ones appear here as patients post them.",
                    loading_label="Loading open requests…",
                ),
                title_id="board-title",
                head=(
                    html.a(
                        {"href": "/dashboard/jobs", "class_name": "staff-card-link"}, "My offers and jobs"
                    ),
                ),
            ),
            _OfferDialog(chosen, lambda: set_offering(None), board.refetch, key=chosen.id) if chosen else "",
        ),
    )


def _windows(request: ServiceRequestRead) -> list[str]:
    return [
        f"{format_slot(w.starts_at, request.time_zone)} – {format_time(w.ends_at, request.time_zone)}"
        for w in request.windows
    ]


def _distance(miles: float | None) -> str:
    if miles is None:
        return ""
    return (
        " · under a mile from the centre of your area"
        if miles < 1
        else f" · {miles:.0f} mi from the centre of your area"
    )


def _board_card(request: ServiceRequestRead, offer_on: Any) -> VdomDict:
    title_id = f"board-{request.id}-title"
    low, high = price_bounds(request.catalog_price)
    mine = request.my_offer
    return status_card(
        request.service_name,
        Badge(*MY_OFFER[mine.status][:1], tone=MY_OFFER[mine.status][1])
        if mine
        else Badge("New", tone="info"),
        *request_details(
            f"{request.location.label} visit · ZIP {request.zip_code} ({request.area}) · "
            f"{request.duration_minutes} min" + _distance(request.distance_miles),
            windows=_windows(request),
        ),
        hint(
            f"Catalog price {format_money(request.catalog_price)}; offers from {format_money(low)} to "
            f"{format_money(high)}. Posted {format_slot(request.created_at, request.time_zone)}."
        ),
        html.p(
            {"class_name": "request-offer-terms"},
            f"Your offer: {format_money(mine.price)}, {format_slot(mine.starts_at, request.time_zone)}.",
        )
        if mine
        else button_row(
            Button(
                "Send an offer",
                on_click=lambda: offer_on(request.id),
                size="sm",
                aria_label=f"Send an offer for {request.service_name} in {request.zip_code}",
            )
        ),
        title_id=title_id,
        key=request.id,
    )


@component
def _OfferDialog(request: ServiceRequestRead, close: Any, refetch: Any) -> Any:
    session = use_session()
    times = use_query(list_offer_times, request_id=request.id)
    form = use_form(starts_at="", price=str(request.catalog_price), message="")
    problem, set_problem = use_state("")
    send = use_action(send_offer, on_error=set_problem)
    low, high = price_bounds(request.catalog_price)
    options = [(t.isoformat(), format_slot(t, request.time_zone)) for t in times.data or ()]

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        price = parse_price(str(form.values.get("price", "")))
        chosen = str(form.values.get("starts_at") or (options[0][0] if options else ""))
        if price is None:
            set_problem(BAD_PRICE)
            return
        start = next((t for t in times.data or () if t.isoformat() == chosen), None)
        set_problem("")
        done = await send.run(
            request_id=request.id,
            price=price,
            starts_at=start,
            message=str(form.values.get("message", "")),
        )
        if done is not None:
            close()
            refetch()
            session.toaster.success(OFFER_SENT, "The patient is notified and can accept it.")

    def fields(_data: Any) -> VdomDict:
        return ServerForm(
            Select("Start time", "starts_at", form=form, id="offer-start", options=options, required=True),
            Field(
                "Price (USD)",
                "price",
                form=form,
                id="offer-price",
                input_mode="decimal",
                max_length=12,
                required=True,
                hint=f"Between {format_money(low)} and {format_money(high)}. If your own listed price for this "
                "service is lower when the patient books, they pay that.",
            ),
            TextArea(
                "Message to the patient",
                "message",
                form=form,
                id="request-offer-message",
                rows=3,
                max_length=MAX_MESSAGE,
                hint=f"Optional, up to {MAX_MESSAGE} characters.",
            ),
            form_error(problem),
            dialog_actions(
                Button("Cancel", on_click=close, variant="ghost"),
                Button("Send offer", type="submit", pending=send.pending, pending_label="Sending…"),
            ),
            on_submit=submit,
        )

    return Dialog(
        f"Offer: {request.service_name}",
        loading_state("Checking your calendar…")
        if times.data is None and times.loading
        else QueryView(times, fields, empty=html.p({"class_name": "notice"}, NO_TIMES)),
        open=True,
        on_close=close,
        id="send-offer",
        busy=send.pending,
        description=f"ZIP {request.zip_code} ({request.area}). One offer per request; you can withdraw it under Jobs.",
    )
