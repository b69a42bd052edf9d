"""A visit's details on /staff/appointments, in a dialog: the visit, the patient's records when the member
holds view_patient_logs (the read is audited; without the permission they are never sent), and with
manage_appointments the actions on a pending or confirmed visit — confirm, reassign to another provider who
is free at its time, reschedule to an open time of its provider, cancel on the patient's behalf with a
reason; with process_payments, the visit's money, its refunds and the Refund / Give credit commands
(components/visit_money.py). Each action's rules and notifications are app.services.appointments'; refusals
show in the dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict

from app.services.appointments import (
    cancel_visit_for_patient,
    get_staff_visit,
    list_reassign_options,
    list_staff_reschedule_times,
    reassign_visit,
    reschedule_visit_for_patient,
)
from app.services.staff import confirm_visit
from components.context import use_session
from components.format import format_currency, format_money, format_slot, format_time
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    QueryView,
    Select,
    ServerForm,
    TextArea,
    UserText,
    dialog_actions,
    facts,
    form_error,
    staff_empty,
)
from components.staff_frame import use_staff_permissions
from components.visit_money import VisitMoney
from models.booking import AppointmentRead, AppointmentStatus
from models.staff import Permission
from models.staff_visits import MAX_REASON, StaffVisitDetails, StaffVisitRow

CHANGEABLE = (AppointmentStatus.pending, AppointmentStatus.confirmed)
DONE = {
    "confirm": "Visit confirmed",
    "reassign": "Visit reassigned",
    "reschedule": "Visit rescheduled",
    "cancel": "Visit cancelled",
}


VISIT_FACTS = "settings-facts visit-facts"


def status_badge(status: AppointmentStatus) -> VdomDict:
    return Badge(status.label, tone=None, class_name=f"visit-status visit-{status.value}")


def address_text(street: str, city: str, state: str, zip_code: str) -> str:
    """'711 Sunset Blvd, Los Angeles, CA 90064' (the parts there are)."""
    return ", ".join(part for part in (street, city, f"{state} {zip_code}".strip()) if part)


def when_text(v: StaffVisitRow, time_zone: str) -> str:
    return f"{format_slot(v.starts_at, time_zone)} – {format_time(v.ends_at, time_zone)}"


@component
def VisitDialog(appointment_id: str, on_close: Callable[[], None], on_changed: Callable[[], None]) -> Any:
    session = use_session()
    permissions = use_staff_permissions()
    query = use_query(get_staff_visit, appointment_id=appointment_id)
    mode, set_mode = use_state("details")
    problem, set_problem = use_state("")

    def done(kind: str) -> Callable[[AppointmentRead], None]:
        def after(result: AppointmentRead) -> None:
            set_problem("")
            set_mode("details")
            session.toaster.success(DONE[kind], f"{result.service_name} · {result.provider_name}")
            on_changed()

        return after

    confirming = use_action(confirm_visit, refetch=[query], on_success=done("confirm"), on_error=set_problem)
    details = query.data
    manage = Permission.manage_appointments in permissions
    can_change = manage and details is not None and details.visit.status in CHANGEABLE
    title = {
        "details": "Visit details",
        "reassign": "Reassign the visit",
        "reschedule": "Reschedule the visit",
        "cancel": "Cancel the visit",
    }[mode]

    def back() -> None:
        set_problem("")
        set_mode("details")

    async def confirm() -> None:
        await confirming.run(appointment_id=appointment_id)

    if mode == "details" or details is None:
        body: Any = html._(
            QueryView(
                query, lambda d: details_view(d, session.time_zone), loading_label="Loading the visit…"
            ),
            money_section(appointment_id, permissions, on_changed),
        )
        buttons: list[VdomDict | str] = [Button("Close", variant="ghost", on_click=on_close)]
        if can_change and details is not None:
            buttons = [
                Button("Confirm", on_click=confirm, pending=confirming.pending)
                if details.visit.status is AppointmentStatus.pending
                else "",
                Button("Reassign", variant="outline", on_click=lambda: set_mode("reassign")),
                Button("Reschedule", variant="outline", on_click=lambda: set_mode("reschedule")),
                Button("Cancel visit", variant="danger", on_click=lambda: set_mode("cancel")),
                *buttons,
            ]
        footer: Any = dialog_actions(*buttons)
    else:
        common = {
            "visit": details.visit,
            "on_done": done(mode),
            "on_error": set_problem,
            "on_back": back,
            "refetch": query,
        }
        body = {
            "reassign": lambda: _Reassign(**common, key="reassign"),
            "reschedule": lambda: _Reschedule(**common, key="reschedule"),
            "cancel": lambda: _Cancel(
                **common, can_refund=Permission.process_payments in permissions, key="cancel"
            ),
        }[mode]()
        footer = None
    return Dialog(
        title,
        form_error(problem),
        body,
        footer=footer,
        open=True,
        on_close=on_close,
        description=details_description(details, session.time_zone),
        id="staff-visit",
        class_name="staff-modal visit-dialog",
        busy=confirming.pending,
    )


def money_section(
    appointment_id: str, permissions: frozenset[Permission], on_changed: Callable[[], None]
) -> Any:
    """The visit's money, its refunds and the Refund / Give credit forms: for process_payments only."""
    if Permission.process_payments not in permissions:
        return ""
    return VisitMoney(appointment_id, on_changed, key=f"money-{appointment_id}")


