"""Checkout (/checkout): the cart becomes booked visits.

One visit per unit of each cart item. For each, the patient picks where it happens, a day, a provider (or
"First available") and one of the open times, which holds that time for them for 10 minutes
(app/services/booking.hold_slot); choosing another time replaces the hold. The shared visit address and
each visit's intake notes are typed into uncontrolled inputs (no render per keystroke). Place order books
every held time as one order (app/services/booking.place_order), paid the way the patient chose among the
modes the owners allow (business setting "Payment modes at checkout", `get_checkout_money`): "Pay by card"
(recommended, with the card gateway PAYMENT_GATEWAY=stripe) sends the browser to Stripe's page, which brings
it back to the order's page; "Pay at the visit" charges nothing now. With one mode allowed, the summary just
says how payment is taken. A patient with wallet credit may tick "Use my wallet credit ($X.XX available)":
the summary then shows the credit and what is left to pay (credit covering everything needs no card).
A cart with visits and store products is one checkout (issue 29 item 4): a shipping address below the
visits, the products in the summary, and one Place order (app/services/checkout.place_checkout): one order,
one payment, its confirmation listing both. A cart of products only is the store's checkout
(components/store_checkout.py). Every price and total shown comes from the server. Place order with something missing (no time chosen, an address field empty or
malformed) books nothing: an error summary at the top ("There is a problem", GOV.UK's pattern) takes the
focus and links each error to its field, which shows its message beside it; what was typed and held stays.
The confirmation says 'Booking confirmed' only when every visit of the order is
confirmed; while a provider has yet to confirm, it says the visits are requested (`confirmation_copy`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import Ref, component, html, use_ref, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import navigate

from app.services.appointments import checkout_rule
from app.services.booking import (
    ADDRESSED,
    HOLD_MINUTES,
    CheckoutLine,
    address_problems,
    checkout_open_days,
    checkout_options,
    credit_to_apply,
    get_checkout_money,
    hold_slot,
    list_my_holds,
    place_order,
)
from app.services.cart import visit_totals
from app.services.catalog import list_catalog
from app.services.checkout import place_checkout
from app.services.errors import ValidationFailed
from app.services.store import shipping_problems
from app.services.validation import us_zip
from components.cart import ESTIMATE_NOTE, use_cart
from components.context import use_session
from components.effects import use_effect
from components.format import format_currency, format_date, format_minutes, format_money, format_time
from components.forms import Form, use_form
from components.hooks import Query, use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Checkbox,
    ErrorLine,
    ErrorSummary,
    Field,
    Region,
    Select,
    TextArea,
    band,
    button_link,
    empty_state,
    error_state,
    field_group,
    hint,
    loading_state,
    page_header,
    page_title,
    toggle_chip,
)
from components.order_ui import visit_price, visit_when
from components.provider_ui import profile_href, rating_line
from components.store_checkout import (
    ShippingFields,
    StoreCheckout,
    product_lines,
    product_totals,
    products_beside_visits,
    shipping_address,
    shipping_id,
    store_orders_href,
    to_card_payment,
)
from models.booking import AppointmentRead, OrderRead
from models.cart import CartItemRead
from models.catalog import ServiceLocation, ServiceRead
from models.checkout import CheckoutRead
from models.checkout_credit import CheckoutMoneyRead, PaymentMode, PaymentModeRead
from models.store import StoreTotals

PATH = "/checkout"
DAYS_SHOWN = 14
FIRST_AVAILABLE = ""  # the provider choice that lets the server pick

Holds = dict[str, AppointmentRead]
ADDRESS_FIELDS = ("zip_code", "address_line", "city", "state")
CHOOSE_TIME = "Choose a day and time for {service}"


def field_id(name: str) -> str:
    """The id of the address field `name` (what the error summary links to)."""
    return f"checkout-{name}"


def days_id(number: int) -> str:
    """The id of visit `number`'s day picker (the error summary's link for a visit without a time)."""
    return f"visit-{number}-days"


def checkout_errors(
    visits: list[tuple[str, str, ServiceLocation]], holds: Holds, address: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """(address field name → message, visit key → message) for Place order: each visit needs a time unless
    another has one (only the visits with a time are booked), and the address what the places of the visits
    to book need (`address_problems`, the checks place_order makes). `visits`: (key, service name, place)."""
    to_book = [(key, place) for key, _name, place in visits if key in holds] or [
        (key, place) for key, _name, place in visits
    ]
    field_errors: dict[str, str] = {}
    for key, place in to_book:
        where = holds[key].location if key in holds else place
        for name, message in address_problems(where, **_where(where, address)).items():
            field_errors.setdefault(name, message)
    time_errors = {} if holds else {key: CHOOSE_TIME.format(service=name) for key, name, _place in visits}
    return {name: field_errors[name] for name in ADDRESS_FIELDS if name in field_errors}, time_errors


@component
def CheckoutPage() -> VdomDict | Component:
    cart = use_cart().cart
    catalog = use_query(list_catalog)
    placed_state: State[OrderRead | None] = use_state(None)
    placed, set_placed = placed_state
    if placed is not None:
        if placed.payment_url:
            return html._(page_title("Checkout"), _header(), _to_payment(placed.payment_url))
        # The confirmation has its own address, so a reload or a shared link shows the same order.
        return navigate(f"/orders/{placed.number}", replace=True)
    # A store order placed (its products left the cart, which may now be empty): the patient's orders.
    store_placed_state: State[str | None] = use_state(None)
    store_placed, set_store_placed = store_placed_state
    if store_placed is not None:
        return navigate(store_orders_href(store_placed), replace=True)
    if cart is None or catalog.data is None:
        return html._(
            page_title("Checkout"),
            _header(),
            html.div({"class_name": "container checkout-loading"}, loading_state("Loading your cart…")),
        )
    if not cart.items:
        return html._(page_title("Checkout"), _header(), _empty())
    services = {service.slug: service for category in catalog.data for service in category.services}
    items = [item for item in cart.items if item.service_slug in services]
    products = [item for item in cart.items if item.is_product]
    if not items:  # products only: the store's checkout (its own order, shipped)
        return html._(
            page_title("Checkout"),
            _header(visits=False, products=True),
            StoreCheckout(products, set_store_placed),
        )
    # Visits, and any products with them: one checkout, one Place order, one payment.
    return html._(
        page_title("Checkout"),
        _header(visits=True, products=bool(products)),
        _Booking(items, services, set_placed, products, product_totals(cart, products) if products else None),
    )


def _to_payment(url: str) -> VdomDict:
    """The order is placed and awaits its card payment: the browser goes to Stripe's page at once."""
    return to_card_payment(url, "Your visits are held")


