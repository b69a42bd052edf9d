"""My Appointments, shared by /appointments and /dashboard/appointments: a patient's visits (cancel,
reschedule, review once completed) or, for a provider, their schedule (confirm, start, complete, cancel with
a reason). Completing a pay-at-visit visit opens a dialog for what the provider collected in person (amount
prefilled with the visit's total due, method) or "Not collected"; a visit completed without all its payment
says "Payment due $X" to both sides, and its provider can "Record payment" later. Every rule is the services' (app/services/appointments.py, reviews.py); a refusal shows their
message as a toast and inside the dialog that asked.

The tab (upcoming / past) and a provider's day filter live in the URL. The list refetches after each action
and whenever one of the account's visits changes elsewhere (the `appointments:<user id>` topic), so a patient
sees the provider's confirmation without reloading. Cards and dialogs are leaf components: a click or a
keystroke in one never re-renders the whole list.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Literal
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict
from reactpy_router import use_search_params

from app.services.appointments import (
    LIST_LIMIT,
    MAX_COMMENT,
    OPEN,
    POLICY,
    PatientPhone,
    appointments_topic,
    cancel_appointment,
    change_rule_summary,
    complete_appointment,
    confirm_appointment,
    list_my_appointments,
    list_provider_schedule,
    list_reschedule_slots,
    reschedule_appointment,
    review_visit,
    show_patient_phone,
    start_appointment,
    visit_where,
)
from app.services.ledger import record_visit_payment
from app.services.validation import day_in_url
from components import browser
from components.context import CurrentUser, use_session
from components.dispute_ui import VisitDispute
from components.effects import use_effect
from components.format import format_date, format_minutes, format_money, format_slot, format_time
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    Select,
    ServerForm,
    TabPanel,
    Tabs,
    TextArea,
    UserText,
    button_link,
    dialog_actions,
    empty_state,
    error_state,
    hint,
    isolate,
    loading_state,
)
from components.kit.buttons import Variant
from components.order_ui import receipt_link, visit_price
from models.account import Role
from models.booking import AppointmentRead, AppointmentStatus
from models.ledger import CollectionMethod

VisitTab = Literal["upcoming", "past"]  # the services' `when`
TABS = (("upcoming", "Upcoming"), ("past", "Past"))
TABS_ID = "appts"
STARS = (1, 2, 3, 4, 5)

Open = Callable[[str, AppointmentRead], None]  # (dialog kind, visit)

DETAILS_HIDDEN = (
    "This visit closed a while ago, so the patient's street address and intake notes are no longer shown."
)


def is_provider(user: CurrentUser) -> bool:
    return user.role == Role.provider


def _param(params: dict[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0].strip()


def _day(text: str) -> date | None:
    """A day from the URL or the date input; None when blank, not a date or out of range (the shared rule)."""
    return day_in_url(text)[0]


def _today(time_zone: str) -> date:
    return datetime.now(UTC).astimezone(ZoneInfo(time_zone)).date()


def _clock(moment: datetime, time_zone: str) -> str:
    """'9:30 AM' in the visitor's zone."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


# ---- the screen ---------------------------------------------------------------------------------
@component
def AppointmentsBoard(path: str) -> VdomDict:
    """Tabs and the visits of the signed-in user: their schedule for a provider, else their bookings."""
    session = use_session()
    params = use_search_params()
    tab: VisitTab = "past" if _param(params, "tab") == "past" else "upcoming"
    shown = _param(params, "visit")[:36]  # a notification's link: that visit is marked and focused
    provider = is_provider(session.signed_in_user)
    day = _day(_param(params, "day")) if provider else None
    return html.div(
        {"class_name": "appts-board"},
        html.div(
            {"class_name": "appts-toolbar"},
            _tabs(path, tab),
            _day_filter(path, tab, day) if provider else "",
        ),
        TabPanel(tab, _VisitList(path, tab, provider, day, shown), id=TABS_ID),
        html.p(
            {"class_name": "appts-footnote"},
            f"Times are shown in your time zone ({session.time_zone.replace('_', ' ')}). ",
            change_rule_summary()
            if not provider
            else "Patients are e-mailed when you confirm or cancel a visit.",
        ),
    )