def details_description(details: StaffVisitDetails | None, time_zone: str) -> str:
    if details is None:
        return "Loading…"
    v = details.visit
    return f"{v.service_name} with {v.provider_name}, {when_text(v, time_zone)}."


def payment_facts(d: StaffVisitDetails) -> list[tuple[str, Any]]:
    """Pay at visit (issue 29): "Payment due $X" on a completed visit not paid in full, or how it was
    collected in person; nothing for a visit paid at booking."""
    pay = d.payment
    if pay is None or pay.paid_ahead or d.visit.status is not AppointmentStatus.completed:
        return []
    if pay.due > 0:
        return [("Payment", Badge(f"Payment due {format_money(pay.due)}", tone="warning"))]
    method = {"card_reader": "card reader"}.get(pay.collection_method or "", pay.collection_method or "")
    return [
        ("Payment", f"Collected at visit{f' ({method})' if method else ''}: {format_money(pay.collected)}")
    ]


def details_view(d: StaffVisitDetails, time_zone: str) -> VdomDict:
    v = d.visit
    local = v.starts_at.astimezone(ZoneInfo(v.provider_time_zone))
    visit_facts = [
        ("Status", status_badge(v.status)),
        ("When", f"{when_text(v, time_zone)} (your time zone)"),
        ("At the visit", f"{format_time(local, v.provider_time_zone)} {local:%Z}, the provider's time zone"),
        ("Service", f"{v.service_name} ({v.service_line})"),
        ("Provider", UserText(v.provider_name)),
        ("Place", f"{v.location.label}{', ' + v.metro if v.metro else ''}"),
        ("Order", v.order_number or "—"),
        ("Price", format_currency(v.price)),
        *payment_facts(d),
    ]
    if v.status is AppointmentStatus.cancelled:
        by = {"patient": "the patient", "provider": "the provider", "staff": "staff"}.get(v.cancelled_by, "—")
        visit_facts.append(("Cancelled by", by))
        visit_facts.append(("Reason", UserText(v.cancel_reason) if v.cancel_reason else "None given"))
    patient: Any
    if d.patient is None:
        patient = html.p(
            {"class_name": "visit-restricted"},
            "The patient's name, contact details, address and intake notes need the view patient logs permission.",
        )
    else:
        p = d.patient
        patient = html._(
            facts(
                ("Name", UserText(p.name)),
                ("E-mail", html.a({"href": f"mailto:{p.email}"}, p.email) if p.email else "Not given"),
                ("Phone", html.a({"href": f"tel:{p.phone}"}, p.phone) if p.phone else "Not given"),
                (
                    "Address",
                    UserText(address_text(p.address_line, v.city, v.state, p.zip_code)) or "—",
                ),
                ("Intake notes", UserText(p.notes) if p.notes else "None"),
                class_name=VISIT_FACTS,
            ),
            html.p(
                {"class_name": "visit-zone"},
                "Opening a visit's patient details is recorded in the audit log.",
            ),
        )
    return html.div(
        {"class_name": "visit-details"},
        facts(*visit_facts, class_name=VISIT_FACTS),
        html.h3({"class_name": "visit-day-title"}, "Patient"),
        patient,
    )