def _header(*, visits: bool = True, products: bool = False) -> VdomDict:
    if products and not visits:
        return page_header(
            "Checkout", "Tell us where to ship your products, then place your order.", eyebrow="Store order"
        )
    return page_header(
        "Checkout",
        f"Choose a time for each visit: we hold it for you for {HOLD_MINUTES} minutes while you finish. "
        + (
            "Your store products ship to the address below, in the same order and payment as your visits."
            if products
            else "The summary shows your total and how you pay."
        ),
        eyebrow="Book your visits",
    )


def _empty() -> VdomDict:
    return band(
        empty_state(
            "Your cart is empty",
            "Add a service to book a visit at your home or office.",
            icon_name="cart",
            action=button_link("Browse services", "/services"),
        )
    )


def _where(location: ServiceLocation, address: dict[str, str]) -> dict[str, str]:
    """The address fields a place of visit needs: none for a virtual visit, the ZIP code for a clinic
    (it decides who can come), the whole address for a visit at home, the office or a venue."""
    typed_zip = address.get("zip_code", "")
    zip_code = {"zip_code": _usable_zip(typed_zip) or typed_zip}
    if location in ADDRESSED:
        return {name: address.get(name, "") for name in ("address_line", "city", "state")} | zip_code
    if location == ServiceLocation.virtual:
        return {}
    return zip_code


