"""The Staff Dashboard (/staff, SPEC §2): today's date, four stat cards, today's visits, the member's own
tasks and quick actions, all from the database (app/services/staff_dashboard.py, staff_tasks.py).

A figure or list the member's permissions do not cover is left out rather than shown empty. 'Join' opens
a confirmed visit's details (recorded in the audit log); 'Confirm' confirms a pending one
(manage_appointments). Quick actions are only the ones that lead somewhere real.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, event, html, use_ref, use_state
from reactpy.types import Component, State, VdomDict
from reactpy.utils import Ref

from app.services.staff import (
    add_task,
    confirm_visit,
    delete_task,
    edit_task,
    get_staff_dashboard,
    list_tasks,
    list_todays_appointments,
    open_visit,
    set_task_done,
)
from components.context import use_session
from components.format import format_currency, format_date, format_slot, format_time
from components.forms import Form, use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    QueryView,
    Select,
    StaffCard,
    StatCard,
    UserText,
    dialog_actions,
    facts,
    isolate,
    pill,
    shortcut_links,
    staff_empty,
    staff_list,
    staff_row,
    staff_screen,
    stat_group,
)
from components.staff_frame import use_staff_access, use_staff_permissions
from models.booking import AppointmentRead, AppointmentStatus
from models.staff import Permission, StaffTaskRead, TaskPriority

NO_APPOINTMENTS = "No appointments scheduled for today"
NO_TASKS = "No pending tasks"
NO_TASKS_AT_ALL = "No tasks yet"
MINUS = "\u2212"
JOINABLE = (AppointmentStatus.confirmed, AppointmentStatus.in_progress)


def _nothing() -> None:
    pass


def change_text(change: int | None, rate: int | None) -> str:
    """'+12% from last week', '−4% from last week' (a true minus sign), or why there is no comparison."""
    if rate is None:
        return "No visits due yet this week"
    if change is None:
        return "No visits last week to compare"
    return f"{'+' if change >= 0 else MINUS}{abs(change)}% from last week"


@component
def StaffDashboard() -> VdomDict:
    session = use_session()
    access = use_staff_access().access
    # The stat cards bind their query's refetch here: a change below reloads the figures, not this page.
    reload_figures = use_ref(_nothing)
    today = datetime.now(UTC).astimezone(ZoneInfo(session.time_zone)).date()
    permissions = access.permissions if access else frozenset()

    def changed() -> None:
        reload_figures.current()

    return staff_screen(
        "Staff Dashboard",
        _StatCards(reload_figures, Permission.view_analytics in permissions),
        html.div(
            {"class_name": "staff-panels"},
            _TodaysAppointments(changed, Permission.manage_appointments in permissions)
            if Permission.view_appointments in permissions
            else "",
            _Tasks(changed),
        ),
        quick_actions(permissions),
        lead=html._("Welcome back, " if session.returning else "Welcome, ", UserText(access.name), ".")
        if access
        else None,
        header=(
            html.p(
                {"class_name": "portal-date"},
                icon("calendar", size=18),
                html.time({"date_time": today.isoformat()}, f"{today:%A}, {format_date(today)}"),
            ),
        ),
        body_class="staff-dashboard",
    )


# ---- the four stat cards ------------------------------------------------------------------------------


@component
def _StatCards(reload: Ref[Callable[[], None]], show_activity: bool) -> VdomDict:
    session = use_session()
    query = use_query(get_staff_dashboard, time_zone=session.time_zone)
    reload.current = query.refetch
    return QueryView(
        query, lambda figures: stat_cards(figures, show_activity), loading_label="Loading figures…"
    )


def stat_cards(figures: Any, show_activity: bool) -> VdomDict:
    cards = []
    if figures.appointments is not None:
        cards.append(
            stat_card(
                "Today's Appointments",
                str(figures.appointments),
                f"{figures.completed_appointments} completed",
                "calendar",
            )
        )
    if figures.active_patients is not None:
        cards.append(
            stat_card(
                "Active Patients",
                str(figures.active_patients),
                f"+{figures.new_patients_today} new today",
                "users",
            )
        )
    cards.append(
        stat_card(
            "Completed Tasks", str(figures.tasks_completed), f"{figures.upcoming_tasks} remaining", "check"
        )
    )
    if show_activity:
        rate = figures.activity_rate
        cards.append(
            stat_card(
                "Activity Rate",
                f"{rate}%" if rate is not None else "—",
                change_text(figures.activity_change, rate),
                "chart",
                trend=figures.activity_change,
            )
        )
    return stat_group(*cards, label="Today at a glance")


def stat_card(label: str, value: str, detail: str, icon_name: str, *, trend: int | None = None) -> VdomDict:
    return StatCard(label, value, hint=detail, icon=icon_name, trend=trend)


# ---- today's appointments ----------------------------------------------------------------------------


@component
def _TodaysAppointments(on_change: Callable[[], None], can_confirm: bool) -> VdomDict:
    session = use_session()
    query = use_query(list_todays_appointments, time_zone=session.time_zone)
    open_one_state: State[AppointmentRead | None] = use_state(None)
    open_one, set_open_one = open_one_state
    records = Permission.view_patient_logs in use_staff_permissions()
    viewing = use_action(open_visit)
    confirming = use_action(confirm_visit, refetch=[query])

    async def join(visit: AppointmentRead) -> None:
        details = await viewing.run(appointment_id=visit.id)
        if details is not None:
            set_open_one(details)

    async def confirm(visit: AppointmentRead) -> None:
        if await confirming.run(appointment_id=visit.id) is not None:
            session.toaster.success(
                "Appointment confirmed", f"{isolate(visit.patient_name)} · {visit.service_name}"
            )
            on_change()  # the Today's Appointments card

    visits = query.data
    body = QueryView(
        query,
        lambda visits: staff_list(
            *(
                appointment_row(
                    visit,
                    session.time_zone,
                    join=join,
                    confirm=confirm if can_confirm else None,
                    busy=viewing.pending or confirming.pending,
                )
                for visit in visits
            ),
        ),
        empty=staff_empty(NO_APPOINTMENTS),
    )
    return StaffCard(
        "Today's Appointments",
        body,
        html.a(
            {"class_name": "btn btn-outline btn-sm staff-card-link", "href": "/staff/appointments"},
            "View Full Schedule",
        ),
        visit_dialog(
            open_one,
            session.time_zone,
            lambda: set_open_one(None),
            records=records,
        )
        if open_one
        else "",
        title_id="staff-appointments-title",
        head=(pill(str(len(visits))) if visits else "",),
    )


def appointment_row(
    visit: AppointmentRead,
    time_zone: str,
    *,
    join: Callable[[AppointmentRead], Awaitable[None]],
    confirm: Callable[[AppointmentRead], Awaitable[None]] | None,
    busy: bool,
) -> VdomDict:
    async def on_join() -> None:
        await join(visit)

    async def on_confirm() -> None:
        if confirm is not None:
            await confirm(visit)

    if visit.status in JOINABLE:
        action: Any = Button(
            "Join",
            size="sm",
            icon="video",
            disabled=busy,
            aria_label=f"Join the visit with {visit.patient_name}",
            on_click=on_join,
        )
    elif visit.status == AppointmentStatus.pending and confirm is not None:
        action = Button(
            "Confirm",
            variant="outline",
            size="sm",
            disabled=busy,
            aria_label=f"Confirm the visit with {visit.patient_name}",
            on_click=on_confirm,
        )
    else:
        action = Badge(visit.status.label, tone=None, class_name=f"visit-status visit-{visit.status.value}")
    return staff_row(
        format_time(visit.starts_at, time_zone),
        UserText(visit.patient_name, class_name="staff-row-title"),
        (f"{visit.service_name} · ", UserText(visit.provider_name)),
        after=(action,),
        key=visit.id,
    )


HIDDEN_RECORDS = "Shown to members with the view patient logs permission"


def visit_dialog(
    visit: AppointmentRead, time_zone: str, on_close: Callable[[], None], *, records: bool = True
) -> VdomDict:
    """A visit's details. Without `records` (view_patient_logs) the service sent no address or intake
    notes, and the dialog says so instead of showing them as empty."""
    place = ", ".join(
        p for p in (visit.address_line, visit.city, f"{visit.state} {visit.zip_code}".strip()) if p
    )
    rows = (
        ("Patient", UserText(visit.patient_name)),
        ("Service", visit.service_name),
        ("Provider", UserText(visit.provider_name)),
        ("When", f"{format_slot(visit.starts_at, time_zone)} – {format_time(visit.ends_at, time_zone)}"),
        ("Status", visit.status.label),
        ("Where", f"{visit.location.label}{': ' + place if place else ''}"),
        ("Order", visit.order_number or "—"),
        ("Price", format_currency(visit.price)),
        ("Intake notes", UserText(visit.notes) if visit.notes else "None" if records else HIDDEN_RECORDS),
    )
    return Dialog(
        "Visit details",
        facts(*rows, class_name="settings-facts visit-facts"),
        footer=dialog_actions(Button("Close", on_click=on_close)),
        open=True,
        on_close=on_close,
        description="Opening a visit's details is recorded in the audit log.",
        id="visit",
        class_name="staff-modal",
    )


# ---- tasks ---------------------------------------------------------------------------------------------

PRIORITIES = (TaskPriority.high, TaskPriority.medium, TaskPriority.low)


def priority_select(form: Form, control_id: str) -> Component:
    """The task's priority (its label only for screen readers); `form.reset()` remounts it."""
    return Select(
        "Priority",
        "priority",
        form=form,
        id=control_id,
        options=[(p.value, p.value.capitalize()) for p in PRIORITIES],
        default=TaskPriority.medium.value,
        hide_label=True,
        class_name="task-priority",
    )


