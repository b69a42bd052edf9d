"""One account in the admin console (/admin/users/{user_id}): who it is, its role, when it joined and last
signed in, whether its e-mail is confirmed, its flags and live sessions; and what the administrator may do
to it — change its role, its VIP and free-access flags, disable or re-enable it, sign it out everywhere.

The screen offers only what the service says this administrator may do on this account (`roles_grantable`,
`may_manage`) and says why when it is nothing; the service checks every command again.
"""

from __future__ import annotations

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_params

from app.services.admin import (
    change_user_role,
    disable_user,
    enable_user,
    force_sign_out,
    get_user,
    set_user_flags,
)
from components.admin_frame import admin_frame, moment_text
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.icons import icon
from components.kit import (
    Badge,
    Button,
    Checkbox,
    Dialog,
    QueryView,
    Select,
    ServerForm,
    StaffCard,
    UserText,
    button_row,
    dialog_actions,
)
from components.staff_frame import role_label
from models.admin import UserDetailRead

LIST = "/admin/users"


@component
def AdminUserPage() -> VdomDict:
    user_id = str(use_params().get("user_id", ""))[:64]
    account = use_query(get_user, user_id=user_id)
    title = account.data.name if account.data else "Account"
    return admin_frame(
        html.a({"class_name": "admin-back", "href": LIST}, icon("arrow-left", size=16), "All users"),
        QueryView(
            account,
            lambda data: _Account(data, account, key=data.id),
            is_empty=lambda data: data is None,
            loading_label="Loading the account…",
        ),
        active="users",
        title=UserText(title),
    )


def _fact(label: str, value: object) -> VdomDict:
    return html.div({"class_name": "admin-fact", "key": label}, html.dt(label), html.dd(value))


@component
def _Account(user: UserDetailRead, account: Query) -> VdomDict:
    session = use_session()
    tz = session.time_zone
    flags = [
        Badge("Master admin", tone="info") if user.is_master_admin else "",
        Badge("VIP", tone="info") if user.is_vip else "",
        Badge("Free access", tone="info") if user.has_free_access else "",
    ]
    return html.div(
        {"class_name": "admin-account"},
        StaffCard(
            "Account",
            html.dl(
                {"class_name": "admin-facts"},
                _fact("E-mail", user.email or "No e-mail address"),
                _fact("Role", role_label(user.role)),
                _fact(
                    "Status",
                    Badge("Disabled", tone="danger") if user.disabled else Badge("Active", tone="success"),
                ),
                _fact("Joined", moment_text(user.created_at, tz)),
                _fact("Last sign-in", moment_text(user.last_sign_in_at, tz)),
                _fact(
                    "E-mail confirmed",
                    moment_text(user.email_confirmed_at, tz) if user.email_confirmed_at else "Not confirmed",
                ),
                _fact("Active sessions", str(user.active_sessions)),
                _fact("Flags", html.span({"class_name": "admin-badges"}, *flags) if any(flags) else "None"),
            ),
            title_id="account-title",
        ),
        _RoleCard(user, account),
        _FlagsCard(user, account, key=f"flags-{user.is_vip}-{user.has_free_access}"),
        _AccessCard(user, account),
    )


def _why_not(user: UserDetailRead) -> str:
    return user.why_not or "You can give this account no other role."


@component
def _RoleCard(user: UserDetailRead, account: Query) -> VdomDict:
    session = use_session()
    form = use_form(role=user.role.value)

    def done(result: UserDetailRead) -> None:
        session.toaster.success("Role changed", f"{result.email} is now {role_label(result.role)}.")

    save = use_action(change_user_role, refetch=[account], on_success=done)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        wanted = str(form.values.get("role", ""))
        if wanted == user.role.value:
            session.toaster.error("Choose a different role", "The account already has this role.")
            return
        await save.run(user_id=user.id, role=wanted)

    if not user.roles_grantable:
        body = html.p({"class_name": "staff-card-lead"}, _why_not(user))
    else:
        options = [(user.role.value, f"{role_label(user.role)} (current)")] + [
            (r.value, role_label(r)) for r in user.roles_grantable
        ]
        body = ServerForm(
            Select("Role", "role", form=form, id="account-role", options=options),
            Button("Change role", type="submit", pending=save.pending),
            on_submit=submit,
            class_name="admin-inline-form",
        )
    return StaffCard("Role", body, title_id="role-title")