@component
def _Booking(
    items: list[CartItemRead],
    services: dict[str, ServiceRead],
    on_placed: Callable[[OrderRead], None],
    products: list[CartItemRead],
    product_money: StoreTotals | None,
) -> VdomDict:
    """The visits to book (and the cart's products to ship with them: `products`, priced `product_money`),
    the summary with the payment choice, and the one Place order."""
    session = use_session()
    # The address is a draft too: a reload, a dropped connection or a restart keeps it, and it is still
    # there for the next booking (drafts last DRAFT_LIFETIME_DAYS), so a returning patient finds it filled.
    address = use_form(draft="checkout:address")
    # Each visit's intake notes by line key: a draft, so a reconnect or restart does not lose them.
    notes = use_form(draft="checkout:notes")
    _, set_zip = use_state("")
    zip_code = _usable_zip(address.values.get("zip_code"))
    holds_state: State[Holds] = use_state({})
    holds, set_holds = holds_state
    # The patient's own live holds (taken before a reload or a dropped connection) are theirs again: each
    # goes back to a visit of its service (and provider, when the cart item names one).
    mine = use_query(list_my_holds)
    restored, set_restored = use_state(False)

    @use_effect(dependencies=[mine.data, mine.error])
    def restore_holds() -> None:
        if restored or (mine.data is None and mine.error is None):
            return
        set_holds(_holds_by_visit(visits, mine.data or []))
        set_restored(True)

    # What the last Place order found wrong: the server's refusal, the address fields' and the visits'
    # errors; `attempt` counts the sends that failed, so each one gives the focus to the summary again.
    problem_state: State[str | None] = use_state(None)
    problem, set_problem = problem_state
    field_errors_state: State[dict[str, str]] = use_state({})
    field_errors, set_field_errors = field_errors_state
    time_errors_state: State[dict[str, str]] = use_state({})
    time_errors, set_time_errors = time_errors_state
    attempt, set_attempt = use_state(0)
    places: Ref[dict[str, ServiceLocation]] = use_ref(
        {}
    )  # each visit's place of visit, as its line last rendered it
    # The products' shipping form (ShippingFields hands it over once its prefill is in) and its errors.
    shipping: Ref[Form | None] = use_ref(None)
    shipping_errors_state: State[dict[str, str]] = use_state({})
    shipping_errors, set_shipping_errors = shipping_errors_state
    # How the patient pays, as the summary last rendered it (its own state: no render of this part).
    choice: Ref[_Choice] = use_ref(_Choice())
    # The modes the owners allow and the patient's wallet credit (read again after a refused Place order).
    money = use_query(get_checkout_money)

    def placed(result: OrderRead) -> None:
        notes.discard_draft()
        on_placed(result)

    def placed_together(result: CheckoutRead) -> None:
        if shipping.current is not None:
            shipping.current.discard_draft()
        placed(result.order.model_copy(update={"payment_url": result.payment_url}))

    def refused(message: str) -> None:
        set_problem(message)
        set_attempt(lambda n: n + 1)
        money.refetch()

    order = use_action(place_order, on_success=placed, on_error=refused)
    together = use_action(place_checkout, on_success=placed_together, on_error=refused)
    visits = [(f"{item.id}#{n}", item) for item in items for n in range(item.quantity)]
    numbers = {key: index + 1 for index, (key, _item) in enumerate(visits)}

    def on_hold(key: str, hold: AppointmentRead) -> None:
        set_problem(None)
        set_time_errors({})
        set_holds(lambda current: {**current, key: hold})

    def zip_changed(text: str) -> None:
        address.values["zip_code"] = text.strip()
        typed = _usable_zip(text)
        if typed != zip_code:
            set_zip(typed)

    async def submit() -> None:
        set_problem(None)
        described = [(key, item.name, places.current.get(key, ServiceLocation.home)) for key, item in visits]
        fields, times = checkout_errors(described, holds, address.values)
        ship_to = shipping_address(shipping.current) if products and shipping.current is not None else None
        ship_errors = shipping_problems(ship_to) if ship_to is not None else {}
        set_field_errors(fields)
        set_time_errors(times)
        set_shipping_errors(ship_errors)
        if products and ship_to is None:
            set_problem("Your shipping address is still loading. Please try again in a moment.")
        if fields or times or ship_errors or (products and ship_to is None):
            set_attempt(lambda n: n + 1)
            return
        lines = [
            CheckoutLine(
                hold_id=holds[key].id,
                cart_item_id=item.id,
                location=holds[key].location,
                notes=notes.values.get(key, ""),
                **_where(holds[key].location, address.values),
            )
            for key, item in visits
            if key in holds
        ]
        paying = {"payment_mode": choice.current.mode, "use_credit": choice.current.use_credit}
        if ship_to is not None:
            await together.run(lines=lines, address=ship_to, visitor_id=session.visitor_id, **paying)
        else:
            await order.run(lines=lines, visitor_id=session.visitor_id, **paying)

    errors: list[ErrorLine] = [
        *((field_id(name), message) for name, message in field_errors.items()),
        *((days_id(numbers[key]), message) for key, message in time_errors.items() if key in numbers),
        *((shipping_id(name), message) for name, message in shipping_errors.items()),
        *([(None, problem)] if problem else []),
    ]
    return html.section(
        {"class_name": "section checkout"},
        html.div(
            {"class_name": "container checkout-errors"},
            page_title("Error: Checkout"),
            ErrorSummary(errors, attempt=attempt, id="checkout-errors"),
        )
        if errors
        else "",
        html.div(
            {"class_name": "container checkout-grid"},
            html.div(
                {"class_name": "checkout-main"},
                _address_card(address, zip_changed, field_errors),
                *([loading_state("Loading your visits…")] if not restored else []),
                *[
                    _VisitLine(
                        key,
                        index + 1,
                        item,
                        services[item.service_slug],
                        zip_code,
                        holds.get(key),
                        on_hold,
                        notes,
                        places.current,
                        time_errors.get(key),
                        key=key,
                    )
                    for index, (key, item) in enumerate(visits)
                    if restored
                ],
                ShippingFields(shipping, shipping_errors) if products else "",
            ),
            _Summary(
                visits,
                holds,
                order.pending or together.pending,
                submit,
                money.data,
                choice,
                products,
                product_money,
                (money.error, money.refetch) if money.error else None,
            ),
        ),
    )