def priority_badge(priority: TaskPriority) -> VdomDict:
    return Badge(priority.value, tone=None, class_name=f"priority priority-{priority.value}")


@component
def _Tasks(on_change: Callable[[], None]) -> VdomDict:
    show_all, set_show_all = use_state(False)
    query = use_query(list_tasks, include_done=show_all)

    def changed() -> None:
        query.refetch()
        on_change()  # the Completed Tasks card counts them

    body = QueryView(
        query,
        lambda tasks: staff_list(*(_TaskRow(t, changed, key=t.id) for t in tasks), class_name="task-list"),
        empty=staff_empty(NO_TASKS_AT_ALL if show_all else NO_TASKS),
    )
    return StaffCard(
        "All Tasks" if show_all else "Tasks",
        _NewTask(changed),
        body,
        title_id="staff-tasks-title",
        head=(
            html.button(
                {
                    "class_name": "btn btn-sm btn-ghost",
                    "type": "button",
                    "aria-pressed": "true" if show_all else "false",
                    "on_click": lambda _e: set_show_all(not show_all),
                },
                "Show Pending Only" if show_all else "View All Tasks",
            ),
        ),
    )


@component
def _NewTask(on_added: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(description="", priority=TaskPriority.medium.value)
    adding = use_action(add_task)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        task = await adding.run(
            description=form.values.get("description", ""),
            priority=form.values.get("priority", TaskPriority.medium.value),
        )
        if task is not None:
            session.toaster.success("Task added", task.description)
            form.reset(description="", priority=TaskPriority.medium.value)
            on_added()

    return html.form(
        {"class_name": "task-new", "on_submit": submit, "aria-label": "Add a task"},
        Field(
            "New task",
            "description",
            form=form,
            id="task-new-description",
            hide_label=True,
            max_length=300,
            placeholder="Add a task…",
            required=True,
        ),
        priority_select(form, "task-new-priority"),
        Button("Add", type="submit", size="sm", icon="plus", pending=adding.pending),
    )


@component
def _TaskRow(task: StaffTaskRead, on_change: Callable[[], None]) -> VdomDict:
    session = use_session()
    editing, set_editing = use_state(False)
    toggling = use_action(set_task_done)
    deleting = use_action(delete_task)

    async def toggle(_event: dict) -> None:
        done = not task.completed
        if await toggling.run(task_id=task.id, done=done) is not None:
            session.toaster.success("Task completed" if done else "Task reopened", task.description)
            on_change()

    async def remove(_event: dict) -> None:
        if await deleting.run(task_id=task.id) is not None:
            session.toaster.success("Task deleted", task.description)
            on_change()

    if editing:
        return html.li(
            {"class_name": "staff-row task-row task-editing"},
            _TaskEditor(task, lambda: set_editing(False), on_change),
        )
    checkbox_id = f"task-{task.id}"
    return html.li(
        {"class_name": "staff-row task-row" + (" task-done" if task.completed else "")},
        html.input(
            {
                "type": "checkbox",
                "id": checkbox_id,
                "class_name": "task-check",
                # Uncontrolled, so the box ticks at once; a change of state remounts it (the key).
                "default_checked": task.completed,
                "key": f"{task.id}-{task.completed}",
                "disabled": toggling.pending,
                "on_change": toggle,
            }
        ),
        UserText(task.description, tag="label", html_for=checkbox_id, class_name="task-text"),
        priority_badge(task.priority),
        html.div(
            {"class_name": "task-actions"},
            html.button(
                {
                    "class_name": "btn btn-sm btn-ghost",
                    "type": "button",
                    "aria-label": f"Edit task: {task.description}",
                    "on_click": lambda _e: set_editing(True),
                },
                icon("edit", size=15),
                "Edit",
            ),
            html.button(
                {
                    "class_name": "icon-button task-delete",
                    "type": "button",
                    "aria-label": f"Delete task: {task.description}",
                    "disabled": deleting.pending,
                    "on_click": remove,
                },
                icon("trash", size=16),
            ),
        ),
    )


@component
def _TaskEditor(task: StaffTaskRead, on_done: Callable[[], None], on_change: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(description=task.description, priority=task.priority.value)
    saving = use_action(edit_task)
    field_id = f"task-edit-{task.id}"

    @event(prevent_default=True)
    async def save(_event: dict) -> None:
        saved = await saving.run(
            task_id=task.id,
            description=form.values.get("description", ""),
            priority=form.values.get("priority", task.priority.value),
        )
        if saved is not None:
            session.toaster.success("Task updated", saved.description)
            on_done()
            on_change()

    return html.form(
        {"class_name": "task-edit", "on_submit": save, "aria-label": "Edit task"},
        Field(
            "Task",
            "description",
            form=form,
            id=field_id,
            hide_label=True,
            max_length=300,
            control_attributes={"auto_focus": True},
        ),
        priority_select(form, f"{field_id}-priority"),
        html.div(
            {"class_name": "task-actions"},
            Button("Save", type="submit", size="sm", pending=saving.pending),
            Button("Cancel", variant="ghost", size="sm", on_click=on_done),
        ),
    )


# ---- quick actions ----------------------------------------------------------------------------------


def quick_actions(permissions: frozenset[Permission]) -> VdomDict:
    actions = [("New Appointment", "/find-provider", "calendar", "Book a visit with a provider")]
    if Permission.view_support_tickets in permissions:
        actions.append(
            ("Message Patient", "/staff/help-desk?new=1", "message", "Open a help-desk ticket for a customer")
        )
    return StaffCard(
        "Quick Actions",
        shortcut_links(actions),
        title_id="staff-quick-title",
    )