def _tabs(path: str, current: str) -> VdomDict:
    return Tabs(
        TABS,
        current,
        label="Visits",
        href=lambda value: f"{path}?{urlencode({'tab': value})}",
        id=TABS_ID,
        class_name="appts-tabs",
        tab_class="appts-tab",
    )


def _day_filter(path: str, tab: str, day: date | None) -> VdomDict:
    """A provider's day filter: a plain GET form, so the day lands in the URL."""
    return html.form(
        {
            "class_name": "appts-day",
            "method": "get",
            "action": path,
            **browser.client_get_form(),
            "aria-label": "Show one day",
            "key": f"day-{day}",
        },
        html.input({"type": "hidden", "name": "tab", "value": tab}),
        Field(
            "Day",
            "day",
            type="date",
            default=day.isoformat() if day else "",
            max_length=None,
            id="appts-day",
            hide_label=True,
        ),
        html.button({"class_name": "btn btn-sm btn-outline", "type": "submit"}, "Show day"),
        button_link("All days", f"{path}?tab={tab}", variant="ghost", size="sm") if day else "",
    )


async def _visits(*, session, actor, when: VisitTab, provider: bool, day: date | None, time_zone: str):  # noqa: ANN001, ANN202
    if provider:
        return await list_provider_schedule(
            session=session, actor=actor, when=when, day=day, time_zone=time_zone
        )
    return await list_my_appointments(session=session, actor=actor, when=when)


@component
def _VisitList(path: str, tab: VisitTab, provider: bool, day: date | None, shown: str = "") -> VdomDict:
    session = use_session()
    visits = use_query(_visits, when=tab, provider=provider, day=day, time_zone=session.time_zone)
    use_topic(appointments_topic(session.signed_in_user.id), refetch=[visits])
    dialog_state: State[tuple[str, AppointmentRead] | None] = use_state(None)
    dialog, set_dialog = dialog_state

    def open_dialog(kind: str, visit: AppointmentRead) -> None:
        set_dialog((kind, visit))

    def close() -> None:
        set_dialog(None)

    def changed() -> None:
        set_dialog(None)
        visits.refetch()

    if visits.error:
        return _problem(visits.error, visits.refetch, provider)
    if visits.data is None:
        return loading_state("Loading visits…")
    if not visits.data:
        return _empty(tab, provider, day)
    return html.div(
        {"class_name": "appts", "data-tab": tab, "aria-busy": "true" if visits.loading else "false"},
        html.div(
            {"class_name": "appt-list"},
            *(
                _VisitCard(
                    visit, provider, session.time_zone, open_dialog, changed, visit.id == shown, key=visit.id
                )
                for visit in visits.data
            ),
        ),
        html.p({"class_name": "appt-note"}, f"Showing the first {LIST_LIMIT} visits.")
        if len(visits.data) >= LIST_LIMIT
        else "",
        _dialog(dialog, provider, session.time_zone, close, changed),
    )


def _dialog(dialog, provider: bool, time_zone: str, close, changed):  # noqa: ANN001, ANN202
    if dialog is None:
        return ""
    kind, visit = dialog
    key = f"{kind}-{visit.id}"
    if kind == "cancel":
        return _CancelDialog(visit, provider, time_zone, close, changed, key=key)
    if kind == "reschedule":
        return _RescheduleDialog(visit, time_zone, close, changed, key=key)
    if kind in ("complete", "record"):
        return _CollectDialog(visit, time_zone, close, changed, kind == "record", key=key)
    return _ReviewDialog(visit, time_zone, close, changed, key=key)


def _problem(message: str, retry: Callable[[], object], provider: bool) -> VdomDict:
    return html.div(
        {"class_name": "appts-empty card"},
        error_state(message, retry),
        button_link("Set up your provider profile", "/provider-enrollment", variant="outline")
        if provider
        else "",
    )


def _empty(tab: str, provider: bool, day: date | None) -> VdomDict:
    if provider:
        title = f"No visits on {format_date(day)}" if day else f"No {tab} visits"
        text = (
            "New bookings appear here as soon as patients place them."
            if tab == "upcoming"
            else "Completed and cancelled visits appear here."
        )
        action = button_link("Your services and hours", "/dashboard/services", variant="outline")
    else:
        title = "No upcoming visits" if tab == "upcoming" else "No past visits yet"
        text = (
            "Book a licensed provider who comes to your home or office."
            if tab == "upcoming"
            else "Completed and cancelled visits appear here, so you can review your care."
        )
        action = button_link("Find a provider", "/find-provider", icon_name="arrow-right")
    return empty_state(title, text, icon_name="calendar", action=action, class_name="card appts-empty")