def _holds_by_visit(visits: list[tuple[str, CartItemRead]], held: list[AppointmentRead]) -> Holds:
    """Each live hold on the first visit line of its service (and provider, when the item names one)."""
    assigned: Holds = {}
    for hold in held:
        key = next(
            (
                key
                for key, item in visits
                if key not in assigned
                and item.service_slug == hold.service_slug
                and item.provider_id in (None, hold.provider_id)
            ),
            None,
        )
        if key is not None:
            assigned[key] = hold
    return assigned


def _usable_zip(text: str | None) -> str:
    """The five digits of a typed ZIP code ('１０００１' and '10001-1234' count), or '' until it is one."""
    try:
        return us_zip(text)
    except ValidationFailed:
        return ""


def _address_card(form: Form, zip_changed: Any, errors: dict[str, str]) -> VdomDict:
    def field(name: str, label: str, **options: Any) -> Any:
        return Field(
            label, name, form=form, id_prefix="checkout", id=field_id(name), error=errors.get(name), **options
        )

    return Region(
        (html.span({"class_name": "checkout-card-icon"}, icon("map-pin", size=18)), "Where we'll meet you"),
        hint(
            "Enter your ZIP code first: we show the providers who travel there. The street address is for "
            "visits at home, at the office or at a corporate venue."
        ),
        html.div(
            {"class_name": "checkout-address"},
            field(
                "zip_code",
                "ZIP code",
                on_change=zip_changed,
                input_mode="numeric",
                autocomplete="postal-code",
                max_length=10,
                placeholder="10001",
            ),
            field("address_line", "Street address", autocomplete="street-address", max_length=200),
            field("city", "City", autocomplete="address-level2", max_length=100),
            field("state", "State", autocomplete="address-level1", max_length=2, placeholder="NY"),
        ),
        title_id="checkout-address-title",
        class_name="checkout-card",
        title_class="checkout-card-title",
    )


def _day_choices(time_zone: str) -> list[date]:
    today = datetime.now(ZoneInfo(time_zone)).date()
    return [today + timedelta(days=n) for n in range(DAYS_SHOWN)]


def _day_chip(day: date, today: date, chosen: bool, choose: Any) -> VdomDict:
    names = {today: "Today", today + timedelta(days=1): "Tomorrow"}
    return toggle_chip(
        html.span({"class_name": "day-chip-week"}, names.get(day, f"{day:%a}")),
        html.span({"class_name": "day-chip-date"}, f"{day:%b} {day.day}"),
        pressed=chosen,
        on_click=lambda _event: choose(day),
        class_name="day-chip",
        key=day.isoformat(),
        label=f"{names.get(day, f'{day:%A}')}, {format_date(day)}",
    )


