"""Team (/dashboard/team, issue 17 part 2): the signed-in person's organization — its members with their
roles; for its admins, inviting a colleague by e-mail (as admin or member), the invitations waiting (which
can be withdrawn) and removing a member; for everyone, leaving (the last admin cannot). Someone without an
organization reads how one comes about. The rules and their words live in app/services/organizations."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict

from app.services.organizations import (
    INVITATION_DAYS,
    get_my_team,
    invite_member,
    leave_organization,
    remove_member,
    revoke_invitation,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    QueryView,
    Select,
    ServerForm,
    StaffCard,
    UserText,
    button_link,
    dashboard_header,
    dialog_actions,
    empty_state,
    form_error,
    hint,
    member_item,
    portal_body,
    portal_page,
)
from models.organization import InvitationRead, MemberRead, MemberRole, TeamRead

ROLE_OPTIONS = [(MemberRole.member.value, "Member"), (MemberRole.admin.value, "Admin")]


@component
def TeamPage() -> VdomDict:
    team = use_query(get_my_team)
    return portal_page(
        dashboard_header(
            "Team", lead="Your organization's people: who is in it, who is invited, and who administers it."
        ),
        portal_body(
            QueryView(
                team,
                lambda data: _Team(data, team),
                is_empty=lambda data: data is None,
                empty=empty_state(
                    "You're not part of an organization",
                    "An organization is set up for your company when it starts a corporate contract with us "
                    "(see Corporate Solutions), and its admins invite colleagues by e-mail. An invitation's "
                    "link brings you here.",
                    icon_name="users",
                    action=button_link("Corporate Solutions", "/corporate", variant="outline"),
                ),
                loading_label="Loading your team…",
            ),
            class_name="corp-list",
        ),
    )


@component
def _Team(team: TeamRead, query: Query) -> Any:
    session = use_session()
    admin = team.my_role == MemberRole.admin
    problem, set_problem = use_state("")
    removing_state: State[MemberRead | None] = use_state(None)
    removing, set_removing = removing_state
    leaving, set_leaving = use_state(False)

    def removed(_result: Any) -> None:
        set_problem("")
        session.toaster.success("Member removed", removing.name if removing else "")
        set_removing(None)

    def left(_result: Any) -> None:
        set_leaving(False)
        session.toaster.success("You left the organization", team.organization.name)

    remove = use_action(remove_member, refetch=[query], on_success=removed, on_error=set_problem)
    leave = use_action(leave_organization, refetch=[query], on_success=left, on_error=set_problem)

    async def remove_chosen() -> None:
        if removing is not None:
            await remove.run(user_id=removing.user_id)

    def member_row(member: MemberRead) -> VdomDict:
        me = member.user_id == session.signed_in_user.id
        return member_item(
            (UserText(member.name), " (you)" if me else ""),
            member.email,
            html.div(
                {"class_name": "corp-actions"},
                Badge(member.role.label, tone="info" if member.role == MemberRole.admin else "neutral"),
                Button(
                    "Remove",
                    size="sm",
                    variant="outline",
                    aria_label=f"Remove {member.name}",
                    on_click=lambda: set_removing(member),
                )
                if admin and not me
                else "",
            ),
            key=member.user_id,
        )

    return html._(
        StaffCard(
            UserText(team.organization.name),
            form_error(problem),
            html.h3(f"Members ({len(team.members)})"),
            html.ul({"class_name": "corp-member-list"}, *[member_row(m) for m in team.members]),
            html.div(
                {"class_name": "corp-actions"},
                Button(
                    "Leave organization", variant="ghost", icon="log-out", on_click=lambda: set_leaving(True)
                ),
            ),
            title_id="team-members-title",
            head=(Badge(team.organization.kind.label, tone="neutral"),),
        ),
        _Invite(query) if admin else "",
        _Invitations(team.invitations, query) if admin else "",
        Dialog(
            f"Remove {removing.name}?" if removing else "",
            dialog_actions(
                Button("Keep", variant="ghost", on_click=lambda: set_removing(None)),
                Button(
                    "Remove",
                    variant="danger",
                    pending=remove.pending,
                    on_click=remove_chosen,
                ),
            ),
            open=removing is not None,
            on_close=lambda: set_removing(None),
            description="They lose access to the organization's contracts at once.",
            id="team-remove-dialog",
            busy=remove.pending,
        ),
        Dialog(
            f"Leave {team.organization.name}?",
            dialog_actions(
                Button("Stay", variant="ghost", on_click=lambda: set_leaving(False)),
                Button(
                    "Leave",
                    variant="danger",
                    pending=leave.pending,
                    on_click=lambda: leave.run(),
                ),
            ),
            open=leaving,
            on_close=lambda: set_leaving(False),
            description="You'll need a new invitation to join again.",
            id="team-leave-dialog",
            busy=leave.pending,
        ),
    )


@component
def _Invite(query: Query) -> Any:
    session = use_session()
    form = use_form(email="", role=MemberRole.member.value)
    problem, set_problem = use_state("")

    def sent(invitation: InvitationRead) -> None:
        set_problem("")
        form.reset(email="", role=MemberRole.member.value)
        session.toaster.success("Invitation sent", invitation.email)

    invite = use_action(invite_member, refetch=[query], on_success=sent, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await invite.run(
            email=str(form.values.get("email", ""))[:320],
            role="admin" if form.values.get("role") == "admin" else "member",
        )

    return StaffCard(
        "Invite a colleague",
        hint(
            f"We e-mail them a link that works for {INVITATION_DAYS} days; they accept it signed in with that "
            "address. Admins can invite and remove people and see the organization's contracts."
        ),
        ServerForm(
            Field(
                "E-mail address",
                "email",
                form=form,
                type="email",
                id="team-invite-email",
                error=problem or None,
                required=True,
                max_length=320,
                autocomplete="off",
            ),
            Select("Role", "role", form=form, options=ROLE_OPTIONS, id="team-invite-role"),
            dialog_actions(
                Button(
                    "Send invitation",
                    type="submit",
                    icon="mail",
                    pending=invite.pending,
                    pending_label="Sending…",
                )
            ),
            on_submit=submit,
            class_name="corp-row",
        ),
        title_id="team-invite-title",
    )


@component
def _Invitations(invitations: list[InvitationRead], query: Query) -> Any:
    session = use_session()
    revoke = use_action(
        revoke_invitation,
        refetch=[query],
        on_success=lambda _r: session.toaster.success("Invitation withdrawn", ""),
    )
    if not invitations:
        return ""
    return StaffCard(
        f"Invitations waiting ({len(invitations)})",
        html.ul(
            {"class_name": "corp-member-list"},
            *[
                member_item(
                    invitation.email,
                    f"{invitation.role.label} · link valid until {format_date(invitation.expires_at)}",
                    Button(
                        "Withdraw",
                        size="sm",
                        variant="outline",
                        aria_label=f"Withdraw the invitation to {invitation.email}",
                        on_click=lambda invitation=invitation: revoke.run(invitation_id=invitation.id),
                    ),
                    key=invitation.id,
                )
                for invitation in invitations
            ],
        ),
        title_id="team-pending-title",
    )
