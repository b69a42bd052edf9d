"""Staff Management (/staff/team, manage_staff): the staff list, adding someone by e-mail (an invitation
when they have no account yet), changing a member's role, extra permissions and active flag, and removing
them. The rules live in app/services/staff.py; this screen only offers what they allow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_ref, use_state
from reactpy_router import use_search_params

from app.services.staff import (
    ASSIGNABLE_ROLES,
    STAFF_ROLES,
    TOPIC,
    StaffAccessRead,
    StaffPageRead,
    add_staff,
    effective_permissions,
    list_staff,
    remove_staff,
    update_staff,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from components.staff_frame import (
    StaffFrame,
    StaffSection,
    loading_notice,
    role_label,
    use_staff_access,
)
from components.ui import modal, modal_actions, notice, portal_header
from models.account import Role
from models.staff import Permission, StaffMemberRead

PATH = "/staff/team"
ADDED, UPDATED, REMOVED = "Staff Added", "Staff Updated", "Staff Removed"


def permission_label(permission: Permission) -> str:
    """'view_support_tickets' → 'View support tickets'."""
    return permission.value.replace("_", " ").capitalize()


def page_number(params: dict[str, list[str]]) -> int:
    value = (params.get("page") or ["1"])[0]
    return int(value) if value.isdigit() and int(value) > 0 else 1


def roles_for(access: StaffAccessRead | None) -> tuple[Role, ...]:
    """The roles this manager may hand out (the owner role only by an owner)."""
    return ASSIGNABLE_ROLES if access is not None and access.is_owner else STAFF_ROLES


@component
def TeamPage() -> dict:
    return StaffFrame(StaffSection(_Team, slug="team"), active="team")


@component
def _Team() -> dict:
    session = use_session()
    access = use_staff_access().access
    page = page_number(use_search_params())
    query = use_query(list_staff, actor=session.actor, page=page)
    use_topic(TOPIC, refetch=[query])  # changes made in other tabs and by other managers
    changed = query.refetch

    data = query.data
    if data is None:
        listing: Any = (
            notice(query.error, tone="warning") if query.error else loading_notice("Loading staff…")
        )
    elif not data.members:
        listing = html.p({"class_name": "staff-empty"}, "No staff members on this page.")
    else:
        listing = staff_table(data.members, access, changed)
    return html._(
        portal_header(
            "Staff Management",
            eyebrow="Staff Portal",
            lead="Add people to the staff, set their role and extra permissions, or remove them.",
        ),
        html.div(
            {"class_name": "container portal-body"},
            _AddStaff(access, changed),
            html.section(
                {"class_name": "staff-card", "aria-labelledby": "team-list-title"},
                html.div(
                    {"class_name": "staff-card-head"},
                    html.h2({"id": "team-list-title"}, "Staff members"),
                    html.span({"class_name": "portal-pill"}, str(len(data.members))) if data else "",
                ),
                listing,
                pager(data) if data is not None and (data.page > 1 or data.has_more) else "",
            ),
        ),
    )


def pager(data: StaffPageRead) -> dict:
    return html.nav(
        {"class_name": "staff-pager", "aria-label": "Staff pages"},
        html.a(
            {"class_name": "btn btn-sm btn-outline", "href": f"{PATH}?page={data.page - 1}"}, "Previous page"
        )
        if data.page > 1
        else "",
        html.a({"class_name": "btn btn-sm btn-outline", "href": f"{PATH}?page={data.page + 1}"}, "Next page")
        if data.has_more
        else "",
    )


# ---- adding ------------------------------------------------------------------------------------------


@component
def _AddStaff(access: StaffAccessRead | None, on_added: Callable[[], None]) -> dict:
    session = use_session()
    form = use_form(email="", name="", role=Role.support.value)
    adding = use_action(add_staff)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        member = await adding.run(
            actor=session.actor,
            email=form.values.get("email", ""),
            name=form.values.get("name", ""),
            role=form.values.get("role", Role.support.value),
        )
        if member is not None:
            session.toaster.success(ADDED, f"{member.email} joined the staff as {role_label(member.role)}.")
            form.reset(email="", name="", role=Role.support.value)
            on_added()

    return html.section(
        {"class_name": "staff-card", "aria-labelledby": "team-add-title"},
        html.div({"class_name": "staff-card-head"}, html.h2({"id": "team-add-title"}, "Add staff member")),
        html.p(
            {"class_name": "staff-card-lead"},
            "Enter the e-mail address of an existing account, or of someone new: they get an invitation "
            "to set a password.",
        ),
        html.form(
            {"class_name": "form team-add", "on_submit": submit},
            html.div(
                {"class_name": "team-field"},
                html.label({"html_for": "team-email"}, "E-mail"),
                html.input(
                    form.field(
                        "email",
                        id="team-email",
                        type="email",
                        autoComplete="off",
                        maxLength=255,
                        required=True,
                        placeholder="name@example.com",
                    )
                ),
            ),
            html.div(
                {"class_name": "team-field"},
                html.label({"html_for": "team-name"}, "Name (for an invitation)"),
                html.input(
                    form.field("name", id="team-name", type="text", maxLength=200, placeholder="Optional")
                ),
            ),
            html.div(
                {"class_name": "team-field"},
                html.label({"html_for": "team-role"}, "Role"),
                html.select(
                    form.field("role", id="team-role"),
                    *(
                        html.option({"value": r.value, "key": r.value}, role_label(r))
                        for r in roles_for(access)
                    ),
                ),
            ),
            html.button(
                {
                    "class_name": "btn btn-primary team-add-submit",
                    "type": "submit",
                    "disabled": adding.pending,
                },
                icon("user-plus", size=18),
                "Adding…" if adding.pending else "Add staff",
            ),
        ),
    )


# ---- the list ------------------------------------------------------------------------------------------


def staff_table(
    members: list[StaffMemberRead], access: StaffAccessRead | None, on_change: Callable[[], None]
) -> dict:
    return html.table(
        {"class_name": "staff-table"},
        html.thead(
            html.tr(
                *(
                    html.th({"scope": "col", "key": h}, h)
                    for h in ("Name", "Role", "Status", "Permissions", "Since", "Actions")
                )
            )
        ),
        html.tbody(*(_MemberRow(m, access, on_change, key=m.user_id) for m in members)),
    )


def may_manage(member: StaffMemberRead, access: StaffAccessRead | None) -> bool:
    """Whether the signed-in manager can edit or remove `member` (never themselves; an owner only by an
    owner). The service enforces the same."""
    if access is None or member.user_id == access.user_id:
        return False
    return member.role != Role.owner or access.is_owner


@component
def _MemberRow(
    member: StaffMemberRead, access: StaffAccessRead | None, on_change: Callable[[], None]
) -> dict:
    dialog, set_dialog = use_state(None)  # None, "edit" or "remove"
    is_me = access is not None and member.user_id == access.user_id

    def close() -> None:
        set_dialog(None)

    extras = len(member.extra_permissions)
    return html.tr(
        {"class_name": "" if member.active else "staff-inactive"},
        html.td(
            {"data-label": "Name"},
            html.div(
                {"class_name": "team-who"},
                html.span(
                    {"class_name": "team-name"},
                    member.name,
                    html.span({"class_name": "portal-pill"}, "You") if is_me else "",
                ),
                html.span({"class_name": "team-email"}, member.email),
            ),
        ),
        html.td(
            {"data-label": "Role"},
            html.span({"class_name": f"role-badge role-{member.role.value}"}, role_label(member.role)),
        ),
        html.td(
            {"data-label": "Status"},
            html.span(
                {"class_name": "status-pill" + (" status-on" if member.active else "")},
                member.status.capitalize(),
            ),
        ),
        html.td(
            {"data-label": "Permissions"},
            f"{len(member.permissions)}" + (f" ({extras} extra)" if extras else ""),
        ),
        html.td({"data-label": "Since"}, format_date(member.created_at)),
        html.td(
            {"data-label": "Actions", "class_name": "team-actions"},
            member_actions(member, set_dialog)
            if may_manage(member, access)
            else html.span({"class_name": "hint"}, "Your access" if is_me else "Owner only"),
            _EditMember(member, access, close, on_change) if dialog == "edit" else "",
            _RemoveMember(member, close, on_change) if dialog == "remove" else "",
        ),
    )


def member_actions(member: StaffMemberRead, open_dialog: Callable[[str], None]) -> dict:
    return html._(
        html.button(
            {
                "class_name": "btn btn-sm btn-outline",
                "type": "button",
                "aria-label": f"Edit {member.name}",
                "on_click": lambda _e: open_dialog("edit"),
            },
            icon("edit", size=15),
            "Edit",
        ),
        html.button(
            {
                "class_name": "btn btn-sm btn-ghost team-remove",
                "type": "button",
                "aria-label": f"Remove {member.name}",
                "on_click": lambda _e: open_dialog("remove"),
            },
            icon("trash", size=15),
            "Remove",
        ),
    )


@component
def _EditMember(
    member: StaffMemberRead,
    access: StaffAccessRead | None,
    on_close: Callable[[], None],
    on_change: Callable[[], None],
) -> dict:
    session = use_session()
    role, set_role = use_state(member.role)  # re-renders: the role decides which boxes it grants
    # The boxes are uncontrolled (they tick at once, no render per click); their state is kept here.
    extras = use_ref(set(member.extra_permissions)).current
    active = use_ref({"on": member.active}).current
    saving = use_action(update_staff)
    is_owner_role = role == Role.owner
    granted = effective_permissions(role)
    held = access.permissions if access else frozenset()

    @event(prevent_default=True)
    async def save(_event: dict) -> None:
        changes: dict[str, Any] = {"role": role}
        if not is_owner_role:
            changes |= {"extra_permissions": sorted(extras - granted), "active": active["on"]}
        updated = await saving.run(actor=session.actor, user_id=member.user_id, **changes)
        if updated is not None:
            session.toaster.success(UPDATED, f"{updated.name}: {role_label(updated.role)}, {updated.status}.")
            on_close()
            on_change()

    def toggle(permission: Permission, event: dict) -> None:
        (extras.add if event["target"]["checked"] else extras.discard)(permission)

    def permission_box(permission: Permission) -> dict:
        from_role = permission in granted
        box_id = f"perm-{member.user_id}-{permission.value}"
        return html.li(
            {"key": permission.value, "class_name": "perm-item"},
            html.input(
                {
                    "type": "checkbox",
                    "id": box_id,
                    "defaultChecked": from_role or permission in extras,
                    "key": f"{permission.value}-{role.value}",
                    # Granted by the role, or one the manager does not hold: not theirs to change.
                    "disabled": from_role or (permission not in held and permission not in extras),
                    "on_change": lambda e: toggle(permission, e),
                }
            ),
            html.label(
                {"html_for": box_id},
                permission_label(permission),
                html.span({"class_name": "perm-source"}, " (role)") if from_role else "",
            ),
        )

    return modal(
        f"edit-{member.user_id}",
        f"Edit {member.name}",
        html.form(
            {"class_name": "form", "on_submit": save},
            html.label({"html_for": f"role-{member.user_id}"}, "Role"),
            html.select(
                {
                    "id": f"role-{member.user_id}",
                    "defaultValue": member.role.value,
                    "on_change": lambda e: set_role(Role(e["target"]["value"])),
                },
                *(html.option({"value": r.value, "key": r.value}, role_label(r)) for r in roles_for(access)),
            ),
            html.p({"class_name": "hint"}, "An owner has every permission and is always active.")
            if is_owner_role
            else html._(
                html.div(
                    {"class_name": "perm-active"},
                    html.input(
                        {
                            "type": "checkbox",
                            "id": f"active-{member.user_id}",
                            "defaultChecked": active["on"],
                            "on_change": lambda e: active.update(on=e["target"]["checked"]),
                        }
                    ),
                    html.label(
                        {"html_for": f"active-{member.user_id}"}, "Active (an inactive member has no access)"
                    ),
                ),
                html.fieldset(
                    {"class_name": "perm-set"},
                    html.legend("Permissions"),
                    html.p(
                        {"class_name": "hint perm-hint"},
                        "Those marked (role) come with the role; tick any extra ones. You can hand out only "
                        "permissions you hold yourself.",
                    ),
                    html.ul({"class_name": "perm-list"}, *(permission_box(p) for p in Permission)),
                ),
            ),
            modal_actions(
                cancel="Cancel",
                submit="Saving…" if saving.pending else "Save changes",
                on_cancel=on_close,
                busy=saving.pending,
            ),
        ),
        on_close=on_close,
        busy=saving.pending,
        class_name="staff-modal",
    )


@component
def _RemoveMember(
    member: StaffMemberRead, on_close: Callable[[], None], on_change: Callable[[], None]
) -> dict:
    session = use_session()
    removing = use_action(remove_staff)

    @event(prevent_default=True)
    async def confirm(_event: dict) -> None:
        removed = await removing.run(actor=session.actor, user_id=member.user_id)
        if removed is not None:
            session.toaster.success(REMOVED, f"{removed.name} is no longer on the staff.")
            on_close()
            on_change()

    return modal(
        f"remove-{member.user_id}",
        f"Remove {member.name}?",
        html.form(
            {"on_submit": confirm},
            modal_actions(
                cancel="Cancel",
                submit="Removing…" if removing.pending else "Remove",
                on_cancel=on_close,
                busy=removing.pending,
                submit_class="btn-danger",
            ),
        ),
        on_close=on_close,
        busy=removing.pending,
        lead=f"{member.email} loses access to the staff portal; their account becomes a patient account.",
    )
