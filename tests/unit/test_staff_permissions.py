"""The staff portal's permission matrix (SPEC §6), through the services, on SQLite and PostgreSQL.

Every kind of account — patient, provider, owner, admin, management, hr, support, an inactive support
member, and a support member given manage_staff as an extra — against every staff section (the sidebar is
computed by `visible_sections`, the function the frame uses) and every staff service action: staff
management, tasks, the dashboard's reads and confirm, the audit log and the help desk. An action is
'allowed' when the service does not answer PermissionDenied.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.services.errors import PermissionDenied
from app.services.staff import (
    add_staff,
    add_task,
    confirm_visit,
    get_staff_access,
    get_staff_dashboard,
    list_staff,
    list_tasks,
    list_todays_appointments,
    open_visit,
    read_audit_log,
    remove_staff,
    update_staff,
)
from app.services.support import assign_ticket, list_tickets, open_ticket, reply_to_ticket, set_ticket_status
from components.staff_frame import visible_sections
from models.account import Role
from models.booking import AppointmentStatus
from models.staff import Permission
from tests.factories import person, run
from tests.unit.test_staff import clinic, visit

NY = "America/New_York"

ALWAYS = {"Dashboard", "Notifications", "Documentation", "Settings"}
MANAGEMENT_MENU = ALWAYS | {
    "Analytics",
    "Provider Management",
    "Verification Requests",
    "Revenue Reports",
    "Advertisement Management",
    "Help Desk",
    "Appointments",
}
HR_MENU = ALWAYS | {
    "Analytics",
    "Help Desk",
    "Staff Management",
    "Careers",  # job postings and applications: manage_staff (issue 17)
    "Provider Onboarding",
    "Content Moderation",
    "Document Approvals",
    "Appointments",
    "Help Center",  # the public Help Center's articles: HR and owners write them (issue 16)
}
SUPPORT_MENU = ALWAYS | {"Help Desk", "Appointments"}
OWNER_MENU = MANAGEMENT_MENU | HR_MENU | {"Audit Log", "Invoices", "Products", "Store Orders"}
OWNER_MENU |= {"Corporate Leads", "Contracts", "Organizations"}  # the corporate desk (issue 17)

# persona: (role, extra permissions, active)
PERSONAS = {
    "patient": (Role.patient, (), True),
    "provider": (Role.provider, (), True),
    "owner": (Role.owner, (), True),
    "admin": (Role.admin, (), True),
    "management": (Role.management, (), True),
    "hr": (Role.hr, (), True),
    "support": (Role.support, (), True),
    "inactive support": (Role.support, (), False),
    "support + manage_staff": (Role.support, (Permission.manage_staff,), True),
}
NOT_STAFF = {"patient", "provider", "admin", "inactive support"}
STAFF = set(PERSONAS) - NOT_STAFF
TEAM = {"owner", "hr", "support + manage_staff"}
DESK = STAFF  # every active staff role holds view_support_tickets

MENU = {
    "owner": OWNER_MENU,
    "management": MANAGEMENT_MENU,
    "hr": HR_MENU,
    "support": SUPPORT_MENU,
    "support + manage_staff": SUPPORT_MENU | {"Staff Management", "Careers"},
}
# action: who may
EXPECTED = {
    "list staff": TEAM,
    "add staff": TEAM,
    "update staff": TEAM,
    "remove staff": TEAM,
    "add task": STAFF,
    "list tasks": STAFF,
    "dashboard figures": STAFF,
    "today's appointments": STAFF,
    "open a visit": STAFF,
    "confirm a visit": {"owner", "management"},
    "read the audit log": {"owner"},
    "list tickets": DESK,
    "reply to a ticket": DESK,
    "assign a ticket to oneself": DESK,
    "set a ticket's status": DESK,
}


@pytest.mark.parametrize("name", list(PERSONAS))
async def test_permission_matrix(identity, name) -> None:
    role, extras, active = PERSONAS[name]
    me = await person(role, name.title(), extras=extras, active=active)
    patient, colleague, newcomer = (
        await person(Role.patient),
        await person(Role.support),
        await person(Role.patient),
    )
    ticket = await run(
        open_ticket, actor=patient.actor, category="billing", subject="Refund", description="Please."
    )
    place = await clinic()
    start = datetime(2030, 1, 7, 15, tzinfo=UTC)  # a Monday
    pending = await visit(place, patient, start, AppointmentStatus.pending)

    actions = {
        "list staff": lambda: run(list_staff, actor=me.actor),
        "add staff": lambda: run(add_staff, actor=me.actor, email=newcomer.email, role="support"),
        "update staff": lambda: run(update_staff, actor=me.actor, user_id=colleague.id, extra_permissions=[]),
        "remove staff": lambda: run(remove_staff, actor=me.actor, user_id=colleague.id),
        "add task": lambda: run(add_task, actor=me.actor, description="Check the fridge log"),
        "list tasks": lambda: run(list_tasks, actor=me.actor),
        "dashboard figures": lambda: run(get_staff_dashboard, actor=me.actor, time_zone=NY),
        "today's appointments": lambda: run(list_todays_appointments, actor=me.actor, time_zone=NY),
        "open a visit": lambda: run(open_visit, actor=me.actor, appointment_id=pending),
        "confirm a visit": lambda: run(confirm_visit, actor=me.actor, appointment_id=pending),
        "read the audit log": lambda: run(read_audit_log, actor=me.actor, time_zone=NY),
        "list tickets": lambda: run(list_tickets, actor=me.actor),
        "reply to a ticket": lambda: run(
            reply_to_ticket, actor=me.actor, ticket_id=ticket.id, content="On it."
        ),
        "assign a ticket to oneself": lambda: run(
            assign_ticket, actor=me.actor, ticket_id=ticket.id, assignee_id=me.id
        ),
        "set a ticket's status": lambda: run(
            set_ticket_status, actor=me.actor, ticket_id=ticket.id, status="waiting"
        ),
    }
    allowed = set()
    for action, call in actions.items():
        try:
            await call()
        except PermissionDenied:
            continue
        allowed.add(action)

    assert allowed == {action for action, who in EXPECTED.items() if name in who}

    try:
        access = await run(get_staff_access, actor=me.actor)
    except PermissionDenied:
        assert name in NOT_STAFF
    else:
        assert {section.label for section in visible_sections(access)} == MENU[name]
