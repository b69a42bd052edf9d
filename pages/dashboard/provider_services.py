"""Services & availability (/dashboard/services): the signed-in provider edits what patients book — the
services they offer with their prices and places of visit, their service area (ZIP codes), their weekly
hours and their time off, all in their own time zone.

Each section saves on its own through the `*_own_*` commands (app/services/providers.py, availability.py),
which re-check the browser session and act only on the account's own profile. The fields are the kit's:
uncontrolled, reporting changes into the drafts (or a `use_form()` form), so nothing re-renders while typing
and a refused save keeps everything typed; only the small row components that add or remove fields
re-render.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from reactpy import Ref, component, html, use_ref, use_state
from reactpy.types import Component, State, VdomDict

from app.services.catalog import list_catalog
from app.services.providers import (
    WEEKDAYS,
    ServiceOffer,
    add_own_time_off,
    get_own_provider,
    list_own_time_off,
    remove_own_time_off,
    set_own_service_area,
    set_own_services,
    set_own_weekly_hours,
)
from components.context import use_session
from components.format import format_currency, format_minutes, format_slot
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Checkbox,
    Field,
    QueryView,
    SettingsPanel,
    TextArea,
    button_link,
    dashboard_header,
    empty_state,
    error_state,
    field_group,
    form_error,
    hint,
    loading_state,
    notice,
    portal_body,
    portal_page,
    settings_actions,
    status_pill,
)
from models.account import Role
from models.catalog import CategoryRead, ServiceLocation, ServiceRead
from models.provider import ProviderRead, ProviderServiceRead, TimeOffRead, WeeklyHoursRead

NEW_RANGE = ("09:00", "17:00")


def _save_button(label: str, pending: bool, save: Callable[[], object]) -> VdomDict:
    return settings_actions(Button(label, on_click=save, pending=pending, pending_label="Saving…"))


def _error_line(message: str | None) -> VdomDict | str:
    return form_error(message)


def _use_save(fn: Callable, success: str) -> tuple[Callable, bool, str | None]:
    """A section's save: toast on success, and on refusal the service's message as a toast and inline.
    Returns (run, pending, error)."""
    session = use_session()
    failure: State[str | None] = use_state(None)
    error, set_error = failure

    def failed(message: str) -> None:
        set_error(message)
        session.toaster.error(message)

    def saved(_result: object) -> None:
        set_error(None)
        session.toaster.success(success)

    action = use_action(fn, on_success=saved, on_error=failed)

    async def run(**kwargs: object) -> object:
        return await action.run(**kwargs)

    return run, action.pending, error


# ---- services and prices --------------------------------------------------------------------------
@dataclass
class _OfferDraft:
    offered: bool
    price: str
    places: set[ServiceLocation] = field(default_factory=set)


def _drafts(catalog: list[CategoryRead], offered: dict[str, ProviderServiceRead]) -> dict[str, _OfferDraft]:
    drafts = {}
    for category in catalog:
        for service in category.services:
            offer = offered.get(service.slug)
            drafts[service.slug] = _OfferDraft(
                offered=offer is not None,
                price=f"{(offer.price.original if offer else service.price.original):f}",
                places=set(offer.locations if offer else service.locations),
            )
    return drafts


@component
def _ServiceRow(service: ServiceRead, draft: _OfferDraft) -> VdomDict:
    # Only this row re-renders when the box is ticked: it dims the price and places it no longer offers.
    offered, set_offered = use_state(draft.offered)
    slug = service.slug

    def toggle(checked: bool) -> None:
        draft.offered = checked
        set_offered(checked)

    def set_price(text: str) -> None:
        draft.price = text

    def place_toggle(place: ServiceLocation) -> Callable[[bool], None]:
        def change(checked: bool) -> None:
            (draft.places.add if checked else draft.places.discard)(place)

        return change

    return html.li(
        {"class_name": "offer-row" + ("" if offered else " is-off")},
        html.div(
            {"class_name": "offer-main"},
            Checkbox(
                html.span(
                    {"class_name": "offer-name"},
                    html.span(service.name),
                    html.span(
                        {"class_name": "offer-meta"},
                        f"{format_minutes(service.duration_minutes)} · list price "
                        f"{format_currency(service.price.original)}",
                    ),
                ),
                f"offer-{slug}",
                id=f"offer-{slug}",
                default=draft.offered,
                on_change=toggle,
                class_name="offer-check",
            ),
            html.div(
                {"class_name": "offer-price"},
                html.span({"class_name": "offer-currency", "aria-hidden": "true"}, "$"),
                Field(
                    f"Price for {service.name}",
                    f"price-{slug}",
                    id=f"price-{slug}",
                    type="number",
                    input_mode="decimal",
                    min="0",
                    max="99999",
                    step="0.01",
                    max_length=None,
                    default=draft.price,
                    on_change=set_price,
                    hide_label=True,
                ),
            ),
        ),
        field_group(
            f"Places of visit for {service.name}",
            *(
                Checkbox(
                    # Named "<service> at <place>"; only the place shows.
                    html.span(html.span({"class_name": "sr-only"}, f"{service.name} at "), place.label),
                    f"place-{slug}-{place.value}",
                    id=f"place-{slug}-{place.value}",
                    default=place in draft.places,
                    on_change=place_toggle(place),
                    class_name="offer-place",
                    key=place.value,
                )
                for place in service.locations
            ),
            class_name="offer-places",
            legend_class="sr-only",
        ),
    )


@component
def _ServicesCard(provider: ProviderRead, catalog: list[CategoryRead]) -> VdomDict:
    drafts_ref: Ref[dict[str, _OfferDraft] | None] = use_ref(None)
    if drafts_ref.current is None:
        drafts_ref.current = _drafts(catalog, {o.service_slug: o for o in provider.services})
    drafts = drafts_ref.current  # made once: the rows edit these drafts in place
    run, pending, error = _use_save(set_own_services, "Services and prices saved")

    async def save() -> None:
        offers = [
            ServiceOffer(
                slug, draft.price.strip(), tuple(place for place in ServiceLocation if place in draft.places)
            )
            for slug, draft in drafts.items()
            if draft.offered
        ]
        await run(offers=offers)

    return SettingsPanel(
        "Services & prices",
        *(
            html.div(
                {"key": category.slug, "class_name": "offer-group"},
                html.h3({"class_name": "offer-group-title"}, category.name),
                html.ul(
                    {"class_name": "offer-list"},
                    *(_ServiceRow(s, drafts[s.slug], key=s.slug) for s in category.services),
                ),
            )
            for category in catalog
        ),
        _error_line(error),
        _save_button("Save services & prices", pending, save),
        lead="Tick the services you offer, set your price for each and where you can do the visit. "
        "During the IV-therapy flash sale patients pay 30% less than your price.",
        title_id="editor-services",
        class_name="editor-card editor-wide",
    )


# ---- service area ---------------------------------------------------------------------------------
@component
def _AreaCard(zip_codes: list[str]) -> VdomDict:
    form = use_form(zips=", ".join(zip_codes))
    count, set_count = use_state(len(zip_codes))
    run, pending, error = _use_save(set_own_service_area, "Service area saved")

    async def save() -> None:
        saved = await run(zip_codes=form.values.get("zips", ""))
        if saved is not None:
            set_count(len(saved.zip_codes))
            form.reset(zips=", ".join(saved.zip_codes))  # shows the list as saved: sorted, no duplicates

    noun = "ZIP code" if count == 1 else "ZIP codes"
    return SettingsPanel(
        "Service area",
        html.div(
            {"class_name": "form"},
            TextArea(
                "ZIP codes",
                "zips",
                form=form,
                id="area-zips",
                rows=4,
                spell_check=False,
                autocomplete="off",
                max_length=None,
                hint=f"Five-digit ZIP codes separated by commas or spaces. {count} {noun} saved.",
            ),
        ),
        _error_line(error),
        _save_button("Save service area", pending, save),
        lead="Patients in these ZIP codes find you in search.",
        title_id="editor-area",
        class_name="editor-card",
    )


# ---- weekly hours ---------------------------------------------------------------------------------
def _hhmm(value: time) -> str:
    return f"{value:%H:%M}"


@component
def _DayHours(weekday: int, ranges: dict[str, list[str]], next_key: Callable[[], str]) -> VdomDict:
    # The ranges of one day live in `ranges` (shared with the card's save); this row only re-renders when
    # a range is added or removed.
    keys, set_keys = use_state(lambda: list(ranges))
    day = WEEKDAYS[weekday]

    def add() -> None:
        key = next_key()
        ranges[key] = list(NEW_RANGE)
        set_keys(lambda current: [*current, key])

    def remove(key: str) -> Callable[[dict], None]:
        def click(_event: dict) -> None:
            ranges.pop(key, None)
            set_keys(lambda current: [k for k in current if k != key])

        return click

    def setter(key: str, index: int) -> Callable[[str], None]:
        def change(text: str) -> None:
            ranges[key][index] = text

        return change

    def bound(key: str, index: int, which: str) -> Component:
        return Field(
            f"{day} {which}",
            f"{which}-{key}",
            id=f"hours-{weekday}-{key}-{which}",
            type="time",
            max_length=None,
            default=ranges[key][index],
            on_change=setter(key, index),
            hide_label=True,
        )

    rows = [
        html.div(
            {"key": key, "class_name": "hours-range"},
            bound(key, 0, "start"),
            html.span({"class_name": "hours-to"}, "to"),
            bound(key, 1, "end"),
            html.button(
                {
                    "type": "button",
                    "class_name": "icon-button hours-remove",
                    "aria-label": f"Remove {day} hours",
                    "on_click": remove(key),
                },
                icon("x", size=16),
            ),
        )
        for key in keys
    ]
    return html.li(
        {"class_name": "hours-day" + ("" if rows else " is-closed")},
        html.span({"class_name": "hours-day-name"}, day),
        html.div(
            {"class_name": "hours-ranges"},
            *(rows or [html.span({"key": "closed", "class_name": "hours-closed"}, "Closed")]),
        ),
        Button(
            "Add hours",
            on_click=add,
            variant="ghost",
            size="sm",
            icon="plus",
            aria_label=f"Add hours on {day}",
            class_name="hours-add",
        ),
    )


@component
def _HoursCard(hours: list[WeeklyHoursRead], zone_label: str) -> VdomDict:
    counter = use_ref(itertools.count())
    days_ref: Ref[dict[int, dict[str, list[str]]] | None] = use_ref(None)
    if days_ref.current is None:
        days_ref.current = {weekday: {} for weekday in range(7)}
        for h in hours:
            days_ref.current[h.weekday][f"saved-{next(counter.current)}"] = [_hhmm(h.start), _hhmm(h.end)]
    days = days_ref.current  # made once: the day rows edit these ranges in place
    run, pending, error = _use_save(set_own_weekly_hours, "Weekly hours saved")

    async def save() -> None:
        ranges = [(weekday, start, end) for weekday, day in days.items() for start, end in day.values()]
        await run(ranges=ranges)

    return SettingsPanel(
        "Weekly hours",
        html.ul(
            {"class_name": "hours-list"},
            *(
                _DayHours(weekday, days[weekday], lambda: f"new-{next(counter.current)}", key=str(weekday))
                for weekday in range(7)
            ),
        ),
        hint("An end of 11:59 PM means until midnight."),
        _error_line(error),
        _save_button("Save weekly hours", pending, save),
        lead=f"When you take visits each week, in your time zone ({zone_label}). Add more than one range for a split day.",
        title_id="editor-hours",
        class_name="editor-card",
    )


# ---- time off -------------------------------------------------------------------------------------
def _time_off_item(
    item: TimeOffRead, time_zone: str, on_remove: Callable[[], object], busy: bool
) -> VdomDict:
    span = f"{format_slot(item.starts_at, time_zone)} – {format_slot(item.ends_at, time_zone)}"
    return html.li(
        {"key": item.id, "class_name": "time-off-item"},
        html.div(
            {"class_name": "time-off-text"},
            html.strong(span),
            html.span({"class_name": "time-off-reason"}, item.reason) if item.reason else "",
        ),
        Button(
            "Remove",
            on_click=on_remove,
            variant="outline",
            size="sm",
            icon="trash",
            disabled=busy,
            aria_label=f"Remove time off {span}",
        ),
    )


@component
def _TimeOffCard(time_zone: str, zone_label: str) -> VdomDict:
    session = use_session()
    listed = use_query(list_own_time_off)
    form = use_form(starts="", ends="", reason="")
    run_add, adding, error = _use_save(add_own_time_off, "Time off added")

    def removed(_result: None) -> None:
        session.toaster.success("Time off removed")

    removal = use_action(remove_own_time_off, refetch=[listed], on_success=removed)

    async def add() -> None:
        added = await run_add(
            starts=form.values.get("starts", ""),
            ends=form.values.get("ends", ""),
            reason=form.values.get("reason", ""),
        )
        if added is not None:
            form.reset(starts="", ends="", reason="")
            listed.refetch()

    def remover(time_off_id: str) -> Callable[[], object]:
        async def click() -> None:
            await removal.run(time_off_id=time_off_id)

        return click

    upcoming = QueryView(
        listed,
        lambda items: html.ul(
            {"class_name": "time-off-list", "aria-label": "Upcoming time off"},
            *(_time_off_item(item, time_zone, remover(item.id), removal.pending) for item in items),
        ),
        empty=empty_state("No time off planned.", class_name="time-off-empty"),
        loading_label="Loading time off…",
    )
    today = datetime.now(UTC).astimezone(ZoneInfo(time_zone)).strftime("%Y-%m-%dT00:00")
    return SettingsPanel(
        "Time off",
        upcoming,
        html.div(
            {"class_name": "form time-off-form"},
            html.h3({"class_name": "time-off-form-title"}, "Add time off"),
            html.div(
                {"class_name": "time-off-fields"},
                Field(
                    "Starts",
                    "starts",
                    form=form,
                    id="time-off-starts",
                    type="datetime-local",
                    min=today,
                    max_length=None,
                ),
                Field(
                    "Ends",
                    "ends",
                    form=form,
                    id="time-off-ends",
                    type="datetime-local",
                    min=today,
                    max_length=None,
                ),
            ),
            Field(
                "Reason (optional)", "reason", form=form, id="time-off-reason", placeholder="e.g. Vacation"
            ),
        ),
        _error_line(error),
        lead=f"Days or hours you can't take visits: patients won't be offered them. Times are in {zone_label}.",
        actions=(Button("Add time off", on_click=add, icon="plus", pending=adding, pending_label="Adding…"),),
        title_id="editor-time-off",
        class_name="editor-card",
    )


# ---- the screen -------------------------------------------------------------------------------------
def _zone_label(time_zone: str) -> str:
    """'America/New_York (EST)'."""
    abbreviation = datetime.now(UTC).astimezone(ZoneInfo(time_zone)).strftime("%Z")
    return f"{time_zone.replace('_', ' ')} ({abbreviation})"


def _header(lead: str, *extra: object) -> VdomDict:
    return dashboard_header("Services & availability", *extra, lead=lead)


def _note(title: str, text: str, label: str, href: str) -> VdomDict:
    return portal_page(
        _header("What patients can book with you, and when."),
        portal_body(
            html.div(
                {"class_name": "portal-empty"},
                html.div(html.h2({"class_name": "settings-title"}, title), html.p(text)),
                button_link(label, href, icon_name="arrow-right"),
            )
        ),
    )


def _status(provider: ProviderRead, zone_label: str) -> VdomDict:
    listed = provider.listed
    return html.div(
        {"class_name": "editor-status"},
        status_pill(
            "Listed"
            if listed
            else (
                "Awaiting verification"
                if not provider.is_verified
                else "Suspended"
                if provider.suspended_at
                else "Credentials expired"
                if provider.credentials_lapsed_at
                else "Not listed"
            ),
            on=listed,
            icon_name="shield" if listed else "clock",
        ),
        html.span({"class_name": "editor-zone"}, icon("clock", size=14), f"Time zone: {zone_label}"),
        html.a(
            {"href": f"/providers/{provider.id}", "class_name": "editor-public-link"},
            "View public profile",
            icon("arrow-right", size=14),
        )
        if listed
        else "",
    )


SECTIONS = (
    ("editor-services", "Services & prices"),
    ("editor-hours", "Weekly hours"),
    ("editor-time-off", "Time off"),
    ("editor-area", "Service area"),
)


def _jump_links() -> VdomDict:
    return html.nav(
        {"class_name": "editor-jump", "aria-label": "Sections"},
        *(html.a({"key": anchor, "href": f"#{anchor}"}, label) for anchor, label in SECTIONS),
    )


@component
def _Editor() -> VdomDict:
    own = use_query(get_own_provider)
    catalog = use_query(list_catalog)
    error = own.error or catalog.error

    def retry() -> None:
        own.refetch()
        catalog.refetch()

    if error:
        return portal_page(_header(""), portal_body(error_state(error, retry)))
    if (own.loading and own.data is None) or catalog.data is None:
        return portal_page(
            _header("What patients can book with you, and when."),
            html.div(
                {"class_name": "container portal-body", "aria-busy": "true"},
                loading_state("Loading your profile…"),
            ),
        )
    provider = own.data
    if provider is None:
        return _note(
            "You don't have a provider profile yet",
            "Enroll as a provider first: tell us about your license, the services you offer and where you travel. "
            "Once your profile exists you can set your prices, hours and time off here.",
            "Go to provider enrollment",
            "/provider-enrollment",
        )
    zone_label = _zone_label(provider.time_zone)
    pending: VdomDict | str
    if not provider.is_verified:
        pending = notice(
            "Our team is verifying your license. You can prepare everything now; patients see your profile once it is verified."
        )
    else:
        pending = ""
    return portal_page(
        _header("What patients can book with you, and when.", _status(provider, zone_label), _jump_links()),
        portal_body(
            pending,
            _ServicesCard(provider, catalog.data, key="services"),
            _HoursCard(provider.weekly_hours, zone_label, key="hours"),
            _TimeOffCard(provider.time_zone, zone_label, key="time-off"),
            _AreaCard(provider.zip_codes, key="area"),
            class_name="editor-grid",
        ),
    )


@component
def ProviderServicesPage() -> VdomDict | Component:
    if use_session().signed_in_user.role != Role.provider:
        return _note(
            "This page is for providers",
            "Providers set their services, prices, hours and service area here. Looking for care? "
            "Browse our services and book a visit.",
            "See our services",
            "/services",
        )
    return _Editor()
