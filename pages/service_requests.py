"""Service Requests (/service-requests, issue 17): a signed-in patient asks for a visit the catalog or the
directory doesn't satisfy right now (a service, a place, a ZIP code, up to three preferred times, private
notes), follows it live (open → offered → booked, expired or cancelled) with the offers providers send, and
accepts one (booked through checkout's holds and order, so it shows in My Appointments) or cancels it.
Signed-out visitors read how it works and are sent to sign in to ask. The rules and their wording live in
app/services/service_requests.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote
from zoneinfo import ZoneInfo

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.booking import ADDRESSED
from app.services.cart import PLATFORM_FEE_PERCENT
from app.services.catalog import list_catalog
from app.services.service_requests import (
    SERVICE_REQUESTS_TOPIC,
    accept_offer,
    cancel_service_request,
    list_my_service_requests,
    post_service_request,
    reach_miles,
)
from components.context import use_session
from components.format import format_money, format_rating, format_slot, format_time
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    QueryView,
    Region,
    Select,
    ServerForm,
    TextArea,
    Tone,
    UserText,
    button_link,
    button_row,
    dialog_actions,
    feature_grid,
    field_group,
    form_error,
    hint,
    page_header,
    request_details,
    section,
    split,
    status_card,
    steps,
    titled_card,
)
from components.safety_ui import emergency_banner
from models.catalog import ServiceLocation
from models.service_request import (
    LIVE_REQUEST,
    MAX_NOTES,
    MAX_WINDOWS,
    OfferRead,
    OfferStatus,
    RequestStatus,
    ServiceRequestCreate,
    ServiceRequestRead,
    WindowInput,
)

PATH = "/service-requests"
SIGN_IN = f"/login?redirect={quote(PATH, safe='')}"
POSTED = "Request sent"
BOOKED = "Visit booked"

EXAMPLES = (
    (
        "stethoscope",
        "A specific skill",
        "For example catheter care, ostomy support or a particular injection.",
    ),
    ("map-pin", "A new area", "A service we list, but nobody bookable in your ZIP code right now."),
    ("clock", "A different time", "A visit at a time that is hard to book, such as early mornings."),
    ("users", "A group visit", "Care for several people at one address or at an event."),
)


def how_it_works() -> tuple[tuple[str, str], ...]:
    reach = f"{reach_miles():g}"
    return (
        (
            "You post a request",
            "Choose the service, where the visit happens, your ZIP code and up to three times.",
        ),
        (
            "Licensed providers offer",
            f"Verified providers who offer the service, work within {reach} miles of your ZIP code and hold a "
            "licence in your state see your request and send an offer: a price, a time and a short note.",
        ),
        ("You choose", "Accept the offer that suits you: the visit is booked and shows in My Appointments."),
    )


STATUS: dict[RequestStatus, tuple[str, Tone]] = {
    RequestStatus.open: ("Waiting for offers", "info"),
    RequestStatus.offered: ("Offers received", "warning"),
    RequestStatus.booked: ("Booked", "success"),
    RequestStatus.expired: ("Expired", "neutral"),
    RequestStatus.cancelled: ("Cancelled", "neutral"),
}
OFFER_STATUS: dict[OfferStatus, tuple[str, Tone]] = {
    OfferStatus.pending: ("Pending", "info"),
    OfferStatus.accepted: ("Accepted", "success"),
    OfferStatus.declined: ("Not chosen", "neutral"),
    OfferStatus.withdrawn: ("Withdrawn", "neutral"),
    OfferStatus.expired: ("Expired", "neutral"),
}


def request_badge(status: RequestStatus) -> VdomDict:
    text, tone = STATUS[status]
    return Badge(text, tone=tone)


def window_text(request: ServiceRequestRead, index: int) -> str:
    window = request.windows[index]
    return f"{format_slot(window.starts_at, request.time_zone)} – {format_time(window.ends_at, request.time_zone)}"


@component
def ServiceRequestsPage() -> VdomDict:
    session = use_session()
    header = page_header(
        "Request a service",
        "Need care you can't book right now? Post a request and licensed providers near you can offer a visit.",
        eyebrow="Service Requests",
    )
    if session.user is None:
        return html._(header, _Explanation())
    return html._(header, _SignedIn())


@component
def _SignedIn() -> VdomDict:
    mine = use_query(list_my_service_requests)
    known = {r.id for r in mine.data or ()}
    # Every request's changes share one topic: only this patient's requests reload the list.
    use_topic(SERVICE_REQUESTS_TOPIC, refetch=[mine], on_event=lambda e: e.get("request_id") in known)
    return section(
        html.p(
            {"class_name": "section-intro"},
            "Check ",
            html.a({"href": "/services"}, "our services"),
            " first: what you need may already be bookable. Service requests are not for urgent care; in "
            "an emergency, call 911.",
        ),
        html.div({"class_name": "requests-layout"}, _MyRequests(mine), _RequestForm(mine)),
    )


def _Explanation() -> VdomDict:  # noqa: N802 - static markup, named like the components
    return html._(
        section(
            feature_grid(EXAMPLES, columns=4),
            title="What you can ask for",
        ),
        section(
            split(
                steps(*how_it_works()),
                title="How it works",
                aside=titled_card(
                    "Ask for a visit",
                    html.p("Sign in to post a request and follow the offers you receive."),
                    actions=(
                        button_link("Sign in to request a service", SIGN_IN, icon_name="arrow-right"),
                        button_link("Create an account", "/sign-up", variant="outline"),
                    ),
                ),
            ),
            muted=True,
        ),
    )


def _service_options(categories: Any) -> list[Any]:
    return [(c.name, [(s.slug, s.name) for s in c.services]) for c in categories or () if c.services]


@component
def _RequestForm(mine: Any) -> VdomDict:
    session = use_session()
    catalog = use_query(list_catalog)
    blank = {f"{part}_{n}": "" for n in range(1, MAX_WINDOWS + 1) for part in ("day", "start", "end")}
    form = use_form(draft="service-request:new", service="", location="home", zip_code="", notes="", **blank)
    problem, set_problem = use_state("")
    safety, set_safety = use_state("")  # the 911 / 988 message when the notes just posted have a red flag
    post = use_action(post_service_request, refetch=[mine], on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = {k: str(v or "") for k, v in form.values.items()}
        request = ServiceRequestCreate(
            service_slug=values.get("service", ""),
            location=values.get("location", ""),
            zip_code=values.get("zip_code", ""),
            windows=[
                WindowInput(
                    day=values.get(f"day_{n}", ""),
                    start=values.get(f"start_{n}", ""),
                    end=values.get(f"end_{n}", ""),
                )
                for n in range(1, MAX_WINDOWS + 1)
            ],
            notes=values.get("notes", ""),
        )
        set_problem("")
        done = await post.run(request=request)
        if done is not None:
            set_safety(done.safety_message)
            form.reset(service="", location="home", zip_code="", notes="", **blank)
            session.toaster.success(POSTED, "Providers who can take it will see it now.")

    today = datetime.now(ZoneInfo(session.time_zone)).date().isoformat()

    def window_row(n: int) -> VdomDict:
        return field_group(
            f"Preferred time {n}" + ("" if n == 1 else " (optional)"),
            Field(
                "Date",
                f"day_{n}",
                form=form,
                type="date",
                id=f"request-day-{n}",
                required=n == 1,
                max_length=None,
                min=today,
            ),
            Field(
                "From",
                f"start_{n}",
                form=form,
                type="time",
                id=f"request-start-{n}",
                required=n == 1,
                max_length=None,
            ),
            Field(
                "To",
                f"end_{n}",
                form=form,
                type="time",
                id=f"request-end-{n}",
                required=n == 1,
                max_length=None,
            ),
            class_name="request-window",
            key=f"window-{n}",
        )

    return Region(
        "New request",
        emergency_banner(safety) if safety else "",
        ServerForm(
            Select(
                "Service",
                "service",
                form=form,
                id="request-service",
                options=_service_options(catalog.data),
                placeholder="Choose a service",
                required=True,
            ),
            html.div(
                {"class_name": "request-pair"},
                Select(
                    "Place of visit",
                    "location",
                    form=form,
                    id="request-location",
                    options=[(place.value, place.label) for place in ServiceLocation],
                    required=True,
                ),
                Field(
                    "ZIP code",
                    "zip_code",
                    form=form,
                    id="request-zip",
                    input_mode="numeric",
                    autocomplete="postal-code",
                    max_length=5,
                    required=True,
                    hint="Where the visit would happen.",
                ),
            ),
            hint("Times are local to the ZIP code. Each must be long enough for the visit."),
            *(window_row(n) for n in range(1, MAX_WINDOWS + 1)),
            TextArea(
                "Notes for the provider you choose",
                "notes",
                form=form,
                id="request-notes",
                rows=4,
                max_length=MAX_NOTES,
                hint=(
                    f"Optional, up to {MAX_NOTES} characters. Only you, the provider whose offer you accept and "
                    "our care team can read them. Please don't include test results."
                ),
            ),
            html.p({"class_name": "form-error", "role": "alert", "id": "request-problem"}, problem)
            if problem
            else "",
            dialog_actions(
                Button("Send request", type="submit", pending=post.pending, pending_label="Sending…")
            ),
            on_submit=submit,
            key=str(form.version),
            class_name="request-form",
        ),
        title_id="request-form-title",
        class_name="card request-form-card",
        title_class="card-title",
    )


@component
def _MyRequests(mine: Any) -> VdomDict:
    return Region(
        "Your requests",
        QueryView(
            mine,
            lambda rows: html.ul(
                {"class_name": "request-cards"}, *(_RequestCard(r, mine.refetch, key=r.id) for r in rows)
            ),
            empty="You haven't asked for a service yet. Your requests and their offers will appear here.",
            loading_label="Loading your requests…",
        ),
        title_id="my-requests-title",
        class_name="request-list",
        title_class="section-title",
    )


@component
def _RequestCard(request: ServiceRequestRead, refetch: Any) -> VdomDict:
    session = use_session()
    accepting, set_accepting = use_state(None)
    confirming, set_confirming = use_state(False)
    cancel = use_action(cancel_service_request, on_success=lambda _r: refetch())
    live = request.status in LIVE_REQUEST
    title_id = f"request-{request.id}-title"

    async def do_cancel() -> None:
        if await cancel.run(request_id=request.id) is not None:
            set_confirming(False)
            session.toaster.success("Request cancelled")

    offers = [o for o in request.offers if o.status != OfferStatus.withdrawn]
    return status_card(
        request.service_name,
        request_badge(request.status),
        *request_details(
            f"{request.location.label} visit · ZIP {request.zip_code} ({request.area})",
            windows=[window_text(request, i) for i in range(len(request.windows))],
            notes=request.notes,
        ),
        hint(f"Open for offers until {format_slot(request.expires_at, request.time_zone)}.") if live else "",
        html.p(
            {"class_name": "request-booked"},
            f"Booked: order {request.order_number}. ",
            html.a({"href": "/appointments"}, "See it in My Appointments"),
        )
        if request.status == RequestStatus.booked and request.order_number
        else "",
        html.div(
            {"class_name": "request-offers"},
            html.h4(f"Offers ({len(offers)})"),
            html.ul(
                {"class_name": "request-offer-list"},
                *(_offer_item(request, o, live, set_accepting) for o in offers),
            )
            if offers
            else hint("No offers yet. We'll notify you when a provider sends one."),
        )
        if live or offers
        else "",
        button_row(
            Button("Cancel request", on_click=lambda: set_confirming(True), variant="outline", size="sm")
        )
        if live
        else "",
        Dialog(
            "Cancel this request?",
            dialog_actions(
                Button("Keep it", on_click=lambda: set_confirming(False), variant="ghost"),
                Button(
                    "Cancel request", on_click=do_cancel, pending=cancel.pending, pending_label="Cancelling…"
                ),
            ),
            open=confirming and live,
            on_close=lambda: set_confirming(False),
            id=f"cancel-{request.id}",
            busy=cancel.pending,
            description="Providers can no longer offer on it, and any offers you have are declined.",
        ),
        _AcceptDialog(request, accepting, lambda: set_accepting(None), refetch) if accepting else "",
        title_id=title_id,
    )


def _offer_item(request: ServiceRequestRead, offer: OfferRead, live: bool, choose: Any) -> VdomDict:
    label, tone = OFFER_STATUS[offer.status]
    reviews = (
        f"rated {format_rating(offer.provider_rating)} from {offer.provider_reviews} reviews"
        if offer.provider_reviews
        else "new on MediVisit"
    )
    return html.li(
        {"class_name": "request-offer", "key": offer.id},
        html.div(
            {"class_name": "request-offer-main"},
            html.p(html.strong(offer.provider_name), " · ", reviews),
            html.p(
                {"class_name": "request-offer-terms"},
                html.strong(format_money(offer.price)),
                f" · {format_slot(offer.starts_at, request.time_zone)}",
            ),
            html.p({"class_name": "request-offer-message"}, UserText(offer.message)) if offer.message else "",
        ),
        html.div(
            {"class_name": "request-offer-side"},
            Badge(label, tone=tone),
            Button(
                "Accept",
                on_click=lambda: choose(offer.id),
                size="sm",
                aria_label=f"Accept {offer.provider_name}'s offer",
            )
            if live and offer.status == OfferStatus.pending
            else "",
        ),
    )


@component
def _AcceptDialog(request: ServiceRequestRead, offer_id: str, close: Any, refetch: Any) -> Any:
    session = use_session()
    form = use_form(address_line="", city="", state="")
    problem, set_problem = use_state("")
    accept = use_action(accept_offer, on_error=set_problem)
    offer = next((o for o in request.offers if o.id == offer_id), None)
    if offer is None:
        return ""
    addressed = request.location in ADDRESSED

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        values = {k: str(v or "") for k, v in form.values.items()}
        done = await accept.run(offer_id=offer.id, visitor_id=session.visitor_id, **values)
        if done is None:
            return
        close()
        refetch()
        paying = bool(done.payment_url)
        session.toaster.show(
            BOOKED,
            description="Finish paying to confirm it." if paying else f"Order {done.order_number}.",
            variant="success",
            action_label="Pay now" if paying else "My Appointments",
            action_href=done.payment_url or "/appointments",
        )

    return Dialog(
        "Book this visit",
        ServerForm(
            *(
                (
                    Field(
                        "Street address",
                        "address_line",
                        form=form,
                        id="accept-street",
                        autocomplete="street-address",
                        required=True,
                    ),
                    html.div(
                        {"class_name": "request-pair"},
                        Field(
                            "City",
                            "city",
                            form=form,
                            id="accept-city",
                            autocomplete="address-level2",
                            required=True,
                            max_length=100,
                        ),
                        Field(
                            "State",
                            "state",
                            form=form,
                            id="accept-state",
                            autocomplete="address-level1",
                            required=True,
                            max_length=2,
                        ),
                    ),
                )
                if addressed
                else ()
            ),
            form_error(problem),
            dialog_actions(
                Button("Back", on_click=close, variant="ghost"),
                Button("Book visit", type="submit", pending=accept.pending, pending_label="Booking…"),
            ),
            on_submit=submit,
        ),
        open=True,
        on_close=close,
        id="accept-offer",
        busy=accept.pending,
        description=(
            f"{offer.provider_name}, {format_slot(offer.starts_at, request.time_zone)}: "
            f"{format_money(offer.price)} (or the provider's own listed price, if that is lower) plus the "
            f"{PLATFORM_FEE_PERCENT}% platform fee, paid like any booking. The other offers close once you book."
        ),
    )