@component
def _VisitLine(
    line_key: str,
    number: int,
    item: CartItemRead,
    service: ServiceRead,
    zip_code: str,
    hold: AppointmentRead | None,
    on_hold: Any,
    notes: Form,
    places: dict[str, ServiceLocation],
    time_error: str | None,
) -> VdomDict:
    session = use_session()
    time_zone = session.time_zone
    days = _day_choices(time_zone)
    today = days[0]
    default_place = (
        ServiceLocation.home if ServiceLocation.home in service.locations else service.locations[0]
    )
    place, set_place = use_state(hold.location if hold else default_place)
    provider, set_provider = use_state(item.provider_id or FIRST_AVAILABLE)
    needs_zip = place != ServiceLocation.virtual
    place_known = not needs_zip or bool(zip_code)
    # Only the days with an open time for this provider (or anyone, for "first available") are offered;
    # until they are known (no ZIP code yet), every day of the next two weeks.
    open_days = use_query(
        checkout_open_days,
        service_slug=service.slug,
        zip_code=zip_code if needs_zip else "",
        location=place,
        days=DAYS_SHOWN,
        time_zone=time_zone,
        provider_id=provider or None,
        enabled=place_known,
    )
    held_day = hold.starts_at.astimezone(ZoneInfo(time_zone)).date() if hold else None
    if place_known and open_days.data is not None:
        # The day of the patient's own hold stays: that time is busy for everyone but them.
        days = [d for d in days if d in open_days.data or d == held_day]
    # The day the patient picked (or that of their own held time: a reload or a drop keeps it) while it is
    # still offered, else the first day offered.
    picked, set_picked = use_state(held_day)
    day = picked if picked in days else (days[0] if days else None)
    problem_state: State[str | None] = use_state(None)
    problem, set_problem = problem_state
    places[line_key] = place  # what Place order checks the address against (no render of its own)
    # Once the visit can be placed (a ZIP code for in-person visits) and its days are known; until then
    # data is None.
    options = use_query(
        checkout_options,
        service_slug=service.slug,
        zip_code=zip_code if needs_zip else "",
        location=place,
        day=day,
        time_zone=time_zone,
        enabled=place_known and day is not None and open_days.data is not None,
    )

    def held(result: AppointmentRead) -> None:
        set_problem(None)
        on_hold(line_key, result)

    def refused(message: str) -> None:
        # Someone else may have taken the time: say so here and show the times that are still open.
        set_problem(message)
        options.refetch()
        open_days.refetch()

    holding = use_action(hold_slot, on_success=held, on_error=refused)
    prefix = f"visit-{number}"

    def take(moment: datetime) -> Any:
        """The click handler that holds `moment` (a coroutine function, so ReactPy awaits it)."""

        async def hold_it(_event: dict) -> None:
            await holding.run(
                service_slug=service.slug,
                provider_id=provider or None,
                starts_at=moment,
                zip_code=zip_code,
                location=place,
                replaces=hold.id if hold else None,
            )

        return hold_it

    def choose(setter: Any, parse: Any = str) -> Any:
        def changed(value: str) -> None:
            set_problem(None)
            setter(parse(value))

        return changed

    def keep_notes(text: str) -> None:
        notes.values[line_key] = text
        notes.changed()

    def choose_day(chosen: date) -> None:
        set_problem(None)
        set_picked(chosen)

    data = options.data
    # Until the times of a new day or place arrive, the previous ones stay on screen, not to be chosen.
    loading = options.loading or (
        data is not None
        and (data.day, data.location, data.zip_code) != (day, place, zip_code if needs_zip else "")
    )
    listed = data.providers if data else []
    chosen = next((p for p in listed if p.provider_id == provider), None)
    if provider:
        times = chosen.times if chosen else []
    elif data:
        times = data.first_available
    else:
        times = []
    if hold and _shows_hold(hold, day, place, provider, time_zone):
        times = sorted({*times, hold.starts_at})  # a held time is busy for everyone else, not for its holder

    return html.article(
        {
            "class_name": "checkout-card visit-line" + (" is-held" if hold else ""),
            "aria-labelledby": f"{prefix}-title",
        },
        html.header(
            {"class_name": "visit-line-header"},
            html.span({"class_name": "visit-line-number", "aria-hidden": "true"}, str(number)),
            html.div(
                {"class_name": "visit-line-title"},
                html.h2({"id": f"{prefix}-title", "class_name": "checkout-card-title"}, service.name),
                hint(
                    f"{format_minutes(service.duration_minutes)} visit",
                    f" · with {item.provider_name}" if item.provider_name else "",
                ),
            ),
            _held_badge(hold, time_zone),
        ),
        html.p(
            {"class_name": "hint visit-rule"}, checkout_rule(starts_at=hold.starts_at, now=datetime.now(UTC))
        )
        if hold
        else "",
        html.p({"class_name": "visit-prep"}, icon("alert", size=16), html.span(service.preparation))
        if service.preparation
        else "",
        html.div(
            {"class_name": "visit-choices"},
            Select(
                "Place of visit",
                "place",
                id=f"{prefix}-place",
                options=[(p.value, p.label) for p in service.locations],
                default=place.value,
                on_change=choose(set_place, ServiceLocation),
            ),
            Select(
                "Provider",
                "provider",
                id=f"{prefix}-provider",
                options=[
                    (FIRST_AVAILABLE, "First available"),
                    *[(p.provider_id, f"{p.name} · {format_currency(p.price.charge)}") for p in listed],
                    *(
                        [(provider, item.provider_name or "Your provider")]
                        if provider and chosen is None
                        else []
                    ),
                ],
                default=provider,
                on_change=choose(set_provider),
            ),
        ),
        html.div(
            {"class_name": "visit-when"},
            html.p({"class_name": "visit-label", "id": f"{prefix}-day"}, "Day"),
            html.p({"class_name": "form-error field-error", "id": f"{prefix}-time-error"}, time_error)
            if time_error
            else "",
            html.div(
                {
                    "class_name": "day-picker",
                    "id": days_id(number),
                    "role": "group",
                    "aria-labelledby": f"{prefix}-day",
                    # The days offered may still change (those without an open time leave).
                    "aria-busy": "true" if place_known and open_days.loading else "false",
                    **(
                        {"aria-invalid": "true", "aria-describedby": f"{prefix}-time-error"}
                        if time_error
                        else {}
                    ),
                },
                *[_day_chip(d, today, d == day, choose_day) for d in days],
            ),
            html.p(
                {"class_name": "visit-label", "id": f"{prefix}-times"},
                "Time",
                html.span({"class_name": "visit-zone"}, f" · your time zone ({time_zone.replace('_', ' ')})"),
            ),
            html.p({"class_name": "times-note is-error", "role": "alert"}, icon("alert", size=16), problem)
            if problem
            else "",
            _times(
                prefix,
                options,
                open_days,
                needs_zip and not zip_code,
                times,
                hold,
                loading or holding.pending,
                take,
                time_zone,
            ),
        ),
        _chosen_provider(chosen),
        TextArea(
            "Intake notes (optional)",
            "notes",
            id=f"{prefix}-notes",
            rows=2,
            max_length=2000,
            default=notes.values.get(line_key, ""),
            on_change=keep_notes,
            key=f"notes-{notes.version}",  # a restored draft remounts the field with its text
            placeholder="Symptoms, allergies, access instructions, anything your provider should know.",
        ),
    )


