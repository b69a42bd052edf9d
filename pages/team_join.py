"""Accept an invitation (/join-team?token=…, issue 17 part 2): the link in the invitation e-mail. Signed
out, it asks the person to sign in with the invited address and comes back here afterwards (a public page,
so the link's token survives the sign-in); signed in, it shows which organization invited which address and
with what role, and accepts it when the account has that address (the service checks it again), then lands
on the Team page."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict
from reactpy_router import navigate, use_search_params

from app.services.organizations import accept_invitation, get_invitation
from components.context import use_session
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    QueryView,
    Region,
    UserText,
    button_link,
    form_error,
    portal_body,
    portal_header,
    portal_page,
)
from models.organization import InvitationPreview, MemberRole, TeamRead


@component
def TeamJoinPage() -> VdomDict:
    session = use_session()
    token = (use_search_params().get("token") or [""])[0][:100]
    signed_in = session.user is not None
    preview = use_query(get_invitation, token=token, enabled=bool(token) and signed_in)
    return portal_page(
        portal_header(
            "Join your organization",
            eyebrow="Your organization",
            lead="Accept the invitation to see your organization's team and contracts.",
        ),
        portal_body(
            form_error("This link has no invitation in it.")
            if not token
            else QueryView(
                preview, lambda data: _Accept(data, token), loading_label="Checking your invitation…"
            )
            if signed_in
            else _sign_in_first(token),
            class_name="corp-list",
        ),
    )


def _sign_in_first(token: str) -> VdomDict:
    back = f"/join-team?{urlencode({'token': token})}"
    return Region(
        "Sign in to accept your invitation",
        html.p(
            "Sign in with the e-mail address the invitation was sent to; you'll come back here to accept it. "
            "No account yet? Sign up with that address, then open the link in the e-mail again."
        ),
        html.div(
            {"class_name": "corp-actions"},
            button_link("Sign in", f"/login?redirect={quote(back, safe='')}"),
            button_link("Sign up", "/sign-up", variant="outline"),
        ),
        title_id="join-title",
        class_name="staff-card",
    )


@component
def _Accept(invitation: InvitationPreview, token: str) -> Any:
    session = use_session()
    joined_state: State[TeamRead | None] = use_state(None)
    joined, set_joined = joined_state
    problem, set_problem = use_state("")

    def done(team: TeamRead) -> None:
        session.toaster.success("Welcome to your team", team.organization.name)
        set_joined(team)

    accept = use_action(accept_invitation, on_success=done, on_error=set_problem)
    if joined is not None:
        return navigate("/dashboard/team", replace=True)
    role = "an admin" if invitation.role == MemberRole.admin else "a member"
    return Region(
        ("Join ", UserText(invitation.organization_name)),
        html.p(f"This invitation is for {invitation.email}, to join as {role}."),
        form_error(problem),
        html.div(
            {"class_name": "corp-actions"},
            Button(
                "Accept invitation",
                pending=accept.pending,
                pending_label="Joining…",
                on_click=lambda: accept.run(token=token),
            ),
        )
        if invitation.for_me
        else form_error(
            f"You're signed in with another address. Sign out, then sign in as {invitation.email} to accept it."
        ),
        title_id="join-title",
        class_name="staff-card",
    )