@component
def _FlagsCard(user: UserDetailRead, account: Query) -> VdomDict:
    session = use_session()
    form = use_form(is_vip=user.is_vip, has_free_access=user.has_free_access)

    def done(result: UserDetailRead) -> None:
        session.toaster.success(
            "Flags saved",
            f"VIP {'on' if result.is_vip else 'off'}, free access {'on' if result.has_free_access else 'off'}.",
        )

    save = use_action(set_user_flags, refetch=[account], on_success=done)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await save.run(
            user_id=user.id,
            is_vip=bool(form.values.get("is_vip")),
            has_free_access=bool(form.values.get("has_free_access")),
        )

    if user.owner_email:
        body = html.p(
            {"class_name": "staff-card-lead"},
            "An owner e-mail address (OWNER_EMAILS) always has the master-admin, VIP and free-access flags.",
        )
    elif not user.may_manage:
        body = html.p({"class_name": "staff-card-lead"}, _why_not(user))
    else:
        body = ServerForm(
            Checkbox(
                "VIP",
                "is_vip",
                form=form,
                id="account-vip",
                hint="Shows the 'VIP Access Granted!' welcome once.",
            ),
            Checkbox(
                "Free access",
                "has_free_access",
                form=form,
                id="account-free",
                hint="Kept on the account (hasFreeAccess); no price in the product depends on it yet.",
            ),
            button_row(Button("Save flags", type="submit", pending=save.pending)),
            on_submit=submit,
            class_name="admin-flags-form",
        )
    return StaffCard("Flags", body, title_id="flags-title")


@component
def _AccessCard(user: UserDetailRead, account: Query) -> VdomDict:
    session = use_session()
    asking, set_asking = use_state("")  # "", "disable" or "sign-out"

    def disabled(result: UserDetailRead) -> None:
        set_asking("")
        session.toaster.success("Account disabled", f"{result.email} cannot sign in; their sessions ended.")

    def enabled(result: UserDetailRead) -> None:
        session.toaster.success("Account enabled", f"{result.email} can sign in again.")

    def signed_out(count: int) -> None:
        set_asking("")
        session.toaster.success("Signed out everywhere", f"{count} session{'s' if count != 1 else ''} ended.")

    disable = use_action(disable_user, refetch=[account], on_success=disabled)
    enable = use_action(enable_user, refetch=[account], on_success=enabled)
    sign_out = use_action(force_sign_out, refetch=[account], on_success=signed_out)

    if user.owner_email:
        body = html.p(
            {"class_name": "staff-card-lead"}, "An owner e-mail address (OWNER_EMAILS) cannot be disabled."
        )
    elif not user.may_manage:
        body = html.p({"class_name": "staff-card-lead"}, _why_not(user))
    else:
        body = html.div(
            {"class_name": "admin-access"},
            html.p(
                {"class_name": "staff-card-lead"},
                "Disabling ends every session at once and refuses new sign-ins until the account is enabled "
                "again. Signing out everywhere ends every session but lets the person sign in again.",
            ),
            button_row(
                Button(
                    "Enable account",
                    pending=enable.pending,
                    on_click=lambda: enable.run(user_id=user.id),
                )
                if user.disabled
                else Button("Disable account", variant="danger", on_click=lambda: set_asking("disable")),
                Button(
                    "Sign out everywhere",
                    variant="outline",
                    disabled=user.active_sessions == 0,
                    on_click=lambda: set_asking("sign-out"),
                ),
            ),
        )
    dialog = Dialog(
        "Disable this account?" if asking == "disable" else "Sign out everywhere?",
        open=bool(asking),
        on_close=lambda: set_asking(""),
        id="access-dialog",
        busy=disable.pending or sign_out.pending,
        description=(
            f"{user.email} will be signed out of every device now and cannot sign in until you enable the "
            "account again."
            if asking == "disable"
            else f"Every session of {user.email} ends now; they can sign in again."
        ),
        footer=dialog_actions(
            Button(
                "Cancel",
                variant="outline",
                on_click=lambda: set_asking(""),
                disabled=disable.pending or sign_out.pending,
            ),
            Button(
                "Disable account",
                variant="danger",
                pending=disable.pending,
                on_click=lambda: disable.run(user_id=user.id),
            )
            if asking == "disable"
            else Button(
                "Sign out everywhere",
                variant="danger",
                pending=sign_out.pending,
                on_click=lambda: sign_out.run(user_id=user.id),
            ),
        ),
    )
    return StaffCard("Access", body, dialog, title_id="access-title")