def _shows_hold(
    hold: AppointmentRead, day: date | None, place: ServiceLocation, provider: str, time_zone: str
) -> bool:
    """Whether the times on screen are those the hold was taken from (same day, place and provider)."""
    return (
        hold.location == place
        and provider in (FIRST_AVAILABLE, hold.provider_id)
        and hold.starts_at.astimezone(ZoneInfo(time_zone)).date() == day
    )


def _held_badge(hold: AppointmentRead | None, time_zone: str) -> VdomDict:
    if hold is None:
        return html.span({"class_name": "visit-hold"}, icon("clock", size=15), "Choose a time")
    until = format_time(hold.hold_expires_at, time_zone) if hold.hold_expires_at else ""
    return html.span(
        {"class_name": "visit-hold is-held", "role": "status"},
        icon("check", size=15),
        f"Held until {until}" if until else "Held",
    )


def _times(
    prefix: str,
    options: Query,
    open_days: Query,
    waiting_for_zip: bool,
    times: list[datetime],
    hold: AppointmentRead | None,
    busy: bool,
    take: Any,
    time_zone: str,
) -> VdomDict:
    if waiting_for_zip:
        return html.p({"class_name": "times-note"}, "Enter your ZIP code above to see open times.")
    if open_days.error:
        return error_state(open_days.error, open_days.refetch)
    if open_days.data == [] and hold is None:
        return html.p(
            {"class_name": "times-note", "aria-busy": "true" if open_days.loading else "false"},
            f"No open times in the next {DAYS_SHOWN // 7} weeks. Try another provider or place of visit.",
        )
    if options.error:
        return error_state(options.error, options.refetch)
    if options.data is None:
        return html.p({"class_name": "times-note", "role": "status"}, "Finding open times…")
    # The day these times are for (the previous day's stay on screen, busy, until the new ones arrive).
    shown = {"data-day": options.data.day.isoformat(), "aria-busy": "true" if busy else "false"}
    if not times:
        return html.p(
            {"class_name": "times-note", **shown}, "No open times on this day. Try another day or provider."
        )
    held_at = hold.starts_at if hold else None
    return html.div(
        {"class_name": "time-grid", "role": "group", "aria-labelledby": f"{prefix}-times", **shown},
        *[
            toggle_chip(
                format_time(moment, time_zone),
                pressed=moment == held_at,
                on_click=take(moment),
                class_name="time-chip",
                key=moment.isoformat(),
                disabled=busy,
            )
            for moment in times
        ],
    )


def _chosen_provider(chosen: Any) -> Any:
    if chosen is None:
        return ""
    return html.div(
        {"class_name": "visit-provider"},
        icon("user", size=16),
        html.a({"href": profile_href(chosen.provider_id)}, chosen.name),
        rating_line(chosen.rating),
    )


def _cart_price(item: CartItemRead) -> VdomDict:
    since = html.span({"class_name": "summary-from"}, "from ") if item.price_is_from else ""
    return html.span({"class_name": "summary-price"}, since, html.strong(format_currency(item.price)))


@dataclass(frozen=True)
class _Choice:
    """How the patient pays, as the summary shows it: a payment mode ("" for the recommended one) and
    whether their wallet credit is used."""

    mode: str = ""
    use_credit: bool = False


