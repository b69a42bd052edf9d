"""Mail outbox (/admin/outbox): the newest messages first (to, subject, status, when stored and sent), 50 a
page, with a status filter in the URL; 'Read' opens one message's text. One-time codes and links are
replaced on the server (app/services/admin `redact`): the browser never receives them.

The platform tries each message once, when it is sent (no retries), so there is no attempt count."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from reactpy import component, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.admin import get_outbox_message, list_outbox
from components.admin_frame import admin_frame, moment_text
from components.context import use_session
from components.hooks import use_query
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    Dialog,
    QueryView,
    StaffCard,
    Tone,
    loading_state,
    page_param,
)
from models.admin import OutboxPageRead, OutboxRowRead
from models.mail import OutboxStatus

PATH = "/admin/outbox"
STATUS_TONES: dict[OutboxStatus, Tone] = {
    OutboxStatus.sent: "success",
    OutboxStatus.failed: "danger",
    OutboxStatus.queued: "warning",
}
STATUS_LABELS = {OutboxStatus.sent: "Sent", OutboxStatus.failed: "Failed", OutboxStatus.queued: "Stored only"}
FILTERS = (("", "All"), ("sent", "Sent"), ("failed", "Failed"), ("queued", "Stored only"))


def _href(status: str, page: int = 1) -> str:
    params = {k: v for k, v in {"status": status, "page": str(page) if page > 1 else ""}.items() if v}
    return f"{PATH}?{urlencode(params)}" if params else PATH


@component
def AdminOutboxPage() -> VdomDict:
    params = use_search_params()
    status = (params.get("status") or [""])[0]
    status = status if status in OutboxStatus.__members__ else ""
    return admin_frame(
        _filters(status),
        _Messages(status, page_param(params)),
        active="outbox",
        title="Mail outbox",
        lead="Every e-mail the platform sent, newest first. One-time codes and sign-in links are hidden.",
    )


def _filters(status: str) -> VdomDict:
    return html.nav(
        {"class_name": "admin-filter", "aria-label": "Filter by status"},
        *(
            html.a(
                {
                    "key": value or "all",
                    "class_name": "admin-filter-link",
                    "href": _href(value),
                    **({"aria-current": "page"} if value == status else {}),
                },
                label,
            )
            for value, label in FILTERS
        ),
    )


@component
def _Messages(status: str, page: int) -> VdomDict:
    session = use_session()
    messages = use_query(list_outbox, status=status or None, page=page)
    reading, set_reading = use_state("")

    def table(data: OutboxPageRead) -> VdomDict:
        tz = session.time_zone
        columns = (
            Column("to", "To", render=lambda m: ", ".join(m.recipients) or "—", class_name="admin-outbox-to"),
            Column("subject", "Subject", render=lambda m: m.subject or "(no subject)"),
            Column("status", "Status", render=_status_cell),
            Column("when", "Stored", render=lambda m: moment_text(m.created_at, tz)),
            Column(
                "read",
                "Message",
                render=lambda m: Button(
                    "Read",
                    size="sm",
                    variant="outline",
                    aria_label=f"Read the message '{m.subject}' to {', '.join(m.recipients)}",
                    on_click=lambda: set_reading(m.id),
                ),
            ),
        )
        note = (
            "Messages are delivered over SMTP when they are sent, once; a failed one shows its reason."
            if data.smtp_configured
            else "No SMTP server is configured (SMTP_URL): messages are stored here only, not delivered."
        )
        return StaffCard(
            "Messages",
            html.p({"class_name": "staff-card-lead"}, note),
            DataTable(
                columns,
                data.messages,
                caption="Messages",
                page=data.page,
                page_size=data.page_size,
                total=data.total,
                page_href=lambda n: _href(status, n),
                row_key=lambda m: m.id,
                empty="No messages." if not status else "No messages with this status.",
                class_name="staff-table admin-outbox-table",
            ),
            title_id="outbox-title",
            head=(
                html.span(
                    {"class_name": "portal-pill"}, f"{data.total} message{'s' if data.total != 1 else ''}"
                ),
            ),
        )

    return html._(
        QueryView(messages, table, is_empty=lambda d: d is None, loading_label="Loading the outbox…"),
        _Reader(reading, lambda: set_reading(""), key=reading or "closed"),
    )


def _status_cell(message: OutboxRowRead) -> VdomDict:
    return html.div(
        {"class_name": "admin-status-cell"},
        Badge(STATUS_LABELS[message.status], tone=STATUS_TONES[message.status]),
        html.span({"class_name": "admin-error"}, message.error) if message.error else "",
    )


@component
def _Reader(message_id: str, close: Callable[[], None]) -> VdomDict:
    body = use_query(get_outbox_message, message_id=message_id, enabled=bool(message_id))
    if not message_id:
        return html._()
    content = QueryView(
        body,
        lambda data: html.pre({"class_name": "admin-mail-text"}, data.text or "(empty)"),
        is_empty=lambda d: d is None,
        loading_label="Loading the message…",
    )
    return Dialog(
        body.data.subject if body.data else "Message",
        content if body.data or body.error else loading_state("Loading the message…"),
        open=True,
        on_close=close,
        id="outbox-message",
        description="Links and one-time codes are hidden.",
        close_label="Close the message",
    )
