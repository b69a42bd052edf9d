"""Staff Management (/staff/team, manage_staff): the staff list, adding someone by e-mail (an invitation
when they have no account yet), changing a member's role, extra permissions and active flag, and removing
them. The rules live in app/services/staff.py; this screen only offers what they allow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_ref, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.staff import (
    ASSIGNABLE_ROLES,
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
from components.kit import (
    MAX_PAGE_SIZE,
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    Field,
    ListQuery,
    QueryView,
    Select,
    StaffCard,
    dialog_actions,
    field_group,
    hint,
    page_param,
    pill,
    staff_screen,
)
from components.kit.list_screen import MorePages
from components.staff_frame import StaffFrame, StaffSection, role_label, use_staff_access
from models.account import Role
from models.staff import Permission, StaffMemberRead

PATH = "/staff/team"
ADDED, UPDATED, REMOVED = "Staff Added", "Staff Updated", "Staff Removed"


def permission_label(permission: Permission) -> str:
    """'view_support_tickets' → 'View support tickets'."""
    return permission.value.replace("_", " ").capitalize()


def roles_for(access: StaffAccessRead | None) -> tuple[Role, ...]:
    """The roles this manager may hand out, as the service decides them."""
    return access.grantable_roles if access is not None else ()


@component
def TeamPage() -> Component:
    return StaffFrame(StaffSection(_Team, slug="team"), active="team")


@component
def _Team() -> VdomDict:
    access = use_staff_access().access
    page = page_param(use_search_params())
    query = use_query(list_staff, page=page)
    use_topic(TOPIC, refetch=[query])  # changes made in other tabs and by other managers
    changed = query.refetch

    data = query.data
    return staff_screen(
        "Staff Management",
        _AddStaff(access, changed),
        StaffCard(
            "Staff members",
            QueryView(
                query,
                lambda page_data: staff_table(page_data.members, access, changed),
                loading_label="Loading staff…",
            ),
            staff_pages(data) if data is not None and (data.page > 1 or data.has_more) else "",
            title_id="team-list-title",
            head=(pill(str(len(data.members))) if data else "",),
        ),
        lead="Add people to the staff, set their role and extra permissions, or remove them.",
    )


def staff_pages(data: StaffPageRead) -> VdomDict:
    """Previous / Next by `has_more` (the service does not count the staff, so no 'Page 2 of 5')."""
    return MorePages(data.page, data.has_more, href=ListQuery(PATH).page_href, label="Staff pages")


# ---- adding ------------------------------------------------------------------------------------------


@component
def _AddStaff(access: StaffAccessRead | None, on_added: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(email="", name="", role=Role.support.value)
    adding = use_action(add_staff)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        member = await adding.run(
            email=form.values.get("email", ""),
            name=form.values.get("name", ""),
            role=form.values.get("role", Role.support.value),
        )
        if member is not None:
            session.toaster.success(ADDED, f"{member.email} joined the staff as {role_label(member.role)}.")
            form.reset(email="", name="", role=Role.support.value)
            on_added()

    return StaffCard(
        "Add staff member",
        html.p(
            {"class_name": "staff-card-lead"},
            "Enter the e-mail address of an existing account, or of someone new: they get an invitation "
            "to set a password.",
        ),
        html.form(
            {"class_name": "form team-add", "on_submit": submit},
            Field(
                "E-mail",
                "email",
                form=form,
                id="team-email",
                type="email",
                autocomplete="off",
                max_length=255,
                required=True,
                placeholder="name@example.com",
                class_name="team-field",
            ),
            Field(
                "Name (for an invitation)",
                "name",
                form=form,
                id="team-name",
                max_length=200,
                placeholder="Optional",
                class_name="team-field",
            ),
            Select(
                "Role",
                "role",
                form=form,
                id="team-role",
                options=[(r.value, role_label(r)) for r in roles_for(access)],
                default=Role.support.value,
                class_name="team-field",
            ),
            Button(
                "Add staff",
                type="submit",
                icon="user-plus",
                pending=adding.pending,
                pending_label="Adding…",
                class_name="team-add-submit",
            ),
        ),
        title_id="team-add-title",
    )


# ---- the list ------------------------------------------------------------------------------------------


def staff_table(
    members: list[StaffMemberRead], access: StaffAccessRead | None, on_change: Callable[[], None]
) -> VdomDict:
    def who(member: StaffMemberRead) -> VdomDict:
        is_me = access is not None and member.user_id == access.user_id
        return html.div(
            {"class_name": "team-who"},
            html.span(
                {"class_name": "team-name"},
                member.name,
                pill("You") if is_me else "",
            ),
            html.span({"class_name": "team-email"}, member.email),
        )

    def permissions(member: StaffMemberRead) -> str:
        extras = len(member.extra_permissions)
        return f"{len(member.permissions)}" + (f" ({extras} extra)" if extras else "")

    columns = (
        Column("name", "Name", render=who),
        Column(
            "role",
            "Role",
            render=lambda m: Badge(
                role_label(m.role), tone=None, class_name=f"role-badge role-{m.role.value}"
            ),
        ),
        Column(
            "status",
            "Status",
            render=lambda m: Badge(
                m.status.capitalize(),
                tone=None,
                class_name="status-pill" + (" status-on" if m.active else ""),
            ),
        ),
        Column("permissions", "Permissions", render=permissions),
        Column("since", "Since", render=lambda m: format_date(m.created_at)),
        Column(
            "actions",
            "Actions",
            render=lambda m: _MemberActions(m, access, on_change, key=m.user_id),
            class_name="team-actions",
        ),
    )
    return DataTable(
        columns,
        members,
        caption="Staff members",
        page_size=MAX_PAGE_SIZE,
        row_key=lambda m: m.user_id,
        row_class=lambda m: "" if m.active else "staff-inactive",
        empty="No staff members on this page.",
    )


def may_manage(member: StaffMemberRead, access: StaffAccessRead | None) -> bool:
    """Whether the signed-in manager can edit or remove `member`: never themselves, and only someone who
    holds nothing they lack (their role's permissions and extras, active or not); otherwise an owner.
    The service enforces the same."""
    if access is None or member.user_id == access.user_id:
        return False
    holds = effective_permissions(member.role, member.extra_permissions)
    return access.is_owner or holds <= access.permissions


@component
def _MemberActions(
    member: StaffMemberRead, access: StaffAccessRead | None, on_change: Callable[[], None]
) -> VdomDict:
    dialog_state: State[str | None] = use_state(None)  # None, "edit" or "remove"
    dialog, set_dialog = dialog_state
    is_me = access is not None and member.user_id == access.user_id

    def close() -> None:
        set_dialog(None)

    return html._(
        member_actions(member, set_dialog)
        if may_manage(member, access)
        else html.span({"class_name": "hint"}, "Your access" if is_me else "Owner only"),
        _EditMember(member, access, close, on_change) if dialog == "edit" else "",
        _RemoveMember(member, close, on_change) if dialog == "remove" else "",
    )


def member_actions(member: StaffMemberRead, open_dialog: Callable[[str], None]) -> VdomDict:
    return html._(
        Button(
            "Edit",
            variant="outline",
            size="sm",
            icon="edit",
            aria_label=f"Edit {member.name}",
            on_click=lambda: open_dialog("edit"),
        ),
        Button(
            "Remove",
            variant="ghost",
            size="sm",
            icon="trash",
            aria_label=f"Remove {member.name}",
            on_click=lambda: open_dialog("remove"),
            class_name="team-remove",
        ),
    )


@component
def _EditMember(
    member: StaffMemberRead,
    access: StaffAccessRead | None,
    on_close: Callable[[], None],
    on_change: Callable[[], None],
) -> VdomDict:
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
        updated = await saving.run(user_id=member.user_id, **changes)
        if updated is not None:
            session.toaster.success(UPDATED, f"{updated.name}: {role_label(updated.role)}, {updated.status}.")
            on_close()
            on_change()

    def toggle(permission: Permission, checked: bool) -> None:
        (extras.add if checked else extras.discard)(permission)

    def permission_box(permission: Permission) -> VdomDict:
        from_role = permission in granted
        return html.li(
            {"key": permission.value, "class_name": "perm-item"},
            Checkbox(
                html._(
                    permission_label(permission),
                    html.span({"class_name": "perm-source"}, " (role)") if from_role else "",
                ),
                permission.value,
                id=f"perm-{member.user_id}-{permission.value}",
                default=from_role or permission in extras,
                # Granted by the role, or one the manager does not hold: not theirs to change.
                disabled=from_role or (permission not in held and permission not in extras),
                on_change=lambda checked: toggle(permission, checked),
                # A role change remounts the box, so it shows what the new role grants.
                key=f"{permission.value}-{role.value}",
            ),
        )

    return Dialog(
        f"Edit {member.name}",
        html.form(
            {"class_name": "form", "on_submit": save},
            Select(
                "Role",
                "role",
                id=f"role-{member.user_id}",
                # The member's own role stays on offer (keeping it hands out nothing new).
                options=[
                    (r.value, role_label(r))
                    for r in ASSIGNABLE_ROLES
                    if r == member.role or r in roles_for(access)
                ],
                default=member.role.value,
                on_change=lambda value: set_role(Role(value)),
            ),
            hint("An owner has every permission and is always active.")
            if is_owner_role
            else html._(
                Checkbox(
                    "Active (an inactive member has no access)",
                    "active",
                    id=f"active-{member.user_id}",
                    default=active["on"],
                    on_change=lambda checked: active.update(on=checked),
                    class_name="perm-active",
                ),
                field_group(
                    "Permissions",
                    html.p(
                        {"class_name": "hint perm-hint"},
                        "Those marked (role) come with the role; tick any extra ones. You can hand out only "
                        "permissions you hold yourself.",
                    ),
                    html.ul({"class_name": "perm-list"}, *(permission_box(p) for p in Permission)),
                    class_name="perm-set",
                ),
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=saving.pending),
                Button("Save changes", type="submit", pending=saving.pending, pending_label="Saving…"),
            ),
        ),
        open=True,
        on_close=on_close,
        busy=saving.pending,
        id=f"edit-{member.user_id}",
        class_name="staff-modal",
    )


@component
def _RemoveMember(
    member: StaffMemberRead, on_close: Callable[[], None], on_change: Callable[[], None]
) -> VdomDict:
    session = use_session()
    removing = use_action(remove_staff)

    @event(prevent_default=True)
    async def confirm(_event: dict) -> None:
        removed = await removing.run(user_id=member.user_id)
        if removed is not None:
            session.toaster.success(REMOVED, f"{removed.name} is no longer on the staff.")
            on_close()
            on_change()

    return Dialog(
        f"Remove {member.name}?",
        html.form(
            {"on_submit": confirm},
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=removing.pending),
                Button(
                    "Remove",
                    type="submit",
                    variant="danger",
                    pending=removing.pending,
                    pending_label="Removing…",
                ),
            ),
        ),
        open=True,
        on_close=on_close,
        busy=removing.pending,
        description=f"{member.email} loses access to the staff portal; their account becomes a patient account.",
        id=f"remove-{member.user_id}",
    )