# ---- the actions -----------------------------------------------------------------------------------
@component
def _Reassign(visit: StaffVisitRow, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    options = use_query(list_reassign_options, appointment_id=visit.id)
    form = use_form(provider="")
    action = use_action(reassign_visit, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        chosen = str(form.values.get("provider", ""))
        if not chosen:
            on_error("Choose the provider to give the visit to.")
            return
        await action.run(appointment_id=visit.id, provider_id=chosen)

    def choose(found: list) -> Component:
        return Select(
            "New provider",
            "provider",
            form=form,
            id="reassign-provider",
            placeholder="Choose a provider",
            options=[
                (
                    o.provider_id,
                    f"{o.name} ({o.rating:.1f}★, {o.review_count} reviews)"
                    if o.rating
                    else f"{o.name} (no reviews yet)",
                )
                for o in found
            ],
            hint="Only providers who offer this service, travel to the visit's ZIP code and are free at its time.",
            required=True,
        )

    return ServerForm(
        QueryView(
            options,
            choose,
            empty=staff_empty("No other provider can take this visit at its time."),
            loading_label="Finding providers who are free…",
        ),
        html.p(
            {"class_name": "visit-zone"},
            "The patient and both providers are told; the new provider confirms it.",
        ),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Reassign visit", type="submit", pending=action.pending, disabled=not options.data),
        ),
        on_submit=submit,
        id="reassign-form",
    )


@component
def _Reschedule(visit: StaffVisitRow, on_done, on_error, on_back, refetch) -> Any:  # noqa: ANN001
    session = use_session()
    zone = ZoneInfo(session.time_zone)
    day, set_day = use_state(visit.starts_at.astimezone(zone).date())
    times = use_query(
        list_staff_reschedule_times,
        appointment_id=visit.id,
        day=day,
        time_zone=session.time_zone,
    )
    form = use_form(day=day.isoformat(), time="")
    action = use_action(
        reschedule_visit_for_patient, refetch=[refetch], on_success=on_done, on_error=on_error
    )

    def pick_day(text: str) -> None:
        try:
            set_day(date.fromisoformat(text))
        except ValueError:
            return

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        chosen = str(form.values.get("time", ""))
        try:
            starts_at = datetime.fromisoformat(chosen)
        except ValueError:
            on_error("Choose one of the open times.")
            return
        await action.run(appointment_id=visit.id, starts_at=starts_at)

    def choose(found: list[datetime]) -> Component:
        return Select(
            "New time",
            "time",
            form=form,
            id="reschedule-time",
            placeholder="Choose a time",
            options=[(t.isoformat(), format_time(t, session.time_zone)) for t in found],
            hint=f"Open times of {visit.provider_name} that day, in your time zone.",
            required=True,
            key=day.isoformat(),
        )

    return ServerForm(
        Field("Day", "day", form=form, id="reschedule-day", type="date", max_length=10, on_change=pick_day),
        QueryView(
            times,
            choose,
            empty=staff_empty("No open time that day. Choose another day."),
            loading_label="Finding open times…",
        ),
        html.p(
            {"class_name": "visit-zone"},
            "The patient and the provider are told; the provider confirms the new time.",
        ),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Move visit", type="submit", pending=action.pending, disabled=not times.data),
        ),
        on_submit=submit,
        id="reschedule-form",
    )


@component
def _Cancel(visit: StaffVisitRow, on_done, on_error, on_back, refetch, can_refund: bool) -> Any:  # noqa: ANN001
    form = use_form(reason="", refund_exception="")
    action = use_action(cancel_visit_for_patient, refetch=[refetch], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await action.run(
            appointment_id=visit.id,
            reason=str(form.values.get("reason", "")),
            refund_exception=str(form.values.get("refund_exception", "")) if can_refund else "",
        )

    return ServerForm(
        TextArea(
            "Reason",
            "reason",
            form=form,
            id="cancel-reason",
            rows=3,
            required=True,
            max_length=MAX_REASON,
            hint="The patient and the provider read it.",
        ),
        Field(
            "Refund exception (optional)",
            "refund_exception",
            form=form,
            id="cancel-refund-exception",
            max_length=MAX_REASON,
            hint="Only for money paid ahead, inside 24 hours of the visit: why it is refunded anyway.",
        )
        if can_refund
        else "",
        html.p({"class_name": "visit-zone"}, "The visit's money is settled by the refund policy."),
        dialog_actions(
            Button("Back", variant="ghost", on_click=on_back),
            Button("Cancel visit", type="submit", variant="danger", pending=action.pending),
        ),
        on_submit=submit,
        id="cancel-form",
    )
