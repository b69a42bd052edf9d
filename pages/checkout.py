"""Checkout (/checkout): the cart becomes booked visits.

One visit per unit of each cart item. For each, the patient picks where it happens, a day, a provider (or
"First available") and one of the open times, which holds that time for them for 10 minutes
(app/services/booking.hold_slot). The shared visit address and each visit's intake notes are typed into
uncontrolled inputs (no render per keystroke). Place order books every held time as one order, paid at the
visit (app/services/booking.place_order); every price and total shown comes from the server.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, html, use_ref, use_state

from app.services.booking import HOLD_MINUTES, CheckoutLine, checkout_options, hold_slot, place_order
from app.services.cart import visit_totals
from app.services.catalog import list_catalog
from components.cart import use_cart
from components.context import CurrentUser, use_session
from components.format import format_currency, format_date, format_minutes, format_slot, format_time
from components.guards import Denial, guarded
from components.hooks import use_action, use_query
from components.icons import icon
from components.provider_ui import profile_href, rating_line
from components.ui import button_link, page_header, page_title
from models.booking import AppointmentRead, OrderRead
from models.cart import CartItemRead
from models.catalog import ServiceLocation, ServiceRead

PATH = "/checkout"
LOGIN = f"/login?redirect={PATH}"
SIGN_IN_MESSAGE = "Please sign in to book your visits"
DAYS_SHOWN = 14
FIRST_AVAILABLE = ""  # the provider choice that lets the server pick
IN_PERSON = (ServiceLocation.home, ServiceLocation.office, ServiceLocation.corporate_venue)

Holds = dict[str, AppointmentRead]


def checkout_rule(user: CurrentUser | None) -> Denial | None:
    """Booking needs an account (the cart is kept while the visitor signs in)."""
    return Denial(LOGIN, SIGN_IN_MESSAGE) if user is None else None


@component
def CheckoutPage() -> dict:
    return guarded(checkout_rule, _CheckoutView)


@component
def _CheckoutView() -> dict:
    cart = use_cart().cart
    catalog = use_query(list_catalog)
    placed, set_placed = use_state(None)
    if placed is not None:
        return _Confirmation(placed)
    if cart is None or catalog.data is None:
        return html._(
            page_title("Checkout"),
            _header(),
            html.p({"class_name": "container", "role": "status"}, "Loading…"),
        )
    if not cart.items:
        return html._(page_title("Checkout"), _header(), _empty())
    services = {service.slug: service for category in catalog.data for service in category.services}
    items = [item for item in cart.items if item.service_slug in services]
    return html._(page_title("Checkout"), _header(), _Booking(items, services, set_placed))


def _header() -> dict:
    return page_header(
        "Checkout",
        f"Choose a time for each visit: we hold it for you for {HOLD_MINUTES} minutes while you finish. "
        "You pay at the visit.",
        eyebrow="Book your visits",
    )


def _empty() -> dict:
    return html.section(
        {"class_name": "section"},
        html.div(
            {"class_name": "container empty-state"},
            html.span({"class_name": "empty-icon"}, icon("cart", size=28)),
            html.p({"class_name": "empty-title"}, "Your cart is empty"),
            html.p("Add a service to book a visit at your home or office."),
            button_link("Browse services", "/services"),
        ),
    )


@component
def _Booking(items: list[CartItemRead], services: dict[str, ServiceRead], on_placed: Any) -> dict:
    session = use_session()
    address = use_ref({"address_line": "", "city": "", "state": "", "zip_code": ""})
    notes = use_ref({})
    zip_code, set_zip = use_state("")
    holds, set_holds = use_state({})
    order = use_action(place_order, on_success=on_placed)
    visits = [(f"{item.id}#{n}", item) for item in items for n in range(item.quantity)]

    def on_hold(key: str, hold: AppointmentRead | None) -> None:
        set_holds(
            lambda current: {k: v for k, v in current.items() if k != key} | ({key: hold} if hold else {})
        )

    def zip_changed(event: dict) -> None:
        value = event["target"]["value"].strip()
        address.current["zip_code"] = value
        typed = value if len(value) == 5 and value.isdigit() else ""
        if typed != zip_code:
            set_zip(typed)

    async def submit(_event: dict) -> None:
        lines = [
            CheckoutLine(
                hold_id=holds[key].id,
                cart_item_id=item.id,
                location=holds[key].location,
                notes=notes.current.get(key, ""),
                **(address.current if holds[key].location in IN_PERSON else {}),
            )
            for key, item in visits
            if key in holds
        ]
        await order.run(actor=session.actor, lines=lines, visitor_id=session.visitor_id)

    return html.section(
        {"class_name": "section checkout"},
        html.div(
            {"class_name": "container checkout-grid"},
            html.div(
                {"class_name": "checkout-main"},
                _AddressCard(address.current, zip_changed),
                *[
                    _VisitLine(
                        key,
                        index + 1,
                        item,
                        services[item.service_slug],
                        zip_code,
                        holds.get(key),
                        on_hold,
                        notes.current,
                        key=key,
                    )
                    for index, (key, item) in enumerate(visits)
                ],
            ),
            _Summary(visits, holds, order.pending, submit),
        ),
    )


@component
def _AddressCard(values: dict[str, str], zip_changed: Any) -> dict:
    def keep(name: str) -> Any:
        def on_change(event: dict) -> None:
            values[name] = event["target"]["value"]

        return on_change

    def field(name: str, label: str, **attributes: Any) -> dict:
        return html.div(
            {"class_name": f"field field-{name}"},
            html.label({"html_for": f"checkout-{name}"}, label),
            html.input(
                {
                    "id": f"checkout-{name}",
                    "name": name,
                    "defaultValue": values.get(name, ""),
                    "on_change": zip_changed if name == "zip_code" else keep(name),
                    **attributes,
                }
            ),
        )

    return html.div(
        {"class_name": "checkout-card form", "aria-labelledby": "checkout-address-title"},
        html.h2(
            {"id": "checkout-address-title", "class_name": "checkout-card-title"},
            icon("home", size=20),
            "Where we'll meet you",
        ),
        html.p(
            {"class_name": "hint"},
            "For visits at home, at the office or at a corporate venue. Enter the ZIP code first: we show the "
            "providers who travel there.",
        ),
        html.div(
            {"class_name": "checkout-address"},
            field(
                "zip_code",
                "ZIP code",
                inputMode="numeric",
                autoComplete="postal-code",
                maxLength=5,
                placeholder="10001",
            ),
            field("address_line", "Street address", autoComplete="street-address", maxLength=200),
            field("city", "City", autoComplete="address-level2", maxLength=100),
            field("state", "State", autoComplete="address-level1", maxLength=2, placeholder="NY"),
        ),
    )


def _day_choices(time_zone: str) -> list[date]:
    today = datetime.now(ZoneInfo(time_zone)).date()
    return [today + timedelta(days=n) for n in range(DAYS_SHOWN)]


def _day_label(day: date, today: date) -> str:
    if day == today:
        return "Today"
    if day == today + timedelta(days=1):
        return "Tomorrow"
    return f"{day:%a} {day.day}"


@component
def _VisitLine(
    line_key: str,
    number: int,
    item: CartItemRead,
    service: ServiceRead,
    zip_code: str,
    hold: AppointmentRead | None,
    on_hold: Any,
    notes: dict[str, str],
) -> dict:
    session = use_session()
    time_zone = session.time_zone
    days = _day_choices(time_zone)
    default_place = next((p for p in service.locations if p == ServiceLocation.home), service.locations[0])
    place, set_place = use_state(hold.location if hold else default_place)
    day, set_day = use_state(days[0])
    provider, set_provider = use_state(item.provider_id or FIRST_AVAILABLE)
    needs_zip = place != ServiceLocation.virtual
    options = use_query(
        _options_or_none,
        service_slug=service.slug,
        zip_code=zip_code if needs_zip else "",
        location=place,
        day=day,
        time_zone=time_zone,
        wanted=not needs_zip or bool(zip_code),
    )
    holding = use_action(
        hold_slot, on_success=lambda result: on_hold(line_key, result), on_error=_refetching(session, options)
    )
    title_id = f"visit-{number}-title"

    async def take(moment: datetime) -> None:
        await holding.run(
            actor=session.actor,
            service_slug=service.slug,
            provider_id=provider or None,
            starts_at=moment,
            zip_code=zip_code,
            location=place,
            replaces=hold.id if hold else None,
        )

    def choose_place(event: dict) -> None:
        set_place(ServiceLocation(event["target"]["value"]))

    def choose_provider(event: dict) -> None:
        set_provider(event["target"]["value"])

    def keep_notes(event: dict) -> None:
        notes[line_key] = event["target"]["value"]

    data = options.data
    listed = data.providers if data else []
    if provider:
        chosen = next((p for p in listed if p.provider_id == provider), None)
        times = chosen.times if chosen else []
    else:
        times = data.first_available if data else []

    return html.article(
        {
            "class_name": "checkout-card visit-line" + (" is-held" if hold else ""),
            "aria-labelledby": title_id,
        },
        html.header(
            {"class_name": "visit-line-header"},
            html.span({"class_name": "visit-line-number"}, str(number)),
            html.div(
                html.h2({"id": title_id, "class_name": "checkout-card-title"}, service.name),
                html.p({"class_name": "hint"}, f"{format_minutes(service.duration_minutes)} visit"),
            ),
            _held_badge(hold, time_zone),
        ),
        html.p({"class_name": "visit-prep"}, icon("alert", size=16), service.preparation)
        if service.preparation
        else "",
        html.div(
            {"class_name": "visit-choices"},
            html.div(
                {"class_name": "field"},
                html.label({"html_for": f"{line_key}-place"}, "Place of visit"),
                html.select(
                    {"id": f"{line_key}-place", "value": place.value, "on_change": choose_place},
                    *[html.option({"value": p.value, "key": p.value}, p.label) for p in service.locations],
                ),
            ),
            html.div(
                {"class_name": "field"},
                html.label({"html_for": f"{line_key}-provider"}, "Provider"),
                html.select(
                    {"id": f"{line_key}-provider", "value": provider, "on_change": choose_provider},
                    html.option({"value": FIRST_AVAILABLE, "key": "first"}, "First available"),
                    *[
                        html.option(
                            {"value": p.provider_id, "key": p.provider_id},
                            f"{p.name} · {format_currency(p.price.charge)}",
                        )
                        for p in listed
                    ],
                    *(
                        [
                            html.option(
                                {"value": provider, "key": provider}, item.provider_name or "Chosen provider"
                            )
                        ]
                        if provider and not any(p.provider_id == provider for p in listed)
                        else []
                    ),
                ),
            ),
        ),
        html.div(
            {"class_name": "day-picker", "role": "group", "aria-label": f"Day for {service.name}"},
            *[
                html.button(
                    {
                        "type": "button",
                        "key": d.isoformat(),
                        "class_name": "day-chip" + (" is-selected" if d == day else ""),
                        "aria-pressed": "true" if d == day else "false",
                        "on_click": lambda _e, d=d: set_day(d),
                    },
                    _day_label(d, days[0]),
                )
                for d in days
            ],
        ),
        _times(
            line_key,
            service.name,
            options,
            needs_zip and not zip_code,
            times,
            hold,
            holding.pending,
            take,
            time_zone,
        ),
        _chosen_provider(listed, provider),
        html.div(
            {"class_name": "field"},
            html.label({"html_for": f"{line_key}-notes"}, "Intake notes (optional)"),
            html.textarea(
                {
                    "id": f"{line_key}-notes",
                    "rows": 2,
                    "maxLength": 2000,
                    "defaultValue": notes.get(line_key, ""),
                    "on_change": keep_notes,
                    "placeholder": "Symptoms, allergies, access instructions, anything your provider should know.",
                }
            ),
        ),
    )


async def _options_or_none(*, session: Any, wanted: bool, **kwargs: Any) -> Any:
    """checkout_options once the visit can be placed (a ZIP code for in-person visits), else None."""
    return await checkout_options(session=session, **kwargs) if wanted else None


def _refetching(session: Any, options: Any) -> Any:
    """A failed hold shows its message and refreshes the times (someone else may have taken one)."""

    def failed(message: str) -> None:
        session.toaster.error(message)
        options.refetch()

    return failed


def _held_badge(hold: AppointmentRead | None, time_zone: str) -> Any:
    if hold is None:
        return html.span({"class_name": "visit-status"}, "Choose a time")
    until = format_time(hold.hold_expires_at, time_zone) if hold.hold_expires_at else ""
    return html.span(
        {"class_name": "visit-status is-held", "role": "status"},
        icon("check", size=16),
        f"Held until {until}" if until else "Held",
    )


def _times(
    key: str,
    service_name: str,
    options: Any,
    waiting_for_zip: bool,
    times: list[datetime],
    hold: AppointmentRead | None,
    busy: bool,
    take: Any,
    time_zone: str,
) -> dict:
    if waiting_for_zip:
        return html.p({"class_name": "times-note"}, "Enter your ZIP code above to see open times.")
    if options.error:
        return html.p({"class_name": "times-note is-error", "role": "alert"}, options.error)
    if options.data is None:
        return html.p({"class_name": "times-note", "role": "status"}, "Finding open times…")
    if not times:
        return html.p({"class_name": "times-note"}, "No open times on this day. Try another day or provider.")
    held_at = hold.starts_at if hold else None
    return html.div(
        {"class_name": "time-grid", "role": "group", "aria-label": f"Open times for {service_name}"},
        *[
            html.button(
                {
                    "type": "button",
                    "key": f"{key}-{moment.isoformat()}",
                    "class_name": "time-chip" + (" is-selected" if moment == held_at else ""),
                    "aria-pressed": "true" if moment == held_at else "false",
                    "disabled": busy,
                    "on_click": lambda _e, moment=moment: take(moment),
                },
                format_time(moment, time_zone),
            )
            for moment in times
        ],
    )


def _chosen_provider(listed: list[Any], provider: str) -> Any:
    chosen = next((p for p in listed if p.provider_id == provider), None)
    if chosen is None:
        return ""
    return html.div(
        {"class_name": "visit-provider"},
        html.a({"href": profile_href(chosen.provider_id)}, chosen.name),
        rating_line(chosen.rating),
    )


@component
def _Summary(visits: list[tuple[str, CartItemRead]], holds: Holds, placing: bool, submit: Any) -> dict:
    session = use_session()
    held = [holds[key] for key, _item in visits if key in holds]
    totals = visit_totals([hold.price for hold in held])
    missing = len(visits) - len(held)
    return html.aside(
        {"class_name": "checkout-summary", "aria-labelledby": "summary-title"},
        html.h2({"id": "summary-title", "class_name": "checkout-card-title"}, "Order summary"),
        html.ul(
            {"class_name": "summary-lines"},
            *[
                html.li(
                    {"key": key},
                    html.div(
                        html.strong(item.name),
                        html.span(
                            {"class_name": "hint"},
                            f"{holds[key].provider_name} · {format_slot(holds[key].starts_at, session.time_zone)}"
                            if key in holds
                            else "Choose a time",
                        ),
                    ),
                    html.span(format_currency(holds[key].price))
                    if key in holds
                    else html.span({"class_name": "hint"}, "—"),
                )
                for key, item in visits
            ],
        ),
        html.dl(
            {"class_name": "summary-totals"},
            html.div(html.dt("Subtotal"), html.dd(format_currency(totals.subtotal))),
            html.div(html.dt("Platform fee (5%)"), html.dd(format_currency(totals.platform_fee))),
            html.div(
                {"class_name": "summary-total"}, html.dt("Total"), html.dd(format_currency(totals.total))
            ),
        ),
        html.p(
            {"class_name": "summary-pay"},
            icon("shield", size=16),
            "Pay at your visit. Nothing is charged now.",
        ),
        html.p(
            {"class_name": "hint"},
            f"{missing} visit{'s' if missing != 1 else ''} still need{'s' if missing == 1 else ''} a time; only visits with a time are booked.",
        )
        if missing and held
        else "",
        html.button(
            {
                "class_name": "btn btn-primary btn-block",
                "type": "button",
                "disabled": placing or not held,
                "on_click": submit,
            },
            "Placing order…"
            if placing
            else f"Place order · {format_currency(totals.total)}"
            if held
            else "Place order",
        ),
    )


@component
def _Confirmation(order: OrderRead) -> dict:
    session = use_session()
    return html._(
        page_title("Booking confirmed"),
        page_header(
            "You're booked!",
            f"Order {order.number}. We've e-mailed your confirmation; your providers confirm each visit.",
            eyebrow="Booking confirmed",
        ),
        html.section(
            {"class_name": "section"},
            html.div(
                {"class_name": "container checkout-done"},
                html.ul(
                    {"class_name": "summary-lines"},
                    *[
                        html.li(
                            {"key": visit.id},
                            html.div(
                                html.strong(visit.service_name),
                                html.span(
                                    {"class_name": "hint"},
                                    f"{visit.provider_name} · {format_slot(visit.starts_at, session.time_zone)}",
                                ),
                            ),
                            html.span({"class_name": "status-pill"}, visit.status.label),
                        )
                        for visit in order.appointments
                    ],
                ),
                html.dl(
                    {"class_name": "summary-totals"},
                    html.div(html.dt("Subtotal"), html.dd(format_currency(order.subtotal))),
                    html.div(html.dt("Platform fee (5%)"), html.dd(format_currency(order.platform_fee))),
                    html.div(
                        {"class_name": "summary-total"},
                        html.dt("Total, paid at the visit"),
                        html.dd(format_currency(order.total)),
                    ),
                ),
                html.p({"class_name": "hint"}, f"Booked {format_date(order.created_at)}."),
                html.div(
                    {"class_name": "button-row"},
                    button_link("View My Appointments", "/appointments", icon_name="calendar"),
                    button_link("Browse more services", "/services", variant="outline"),
                ),
            ),
        ),
    )