# ---- one visit ----------------------------------------------------------------------------------
def _fact(icon_name: str, *content: object) -> VdomDict:
    return html.li(icon(icon_name, size=16), html.span(*content))


def _summary(visit: AppointmentRead, time_zone: str) -> VdomDict:
    minutes = int((visit.ends_at - visit.starts_at).total_seconds() // 60)
    return html.ul(
        {"class_name": "appt-facts"},
        _fact("clock", format_slot(visit.starts_at, time_zone), f" · {format_minutes(minutes)}"),
        _fact("map-pin", visit_where(visit)),
    )


def _status(status: AppointmentStatus) -> VdomDict:
    # The badge keeps the card's own colours per status (booking.css) and says the status in words.
    return Badge(status.label, class_name=f"appt-status appt-status-{status.value}")


@component
def _VisitCard(
    visit: AppointmentRead,
    provider: bool,
    time_zone: str,
    open_dialog: Open,
    changed: Callable[[], None],
    shown: bool = False,
) -> VdomDict:
    session = use_session()

    def toast(title: str) -> Callable[[AppointmentRead], None]:
        def succeeded(_read: AppointmentRead) -> None:
            session.toaster.success(title, f"{visit.service_name} with {isolate(visit.patient_name)}")
            changed()

        return succeeded

    confirm = use_action(confirm_appointment, on_success=toast("Visit confirmed"))
    start = use_action(start_appointment, on_success=toast("Visit started"))
    complete = use_action(complete_appointment, on_success=toast("Visit completed"))
    busy = confirm.pending or start.pending or complete.pending
    local = visit.starts_at.astimezone(ZoneInfo(time_zone))
    heading_id = f"appt-{visit.id}"

    def step(action, label: str, busy_label: str) -> VdomDict:  # noqa: ANN001 - an Action
        async def run() -> None:
            await action.run(appointment_id=visit.id)

        return Button(
            label,
            on_click=run,
            size="sm",
            pending=action.pending,
            pending_label=busy_label,
            disabled=busy,
            key=label,
        )

    def opens(kind: str, label: str, variant: Variant, class_name: str | None = None) -> VdomDict:
        return Button(
            label,
            on_click=lambda: open_dialog(kind, visit),
            variant=variant,
            size="sm",
            disabled=busy,
            class_name=class_name,
            key=label,
        )

    actions: list[VdomDict] = []
    status = visit.status
    if provider:
        now = datetime.now(UTC)
        if status is AppointmentStatus.pending:
            actions.append(step(confirm, "Confirm", "Confirming…"))
        elif status is AppointmentStatus.confirmed and visit.start_opens_at and now < visit.start_opens_at:
            actions.append(
                _later_note(f"You can start it from {format_time(visit.start_opens_at, time_zone)}.")
            )
        elif status is AppointmentStatus.confirmed:
            actions.append(step(start, "Start visit", "Starting…"))
        elif status is AppointmentStatus.in_progress and now < visit.starts_at:
            actions.append(
                _later_note(f"You can complete it from {format_time(visit.starts_at, time_zone)}.")
            )
        elif status is AppointmentStatus.in_progress and collects_at_visit(visit):
            actions.append(opens("complete", "Complete visit", "primary"))
        elif status is AppointmentStatus.in_progress:
            actions.append(step(complete, "Complete visit", "Completing…"))
        elif status is AppointmentStatus.completed and payment_due(visit):
            actions.append(opens("record", "Record payment", "primary"))
        if status in (AppointmentStatus.pending, AppointmentStatus.confirmed):
            actions.append(opens("cancel", "Cancel", "outline", "appt-danger-outline"))
    elif status in (AppointmentStatus.pending, AppointmentStatus.confirmed) and visit.change_refusal is None:
        actions += [
            opens("reschedule", "Reschedule", "outline"),
            opens("cancel", "Cancel visit", "outline", "appt-danger-outline"),
        ]
    elif status in (AppointmentStatus.pending, AppointmentStatus.confirmed):
        # Said once, where the buttons would be, instead of buttons that can only fail.
        actions.append(
            html.p(
                {"class_name": "appt-change-note", "key": "note"},
                visit.change_refusal,
                " ",
                html.a({"href": "/contact"}, "Contact support"),
            )
        )
    elif status is AppointmentStatus.completed:
        actions.append(
            html.span({"class_name": "appt-reviewed"}, icon("check", size=16), "Reviewed")
            if visit.reviewed
            else opens("review", "Leave a review", "primary")
        )

    who = UserText(visit.patient_name) if provider else html._("with ", UserText(visit.provider_name))
    return html.article(
        {
            "class_name": f"appt-card appt-card-{status.value}" + (" is-shown" if shown else ""),
            "aria-labelledby": heading_id,
            **({"aria-current": "true", "tab_index": -1, **browser.focus_on_mount()} if shown else {}),
        },
        html.div(
            {"class_name": "appt-head"},
            html.div(
                {"class_name": "appt-date", "aria-hidden": "true"},
                html.span({"class_name": "appt-date-month"}, f"{local:%b}"),
                html.span({"class_name": "appt-date-day"}, str(local.day)),
            ),
            html.div(
                {"class_name": "appt-title"},
                html.h3({"id": heading_id}, visit.service_name),
                html.p({"class_name": "appt-who"}, icon("user", size=15), who),
            ),
            _status(status),
        ),
        _summary(visit, time_zone),
        _PatientPhone(visit.id, key="phone") if provider and status in OPEN else "",
        html.div(
            {"class_name": "appt-notes"},
            html.strong("Intake notes"),
            UserText(visit.notes, tag="p"),
        )
        if provider and visit.notes
        else "",
        hint(DETAILS_HIDDEN) if provider and visit.details_hidden else "",
        html.p(
            {"class_name": "appt-cancelled"},
            f"Cancelled by the {visit.cancelled_by or 'team'}",
            html._(": ", UserText(visit.cancel_reason)) if visit.cancel_reason else ".",
        )
        if status is AppointmentStatus.cancelled
        else "",
        _payment_line(visit, provider) if status is AppointmentStatus.completed else "",
        VisitDispute(visit.id, visit.service_name, key="dispute")
        if status is AppointmentStatus.completed and not provider
        else "",
        html.div(
            {"class_name": "appt-foot"},
            html.p(
                {"class_name": "appt-order"},
                visit_price(visit, price_class="appt-price", was_class="appt-price-original"),
                html.span(f"Order {visit.order_number}") if visit.order_number else "",
                receipt_link(visit.order_number) if visit.order_number and not provider else "",
            ),
            html.div({"class_name": "appt-actions"}, *actions) if actions else "",
        ),
    )


def collects_at_visit(visit: AppointmentRead) -> bool:
    """Whether the visit's money is collected in person (pay at visit), not paid at booking."""
    return visit.payment is not None and not visit.payment.paid_ahead


def payment_due(visit: AppointmentRead) -> Decimal:
    """What is still due for a completed pay-at-visit visit (0: nothing)."""
    if visit.status is not AppointmentStatus.completed or not collects_at_visit(visit):
        return Decimal(0)
    assert visit.payment is not None
    return visit.payment.due


def method_label(value: str | None) -> str:
    try:
        return CollectionMethod(value or "").label
    except ValueError:
        return "other"


def _payment_line(visit: AppointmentRead, provider: bool) -> VdomDict | str:
    """'Payment due $32.95' on a completed visit not paid in full; the provider also reads how a collected
    visit was paid."""
    due = payment_due(visit)
    if due > 0:
        return html.p(
            {"class_name": "appt-payment-due"},
            Badge(f"Payment due {format_money(due)}", tone="warning", class_name="payment-due"),
            " ",
            hint(
                "Record what the patient pays you when you collect it."
                if provider
                else "Pay your provider, or contact support if you already did."
            ),
        )
    if provider and collects_at_visit(visit) and visit.payment and visit.payment.collection_method:
        return html.p(
            {"class_name": "appt-payment"},
            f"Collected at visit ({method_label(visit.payment.collection_method)}): "
            f"{format_money(visit.payment.collected)}",
        )
    return ""


@component
def _PatientPhone(appointment_id: str) -> VdomDict:
    """The patient's phone number, fetched for this visit only when its provider asks (each ask is audited),
    so it never travels with the schedule."""
    phone_state: State[PatientPhone | None] = use_state(None)
    phone, set_phone = phone_state
    show = use_action(show_patient_phone, on_success=set_phone)

    async def ask() -> None:
        await show.run(appointment_id=appointment_id)

    if phone is None:
        return html.div(
            {"class_name": "appt-phone", "aria-live": "polite"},
            Button(
                "Show patient's phone",
                on_click=ask,
                variant="ghost",
                size="sm",
                icon="phone",
                pending=show.pending,
                pending_label="Getting the number…",
            ),
        )
    # The button is gone: the focus goes to what it revealed.
    return html.div(
        {"class_name": "appt-phone", "aria-live": "polite"},
        icon("phone", size=16),
        html.a({"href": f"tel:{phone.e164}", **browser.focus_on_mount()}, _phone_label(phone))
        if phone.e164
        else html.span(
            {"class_name": "text-muted", "tabindex": "-1", **browser.focus_on_mount()},
            "The patient has not given a phone number.",
        ),
    )


def _phone_label(phone: PatientPhone) -> str:
    return f"Call {phone.display}"


def _later_note(text: str) -> VdomDict:
    """Instead of a step that would be refused: when it becomes possible (the service enforces it)."""
    return html.p({"class_name": "appt-change-note", "key": "later"}, icon("clock", size=15), " ", text)


# ---- dialogs ------------------------------------------------------------------------------------
def _visit_line(visit: AppointmentRead, time_zone: str) -> str:
    return f"{visit.service_name} with {isolate(visit.provider_name)}, {format_slot(visit.starts_at, time_zone)}."


def _error_line(message: str | None) -> VdomDict | str:
    """A refusal inside a dialog; the notice policy comes with the way to reach support."""
    if not message:
        return ""
    return html._(
        html.p({"class_name": "form-error", "role": "alert"}, message),
        hint("Need a change sooner? ", html.a({"href": "/contact"}, "Contact support"), " and we'll help.")
        if message == POLICY
        else "",
    )


def _use_refusal() -> tuple[str | None, Callable[[str], None]]:
    """A dialog's refusal: the service's message inline and as an error toast."""
    toaster = use_session().toaster
    refusal: State[str | None] = use_state(None)
    error, set_error = refusal

    def refused(message: str) -> None:
        set_error(message)
        toaster.error(message)

    return error, refused


@component
def _CancelDialog(
    visit: AppointmentRead,
    provider: bool,
    time_zone: str,
    close: Callable[[], None],
    changed: Callable[[], None],
) -> VdomDict:
    session = use_session()
    form = use_form(reason="")
    error, refused = _use_refusal()
    action = use_action(cancel_appointment, on_error=refused)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        result = await action.run(appointment_id=visit.id, reason=form.values.get("reason", ""))
        if result is not None:
            session.toaster.success(
                "Visit cancelled", f"{visit.service_name}, {format_slot(visit.starts_at, time_zone)}"
            )
            changed()

    busy = action.pending
    who = isolate(visit.patient_name if provider else visit.provider_name)
    return Dialog(
        "Cancel this visit?",
        ServerForm(
            TextArea(
                "Reason for the patient" if provider else "Reason (optional)",
                "reason",
                form=form,
                id="cancel-reason",
                rows=3,
                max_length=500,
                required=provider,
                placeholder="e.g. I have to reschedule my day" if provider else "Let your provider know why",
                hint=f"{who} is e-mailed right away. Nothing is charged for a cancelled visit."
                if provider
                else f"{who} is e-mailed right away. Visits can be cancelled up to 24 hours before they start; "
                "nothing is charged for a cancelled visit.",
            ),
            _error_line(error),
            dialog_actions(
                Button("Keep visit", on_click=close, variant="ghost", disabled=busy),
                Button(
                    "Cancel visit",
                    type="submit",
                    variant="danger",
                    pending=busy,
                    pending_label="Cancelling…",
                    class_name="appt-danger",
                ),
            ),
            on_submit=submit,
        ),
        open=True,
        description=_visit_line(visit, time_zone),
        on_close=close,
        busy=busy,
        id="cancel-appt",
        class_name="appt-modal",
    )


@component
def _RescheduleDialog(
    visit: AppointmentRead, time_zone: str, close: Callable[[], None], changed: Callable[[], None]
) -> VdomDict:
    session = use_session()
    today = _today(time_zone)
    day, set_day = use_state(lambda: max(today, visit.starts_at.astimezone(ZoneInfo(time_zone)).date()))
    chosen_state: State[datetime | None] = use_state(None)
    chosen, set_chosen = chosen_state
    slots = use_query(list_reschedule_slots, appointment_id=visit.id, day=day, time_zone=time_zone)
    error, refused = _use_refusal()
    action = use_action(reschedule_appointment, on_error=refused)

    @use_effect(dependencies=[slots.error])
    def announce() -> None:
        if slots.error:
            session.toaster.error(slots.error)

    def pick_day(text: str) -> None:
        picked = _day(text)
        if picked is not None:
            set_chosen(None)
            set_day(picked)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        if chosen is None:
            refused("Choose a new time first.")
            return
        result = await action.run(appointment_id=visit.id, starts_at=chosen)
        if result is not None:
            session.toaster.success(
                "Visit rescheduled", f"{isolate(visit.provider_name)} will confirm the new time."
            )
            changed()

    busy = action.pending
    times: VdomDict | str
    if slots.error:
        times = ""
    elif slots.data is None:
        times = loading_state("Finding open times…")
    elif not slots.data:
        times = html.p({"class_name": "appt-note"}, "No open times on this day. Try another day.")
    else:
        times = html.div(
            {"class_name": "appt-slots", "role": "group", "aria-label": "Open times"},
            *(
                html.button(
                    {
                        "key": start.isoformat(),
                        "type": "button",
                        "class_name": "appt-slot" + (" is-chosen" if start == chosen else ""),
                        "aria-pressed": "true" if start == chosen else "false",
                        "on_click": lambda _e, start=start: set_chosen(start),
                    },
                    _clock(start, time_zone),
                )
                for start in slots.data
            ),
        )
    return Dialog(
        "Reschedule visit",
        ServerForm(
            Field(
                "Day",
                "day",
                id="reschedule-day",
                type="date",
                default=day.isoformat(),
                min=today.isoformat(),
                max_length=None,
                on_change=pick_day,
                hint=f"Times in your time zone ({time_zone.replace('_', ' ')}).",
            ),
            times,
            _error_line(error or slots.error),
            dialog_actions(
                Button("Keep current time", on_click=close, variant="ghost", disabled=busy),
                Button(
                    "Move visit",
                    type="submit",
                    pending=busy,
                    pending_label="Moving…",
                    disabled=chosen is None,
                ),
            ),
            on_submit=submit,
        ),
        open=True,
        description=f"Now: {_visit_line(visit, time_zone)} Choose a new day and time with {isolate(visit.provider_name)}.",
        on_close=close,
        busy=busy,
        id="reschedule-appt",
        class_name="appt-modal",
    )


@component
def _ReviewDialog(
    visit: AppointmentRead, time_zone: str, close: Callable[[], None], changed: Callable[[], None]
) -> VdomDict:
    session = use_session()
    rating, set_rating = use_state(0)
    form = use_form(draft=f"review:{visit.id}", comment="")
    error, refused = _use_refusal()
    action = use_action(review_visit, on_error=refused)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        if not rating:
            refused("Choose from 1 to 5 stars.")
            return
        result = await action.run(
            appointment_id=visit.id,
            rating=rating,
            comment=form.values.get("comment", ""),
        )
        if result is not None:
            form.discard_draft()
            session.toaster.success(
                "Thanks for your review", f"It helps other patients choose {isolate(visit.provider_name)}."
            )
            changed()

    busy = action.pending
    return Dialog(
        "Review your visit",
        ServerForm(
            html.span({"class_name": "appt-label", "id": "review-stars-label"}, "Your rating"),
            html.div(
                {"class_name": "appt-stars", "role": "radiogroup", "aria-labelledby": "review-stars-label"},
                *(
                    html.button(
                        {
                            "key": str(stars),
                            "type": "button",
                            "role": "radio",
                            "aria-checked": "true" if stars == rating else "false",
                            "aria-label": f"{stars} star{'s' if stars > 1 else ''}",
                            "class_name": "appt-star" + (" is-on" if stars <= rating else ""),
                            "on_click": lambda _e, stars=stars: set_rating(stars),
                        },
                        icon("star-filled" if stars <= rating else "star", size=28),
                    )
                    for stars in STARS
                ),
            ),
            TextArea(
                "Your review (optional)",
                "comment",
                form=form,
                id="review-comment",
                rows=4,
                max_length=MAX_COMMENT,
                placeholder="What went well? What could be better?",
                hint="Your first name and last initial are shown with your review.",
            ),
            _error_line(error),
            dialog_actions(
                Button("Not now", on_click=close, variant="ghost", disabled=busy),
                Button("Submit review", type="submit", pending=busy, pending_label="Sending…"),
            ),
            on_submit=submit,
        ),
        open=True,
        description=_visit_line(visit, time_zone),
        on_close=close,
        busy=busy,
        id="review-appt",
        class_name="appt-modal",
    )


METHODS = tuple((method.value, method.label.capitalize()) for method in CollectionMethod)
MAX_AMOUNT_TEXT = 12  # "$99,999.99" and a little room


@component
def _CollectDialog(
    visit: AppointmentRead,
    time_zone: str,
    close: Callable[[], None],
    changed: Callable[[], None],
    record: bool,
) -> VdomDict:
    """Complete a pay-at-visit visit with what was collected in person, or "Not collected" (payment due);
    `record`: the visit is completed already, and this records (the rest of) its payment."""
    session = use_session()
    assert visit.payment is not None
    due = visit.payment.due
    form = use_form(amount=f"{due:.2f}", method=CollectionMethod.cash.value)
    error, refused = _use_refusal()
    complete = use_action(complete_appointment, on_error=refused)
    recorded = use_action(record_visit_payment, on_error=refused)
    busy = complete.pending or recorded.pending
    who = isolate(visit.patient_name)

    def amount_and_method() -> dict[str, str]:
        return {
            "collected" if not record else "amount": str(form.values.get("amount", "")).strip(),
            "method": str(form.values.get("method", "")),
        }

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        if record:
            result: object = await recorded.run(appointment_id=visit.id, **amount_and_method())
            title = "Payment recorded"
        else:
            fields = amount_and_method()
            if not fields["collected"]:
                refused("Enter the amount collected, or choose Not collected.")
                return
            result = await complete.run(appointment_id=visit.id, **fields)
            title = "Visit completed"
        if result is not None:
            session.toaster.success(title, f"{visit.service_name} with {who}")
            changed()

    async def not_collected() -> None:
        result = await complete.run(appointment_id=visit.id)
        if result is not None:
            session.toaster.success("Visit completed, payment due", f"{visit.service_name} with {who}")
            changed()

    total = visit.payment.total
    return Dialog(
        "Record the payment" if record else "Complete this visit",
        ServerForm(
            Field(
                "Amount collected",
                "amount",
                form=form,
                id="collect-amount",
                input_mode="decimal",
                max_length=MAX_AMOUNT_TEXT,
                required=True,
                hint=(
                    f"Still due: {format_money(due)} of {format_money(total)}."
                    if record
                    else f"The visit's total due is {format_money(total)} (your price and the platform fee)."
                ),
            ),
            Select(
                "How it was paid",
                "method",
                form=form,
                options=METHODS,
                id="collect-method",
            ),
            hint("The platform fee you collect is owed to MediVisit; it is taken from your next payout."),
            _error_line(error),
            dialog_actions(
                Button("Back", on_click=close, variant="ghost", disabled=busy),
                Button(
                    "Not collected",
                    on_click=not_collected,
                    variant="outline",
                    disabled=busy,
                    pending=complete.pending and not record,
                    pending_label="Completing…",
                )
                if not record
                else "",
                Button(
                    "Record payment" if record else "Complete visit",
                    type="submit",
                    pending=busy,
                    pending_label="Recording…" if record else "Completing…",
                ),
            ),
            on_submit=submit,
        ),
        open=True,
        description=f"{visit.service_name} with {who}, {format_slot(visit.starts_at, time_zone)}.",
        on_close=close,
        busy=busy,
        id="collect-appt",
        class_name="appt-modal",
    )