CARD_NOTE = "After Place order you pay on Stripe's secure page; your card number never reaches us."
PAY_LEGEND = "How would you like to pay?"
USE_CREDIT = "Use my wallet credit ({amount} available)"


def _cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).to_integral_value())


def _dollars(amount_cents: int) -> Decimal:
    return Decimal(amount_cents) / 100


def _mode_option(option: PaymentModeRead, chosen: bool, choose: Callable[[str], None]) -> VdomDict:
    """One radio of the payment choice: its label (with "Recommended"), its description under it."""
    control_id = f"pay-mode-{option.mode.value}"
    return html.div(
        {
            "class_name": "field field-check pay-mode" + (" is-chosen" if chosen else ""),
            "key": option.mode.value,
        },
        html.div(
            {"class_name": "field-check-row"},
            html.input(
                {
                    "id": control_id,
                    "type": "radio",
                    "name": "payment_mode",
                    "value": option.mode.value,
                    "checked": chosen,
                    "aria-describedby": f"{control_id}-hint",
                    "on_change": lambda _event: choose(option.mode.value),
                }
            ),
            html.label(
                {"html_for": control_id},
                option.label,
                html.span({"class_name": "badge badge-success pay-mode-badge"}, "Recommended")
                if option.recommended
                else "",
            ),
        ),
        html.p({"class_name": "hint", "id": f"{control_id}-hint"}, option.description),
    )


def _payment_part(
    money: CheckoutMoneyRead | None,
    mode: PaymentMode | None,
    choose: Callable[[str], None],
    *,
    covered: bool,
    products_on_delivery: bool,
    failed: tuple[str, Callable[[], None]] | None = None,
) -> VdomDict | str:
    """The payment choice: a radio per mode the owners allow, or (one mode) how payment is taken; when
    wallet credit pays it all, that nothing is charged. `failed`: why the modes could not be read, and
    the retry."""
    if failed is not None and money is None:
        return error_state(*failed)
    if money is None or mode is None:
        return hint("Loading how you can pay…")
    if covered:
        return html.p(
            {"class_name": "summary-pay", "data-pay": "wallet_credit"},
            icon("shield", size=18),
            html.span(
                html.strong("Paid with your wallet credit."),
                " Nothing is charged to a card or due at the visit."
                + (" Your store products are paid on delivery." if products_on_delivery else ""),
            ),
        )
    if len(money.modes) == 1:
        [only] = money.modes
        return html.p(
            {"class_name": "summary-pay", "data-pay": only.mode.value},
            icon("shield", size=18),
            html.span(
                html.strong(f"{only.label}."),
                " " + (CARD_NOTE if only.mode is PaymentMode.card else only.description),
            ),
        )
    return field_group(
        PAY_LEGEND,
        *[_mode_option(option, option.mode is mode, choose) for option in money.modes],
        class_name="pay-modes",
        legend_class="visit-label",
    )


def _left_to_pay_label(to_pay: int, mode: PaymentMode | None, *, products: bool, covered: bool) -> str:
    """How what is left after the credit is paid: by card (the products on the same payment), at the visit
    (and the products on delivery), or only the products on delivery once the credit covers the visits."""
    if not to_pay:
        return "Left to pay"
    if covered:
        return "Left to pay (on delivery)"
    if mode is PaymentMode.card:
        return "Left to pay by card"
    if mode is PaymentMode.visit:
        return "Left to pay at the visit" + (" and on delivery" if products else "")
    return "Left to pay"


def _credit_rows(credit: int, to_pay: int, label: str) -> list[VdomDict]:
    """The wallet credit applied and what is left to pay (`label` says how)."""
    if not credit:
        return []
    return [
        html.div(
            {"key": "wallet", "class_name": "summary-credit"},
            html.dt("Wallet credit"),
            html.dd({"data-credit-applied": str(_dollars(credit))}, format_currency(-_dollars(credit))),
        ),
        html.div(
            {"key": "to-pay", "class_name": "summary-due"},
            html.dt(label),
            html.dd({"data-to-pay": str(_dollars(to_pay))}, format_currency(_dollars(to_pay))),
        ),
    ]


