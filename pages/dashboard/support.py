"""Support (/dashboard/support): a signed-in user's help requests. Open one (category, subject,
description, files), see their tickets with their status, read a ticket's conversation and reply. A
request or reply whose words describe an emergency or a crisis is sent all the same and shows the 911 / 988
message at once (the desk is alerted by the service).

`?new=1` opens the request form (the Help Center's 'Contact support' links here), `?ticket=<id>` a ticket;
with `&category=…&subject=…&description=…` (the Help Center's article or failed search) the form starts
prefilled with them instead of the saved draft.
Staff replies arrive live: the screen refetches on the user's `support:<id>` events, which never mention
internal notes (nor do the reads this screen makes: app/services/support_customers.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict
from reactpy_router import use_search_params

from app.services.support import get_my_ticket, list_my_tickets, open_ticket, reply_as_customer, support_topic
from components import browser
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from components.kit import (
    Button,
    Field,
    Region,
    Select,
    ServerForm,
    TextArea,
    UserText,
    button_link,
    dashboard_header,
    dialog_actions,
    empty_state,
    error_state,
    loading_state,
    portal_body,
    portal_page,
)
from components.safety_ui import emergency_banner
from components.tickets import (
    attach_control,
    attachment_links,
    category_badge,
    status_badge,
    thread,
    time_tag,
    use_staged_files,
    when,
)
from models.support import TicketCategory, TicketRead, TicketStatus

PATH = "/dashboard/support"
REQUEST_SENT = "Your request was sent. We'll reply here."
REPLY_SENT = "Reply sent"
SUBJECT_PREFILL, DESCRIPTION_PREFILL = 150, 1_000
_CATEGORIES = [(c.value, c.value.replace("_", " ").title()) for c in TicketCategory]


def _param(params: dict[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0].strip()


@component
def SupportPage() -> VdomDict:
    session = use_session()
    params = use_search_params()
    selected = _param(params, "ticket") or None
    mine = use_query(list_my_tickets)
    use_topic(support_topic(session.signed_in_user.id), refetch=[mine])
    opened_state: State[str | None] = use_state(None)
    opened, set_opened = opened_state
    # The 911 / 988 message when the request just sent has a red flag: it stays while the page is open.
    safety, set_safety = use_state("")

    def created(ticket: TicketRead) -> None:
        set_safety(ticket.safety_message)
        set_opened(ticket.id)

    creating = _param(params, "new") == "1" or (mine.data == [] and selected is None)
    if selected:
        main: Any = _MyTicket(selected, key=selected)
    elif creating:
        main = _NewRequest(on_created=created, can_cancel=bool(mine.data), prefill=_prefill(params))
    else:
        main = html.div(
            {"class_name": "support-card desk-detail-empty"},
            html.span({"class_name": "desk-empty-icon"}, icon("message", size=28)),
            html.h2("Select a ticket"),
            html.p("Choose one of your tickets to read the conversation and reply."),
        )
    return portal_page(
        dashboard_header(
            "Support",
            lead="Questions about a visit, a payment or your account? Ask us here and follow the answers.",
        ),
        portal_body(
            emergency_banner(safety) if safety else "",
            html.div(
                {"class_name": "support-layout" + (" support-has-ticket" if selected else "")},
                _ticket_list(mine.data, mine.error, mine.refetch, selected, session.time_zone),
                main,
            ),
        ),
        browser.follow(f"{PATH}?ticket={opened}") if opened and opened != selected else "",
    )


def _ticket_list(
    tickets: list[TicketRead] | None,
    error: str | None,
    retry: Callable[[], Any],
    selected: str | None,
    time_zone: str,
) -> VdomDict:
    if tickets is None:
        body: Any = error_state(error, retry) if error else loading_state()
    elif not tickets:
        body = empty_state("You have no support tickets yet.")
    else:
        body = html.ul(
            {"class_name": "support-tickets", "aria-label": "My tickets"},
            *(
                html.li(
                    {"key": t.id},
                    html.a(
                        {
                            "class_name": "support-ticket",
                            "href": f"{PATH}?ticket={t.id}",
                            **({"aria-current": "true"} if t.id == selected else {}),
                        },
                        UserText(t.subject, class_name="support-ticket-subject"),
                        html.span(
                            {"class_name": "support-ticket-meta"},
                            status_badge(t.status),
                            f"#{t.number}",
                            html.span("Updated ", time_tag(t.updated_at, when(t.updated_at, time_zone))),
                        ),
                    ),
                )
                for t in tickets
            ),
        )
    return Region(
        "My tickets",
        body,
        title_id="support-list-title",
        class_name="support-card support-list",
        head_class="support-card-head",
        head=(
            html.a(
                {"class_name": "btn btn-sm btn-primary", "href": f"{PATH}?new=1"},
                icon("plus", size=16),
                "New request",
            ),
        ),
    )


def _prefill(params: dict[str, list[str]]) -> dict[str, str]:
    """The request's fields given in the address (the Help Center's 'Contact support'), cut to size."""
    category = _param(params, "category")
    subject = _param(params, "subject")[:SUBJECT_PREFILL]
    if not subject:
        return {}
    return {
        "category": category if category in TicketCategory.__members__ else TicketCategory.other.value,
        "subject": subject,
        "description": _param(params, "description")[:DESCRIPTION_PREFILL],
    }


@component
def _NewRequest(
    on_created: Callable[[TicketRead], None], can_cancel: bool, prefill: dict[str, str] | None = None
) -> VdomDict:
    session = use_session()
    form = use_form(
        # prefilled by the Help Center: what it gives wins over an older saved draft
        draft=None if prefill else "support:new-request",
        **(prefill or {"category": TicketCategory.other.value, "subject": "", "description": ""}),
    )
    staged = use_staged_files()
    send = use_action(open_ticket)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        created = await send.run(
            category=form.values.get("category", TicketCategory.other.value),
            subject=form.values.get("subject", ""),
            description=form.values.get("description", ""),
            attachment_ids=staged.ids,
        )
        if created is not None:
            form.discard_draft()
            session.toaster.success(REQUEST_SENT)
            on_created(created)

    busy = send.pending
    return Region(
        "New support request",
        html.p(
            {"class_name": "modal-lead"},
            "Tell us what happened. Our support team answers here, usually within a few hours.",
        ),
        ServerForm(
            Select("Category", "category", form=form, id="support-category", options=_CATEGORIES),
            Field("Subject", "subject", form=form, id="support-subject", placeholder="Short summary"),
            TextArea(
                "Description",
                "description",
                form=form,
                id="support-description",
                rows=6,
                max_length=10_000,
                placeholder="What happened, and what would you like us to do?",
            ),
            attach_control(staged, input_id="support-files", disabled=busy),
            dialog_actions(
                button_link("Cancel", PATH, variant="ghost") if can_cancel else "",
                Button("Send request", type="submit", pending=busy, pending_label="Sending…"),
            ),
            on_submit=submit,
        ),
        title_id="support-new-title",
        class_name="support-card",
    )


@component
def _MyTicket(ticket_id: str) -> VdomDict:
    session = use_session()
    detail = use_query(get_my_ticket, ticket_id=ticket_id)
    use_topic(support_topic(session.signed_in_user.id), refetch=[detail])
    back = html.a({"class_name": "desk-back", "href": PATH}, icon("arrow-left", size=16), "All tickets")
    if detail.data is None:
        return html.section(
            {"class_name": "support-card"},
            back,
            error_state(detail.error, detail.refetch) if detail.error else loading_state(),
        )
    ticket = detail.data.ticket
    return html.section(
        {"class_name": "support-card support-detail", "aria-labelledby": "support-ticket-subject"},
        html.div(
            back,
            UserText(ticket.subject, tag="h2", id="support-ticket-subject"),
            html.p(
                {"class_name": "ticket-meta"},
                html.span({"class_name": "ticket-number"}, f"Ticket #{ticket.number}"),
                status_badge(ticket.status),
                category_badge(ticket.category),
                html.span("Opened ", time_tag(ticket.created_at, when(ticket.created_at, session.time_zone))),
            ),
        ),
        Region(
            "Your request",
            UserText(ticket.description, tag="p", class_name="ticket-description"),
            attachment_links(detail.data.attachments),
            title_id="support-description-title",
            class_name="ticket-section",
            heading="h3",
        ),
        Region(
            "Conversation",
            thread(detail.data.messages, session.time_zone, empty="No replies yet. We'll answer here soon."),
            title_id="support-thread-title",
            class_name="ticket-section",
            heading="h3",
        ),
        html.p(
            {"class_name": "support-closed"},
            "This ticket is closed. Open a new request if you need more help.",
        )
        if ticket.status == TicketStatus.closed
        else _CustomerReply(ticket, detail.refetch),
    )


@component
def _CustomerReply(ticket: TicketRead, on_sent: Callable[[], None]) -> VdomDict:
    session = use_session()
    form = use_form(draft=f"support:reply:{ticket.id}", content="")
    staged = use_staged_files()
    send = use_action(reply_as_customer)
    safety, set_safety = use_state("")  # the 911 / 988 message when the reply just sent has a red flag

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        content = form.values.get("content", "")
        if not content.strip() or send.pending:
            return
        sent = await send.run(ticket_id=ticket.id, content=content, attachment_ids=staged.ids)
        if sent is not None:
            set_safety(sent.safety_message)
            session.toaster.success(REPLY_SENT)
            form.reset(content="")
            staged.clear()
            on_sent()

    return html.div(
        emergency_banner(safety) if safety else "",
        ServerForm(
            TextArea("Your reply", "content", form=form, id="support-reply", rows=3, max_length=10_000),
            html.div(
                {"class_name": "support-reply-actions"},
                attach_control(staged, input_id=f"support-reply-files-{ticket.id}", disabled=send.pending),
                Button("Send reply", type="submit", pending=send.pending, pending_label="Sending…"),
            ),
            on_submit=submit,
            label="Reply",
            class_name="support-reply",
        ),
    )
