"""Admin (/admin): owner and admin only. The way into the staff portal and the dashboard, and the sign-up
waitlist (approve an entry to e-mail the person an invitation); more administration tools come later.

The screen guard only decides what is shown: the waitlist services check the actor themselves.
"""

from __future__ import annotations

from reactpy import component, html

from app.services.accounts import approve_waitlist_entry, list_waitlist
from app.settings import get_settings
from components.context import use_session
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import empty_state, error_state, loading_state
from components.ui import portal_header
from models.waitlist import WaitlistEntryRead


@component
def AdminPage() -> dict:
    return html.div(
        {"class_name": "portal"},
        portal_header("Admin", eyebrow="Administration"),
        html.div(
            {"class_name": "container portal-body"},
            html.ul(
                {"class_name": "portal-links"},
                html.li(
                    {"key": "staff"},
                    html.a(
                        {"class_name": "portal-link", "href": "/staff"},
                        html.span({"class_name": "portal-link-icon"}, icon("users", size=20)),
                        html.span({"class_name": "portal-link-label"}, "Staff Portal"),
                        icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
                    ),
                ),
                html.li(
                    {"key": "dashboard"},
                    html.a(
                        {"class_name": "portal-link", "href": "/dashboard"},
                        html.span({"class_name": "portal-link-icon"}, icon("dashboard", size=20)),
                        html.span({"class_name": "portal-link-label"}, "Dashboard"),
                        icon("chevron-right", size=18, class_name="icon portal-link-chevron"),
                    ),
                ),
            ),
            WaitlistSection(),
        ),
    )


@component
def WaitlistSection() -> dict:
    session = use_session()
    entries = use_query(list_waitlist, actor=session.actor)

    def approved(entry: WaitlistEntryRead) -> None:
        session.toaster.success("Invitation sent", f"{entry.email} can now finish signing up.")

    approve = use_action(approve_waitlist_entry, refetch=[entries], on_success=approved)
    waitlist_on = get_settings().signups == "waitlist"
    intro = (
        "Sign-ups go through the waitlist. Approving someone e-mails them a link to choose a password."
        if waitlist_on
        else "Sign-ups are open (SIGNUPS=open), so nobody new joins the waitlist."
    )

    if entries.error:
        body = error_state(entries.error, entries.refetch)
    elif entries.data is None:
        body = loading_state("Loading the waitlist…")
    elif not entries.data:
        body = empty_state("Nobody is waiting.")
    else:
        body = html.ul(
            {"class_name": "waitlist", "aria_label": "Pending sign-ups"},
            [_waitlist_row(entry, approve, session.actor) for entry in entries.data],
        )
    return html.section(
        {"class_name": "waitlist-section", "aria_labelledby": "waitlist-title"},
        html.h2({"class_name": "portal-group-title", "id": "waitlist-title"}, "Waitlist"),
        html.p({"class_name": "waitlist-intro"}, intro),
        body,
    )


def _waitlist_row(entry: WaitlistEntryRead, approve, actor) -> dict:  # noqa: ANN001
    async def on_approve(_event: dict) -> None:
        await approve.run(actor=actor, entry_id=entry.id)

    joined = f"{entry.created_at:%b} {entry.created_at.day}, {entry.created_at.year}"
    return html.li(
        {"key": entry.id, "class_name": "waitlist-row"},
        html.div(
            {"class_name": "waitlist-who"},
            html.strong(entry.name or entry.email),
            html.span(
                {"class_name": "waitlist-meta"},
                f"{entry.email} · joined {joined}" if entry.name else f"Joined {joined}",
            ),
        ),
        html.button(
            {
                "type": "button",
                "class_name": "btn btn-sm btn-primary",
                "aria_label": f"Approve {entry.email}",
                "disabled": approve.pending,
                "on_click": on_approve,
            },
            "Approve",
        ),
    )
