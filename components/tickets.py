"""Ticket pieces shared by the staff help desk (helpdesk/) and the customer's Support screen
(pages/dashboard/support.py): status, priority and category badges, ticket dates in the visitor's time
zone, the message thread, attachment links and the Attach control. What customers and staff wrote
(subjects, messages, names, file names) is shown bidi-isolated (the kit's `UserText`).

Attaching: the file input is read by static/js/uploads.js, which posts the file to /api/uploads (a
websocket cannot carry files) and writes the answer ({id, filename, size, content_type}) into the hidden
upload sink (`components.browser.upload_sink()`); `use_staged_files` collects those until the message is sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from pydantic import ValidationError
from reactpy import html, use_state
from reactpy.types import State, VdomDict

from app.settings import get_settings
from app.storage import ACCEPT
from components import browser
from components.format import format_date
from components.icons import icon
from components.kit import Badge, UserText
from models.support import AttachmentRead, TicketCategory, TicketMessageRead, TicketPriority, TicketStatus

MAX_FILES = 5


# ---- badges and dates --------------------------------------------------------------------------------
# The kit's Badge without a tone class: the ticket-* classes (static/css/helpdesk.css) give the colours.
def status_badge(status: TicketStatus) -> VdomDict:
    return Badge(
        status.label, tone=None, class_name=f"ticket-badge ticket-status ticket-status-{status.value}"
    )


def priority_badge(priority: TicketPriority) -> VdomDict:
    return Badge(
        priority.value.title(),
        tone=None,
        class_name=f"ticket-badge ticket-priority ticket-priority-{priority.value}",
    )


def category_badge(category: TicketCategory) -> VdomDict:
    return Badge(category.value.title(), tone=None, class_name="ticket-badge ticket-category")


def overdue_badge(*, with_icon: bool = False) -> VdomDict:
    return Badge(
        "Overdue", tone=None, icon="clock" if with_icon else None, class_name="ticket-badge ticket-overdue"
    )


def enum_choices(values: type[StrEnum]) -> list[tuple[str, str]]:
    """(value, label) pairs for the kit's Select: value 'in_progress', label 'In Progress'."""
    return [(v.value, v.value.replace("_", " ").title()) for v in values]


def month_day(moment: datetime, time_zone: str) -> str:
    """The list's created date: 'Nov 21'."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{local:%b} {local.day}"


def when(moment: datetime, time_zone: str) -> str:
    """A message's time: 'Nov 21, 2026, 9:05 AM'."""
    local = moment.astimezone(ZoneInfo(time_zone))
    return f"{format_date(local)}, {local.hour % 12 or 12}:{local:%M} {'AM' if local.hour < 12 else 'PM'}"


def time_tag(moment: datetime, text: str) -> VdomDict:
    return html.time({"date_time": moment.isoformat()}, text)


def file_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


# ---- thread ------------------------------------------------------------------------------------------
def attachment_links(attachments: Sequence[AttachmentRead]) -> VdomDict | str:
    if not attachments:
        return ""
    return html.ul(
        {"class_name": "ticket-files", "aria-label": "Attachments"},
        *(
            html.li(
                {"key": a.id},
                html.a(
                    {"href": f"/api/attachments/{a.id}", "download": a.filename, "class_name": "ticket-file"},
                    icon("file-check", size=16),
                    UserText(a.filename, class_name="ticket-file-name"),
                    html.span({"class_name": "ticket-file-size"}, file_size(a.size)),
                ),
            )
            for a in attachments
        ),
    )


_MESSAGE_TONE = {"Customer": "customer", "Support Staff": "staff", "Internal Note": "internal"}


def thread(messages: Sequence[TicketMessageRead], time_zone: str, *, empty: str) -> VdomDict:
    """The conversation, oldest first, each message labelled Customer, Support Staff or Internal Note."""
    if not messages:
        return html.p({"class_name": "ticket-thread-empty"}, empty)
    return html.ol(
        {"class_name": "ticket-thread", "aria-label": "Conversation"},
        *(
            html.li(
                {
                    "key": m.id,
                    "class_name": f"ticket-message ticket-message-{_MESSAGE_TONE.get(m.author_label, 'staff')}",
                },
                html.div(
                    {"class_name": "ticket-message-head"},
                    html.span({"class_name": "ticket-message-label"}, m.author_label),
                    UserText(m.sender_name, class_name="ticket-message-author"),
                    html.span(
                        {"class_name": "ticket-message-time"},
                        time_tag(m.created_at, when(m.created_at, time_zone)),
                    ),
                ),
                UserText(m.content, tag="p", class_name="ticket-message-body"),
                attachment_links(m.attachments),
            )
            for m in messages
        ),
    )


# ---- attaching files -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class StagedFiles:
    """Files uploaded for the message being written (staged: not sent yet)."""

    files: tuple[AttachmentRead, ...]
    on_uploaded: Callable[[dict], None]
    remove: Callable[[str], None]
    clear: Callable[[], None]

    @property
    def ids(self) -> list[str]:
        return [f.id for f in self.files]


def use_staged_files() -> StagedFiles:
    files_state: State[tuple[AttachmentRead, ...]] = use_state(())
    files, set_files = files_state

    def on_uploaded(event: dict) -> None:
        try:
            uploaded = AttachmentRead.model_validate(json.loads(event["target"]["value"]))
        except (ValueError, ValidationError, KeyError, TypeError):
            return
        set_files(
            lambda current: (
                current
                if any(f.id == uploaded.id for f in current) or len(current) >= MAX_FILES
                else (*current, uploaded)
            )
        )

    def remove(file_id: str) -> None:
        set_files(lambda current: tuple(f for f in current if f.id != file_id))

    return StagedFiles(files, on_uploaded, remove, lambda: set_files(()))


def attach_control(staged: StagedFiles, *, input_id: str, disabled: bool = False) -> VdomDict:
    """The Attach button, the files attached so far (each removable) and the upload status line."""
    full = len(staged.files) >= MAX_FILES
    return html.div(
        {"class_name": "attach", **browser.upload_scope()},
        html.input(
            {
                "type": "file",
                "id": input_id,
                "class_name": "attach-input",
                "accept": ACCEPT,
                "multiple": True,
                "disabled": disabled or full,
                **browser.upload_input(
                    max_bytes=get_settings().upload_max_bytes, max_files=MAX_FILES - len(staged.files)
                ),
            }
        ),
        html.label(
            {"class_name": "btn btn-sm btn-outline attach-button", "html_for": input_id},
            icon("plus", size=16),
            "Attach",
        ),
        html.input({"type": "hidden", **browser.upload_sink(), "on_change": staged.on_uploaded}),
        html.span({"class_name": "attach-status", **browser.upload_status(), "role": "status"}),
        html.ul(
            {"class_name": "attach-list", "aria-label": "Files to send"},
            *(
                html.li(
                    {"key": f.id, "class_name": "attach-chip"},
                    UserText(f.filename, class_name="attach-chip-name"),
                    html.span({"class_name": "ticket-file-size"}, file_size(f.size)),
                    html.button(
                        {
                            "type": "button",
                            "class_name": "attach-remove",
                            "aria-label": f"Remove {f.filename}",
                            "on_click": lambda _e, file_id=f.id: staged.remove(file_id),
                        },
                        icon("x", size=14),
                    ),
                )
                for f in staged.files
            ),
        )
        if staged.files
        else "",
    )