@component
def _Summary(
    visits: list[tuple[str, CartItemRead]],
    holds: Holds,
    placing: bool,
    submit: Any,
    money: CheckoutMoneyRead | None,
    choice: Ref[_Choice],
    products: list[CartItemRead],
    product_money: StoreTotals | None,
    money_failed: tuple[str, Callable[[], None]] | None = None,
) -> VdomDict:
    session = use_session()
    mode_state: State[str] = use_state("")
    picked, set_mode = mode_state
    use_credit, set_use_credit = use_state(False)
    held = [holds[key] for key, _item in visits if key in holds]
    booked = visit_totals([hold.price for hold in held])
    # From the start the summary shows the whole cart: a held visit at its held price, the others at the
    # cart's price ("from" the lowest provider's until a time, and so a provider, is chosen).
    estimated = [item for key, item in visits if key not in holds and item.price_is_from]
    totals = visit_totals([holds[key].price if key in holds else item.price for key, item in visits])
    missing = len(visits) - len(held)
    if not held:
        waiting = "Choose a time for each visit to place your order."
    elif missing:
        waiting = (
            f"{missing} visit{'s' if missing != 1 else ''} still need{'s' if missing == 1 else ''} a time; "
            "only visits with a time are booked."
        )
    else:
        waiting = ""
    # The payment mode: the one picked while the owners still allow it, else the recommended one.
    allowed = [option.mode for option in money.modes] if money else []
    mode = next((m for m in allowed if m.value == picked), allowed[0] if allowed else None)
    choice.current = _Choice(mode=mode.value if mode else "", use_credit=use_credit)
    # What the credit pays: of the visits' order (what Place order books), as the server will apply it.
    visits_cents = _cents(booked.total if held else totals.total)
    available = _cents(money.credit) if money else 0
    credit = credit_to_apply(available, visits_cents, by_card=mode is PaymentMode.card) if use_credit else 0
    covered = bool(credit) and credit == visits_cents
    products_cents = product_money.total_cents if product_money else 0
    # Credit covering the visits places them without a card: the products are then paid on delivery.
    to_pay = visits_cents - credit + products_cents
    grand_total = totals.total + _dollars(products_cents)
    total_label = "Estimated total" if estimated else "Total"
    rows: list[VdomDict] = [
        html.div(
            {"key": "subtotal"},
            html.dt("Visits" if products else "Subtotal"),
            html.dd(format_currency(totals.subtotal)),
        ),
        html.div({"key": "fee"}, html.dt("Platform fee (5%)"), html.dd(format_currency(totals.platform_fee))),
        *(products_beside_visits(product_money) if product_money else []),
        html.div(
            {"key": "total", "class_name": "summary-total"},
            html.dt(total_label),
            html.dd(format_currency(grand_total)),
        ),
        *_credit_rows(
            credit,
            to_pay,
            _left_to_pay_label(to_pay, mode, products=bool(products), covered=covered),
        ),
    ]
    place_amount = _dollars(_cents(booked.total) - credit + products_cents)
    return Region(
        "Order summary",
        html.ul(
            {"class_name": "summary-lines"},
            *[
                html.li(
                    {"key": key, "class_name": "" if key in holds else "is-open"},
                    html.div(
                        {"class_name": "summary-line-text"},
                        html.strong(item.name),
                        html.span(
                            {"class_name": "hint"},
                            visit_when(holds[key], session) if key in holds else "Choose a time",
                        ),
                    ),
                    visit_price(holds[key]) if key in holds else _cart_price(item),
                )
                for key, item in visits
            ],
            *product_lines(products),
        ),
        html.dl({"class_name": "summary-totals"}, *rows),
        hint(ESTIMATE_NOTE) if estimated else "",
        Checkbox(
            USE_CREDIT.format(amount=format_money(money.credit)),
            "use_credit",
            id="checkout-use-credit",
            default=use_credit,
            on_change=set_use_credit,
            hint=(
                "Credit from refunds and goodwill pays for your visits; the store products are paid as usual."
                if products
                else "Credit from refunds and goodwill comes off your visits' total."
            ),
        )
        if money is not None and money.credit > 0
        else "",
        _payment_part(
            money, mode, set_mode, covered=covered, products_on_delivery=bool(products), failed=money_failed
        ),
        html.p(
            {"class_name": "summary-pay summary-rule"},
            icon("calendar", size=18),
            # The strictest rule among the chosen times: the soonest visit's.
            html.span(checkout_rule(starts_at=min(h.starts_at for h in held), now=datetime.now(UTC))),
        )
        if held
        else "",
        html.p({"class_name": "hint summary-waiting"}, waiting) if waiting else "",
        # Never disabled (GOV.UK): a Place order with something missing says what, at the top.
        Button(
            f"Place order · {format_currency(place_amount)}" if held else "Place order",
            on_click=submit,
            pending=placing,
            pending_label="Placing order…",
            class_name="btn-block",
        ),
        title_id="summary-title",
        class_name="checkout-summary",
        tag="aside",
        title_class="checkout-card-title",
    )
