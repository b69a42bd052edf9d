"""The audit log (/staff/audit): owners only. Filters (action, actor, date range) and the page cursor live
in the URL, so a filtered view can be shared and survives a reconnect; 100 entries a page, newest first.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.staff import read_audit_log
from components.context import use_session
from components.format import format_date, format_time
from components.forms import use_form
from components.hooks import use_query
from components.kit import (
    MAX_PAGE_SIZE,
    Column,
    DataTable,
    Field,
    ListQuery,
    QueryView,
    Select,
    choice_param,
    filter_form,
    pager,
    pill,
    staff_screen,
    text_param,
)
from components.staff_frame import StaffFrame, StaffSection
from models.audit import AuditAction, AuditEntryRead
from models.staff import AuditPageRead

PATH = "/staff/audit"


FIELDS = ("action", "actor", "target", "from", "to")


def audit_query(params: dict[str, list[str]]) -> ListQuery:
    """The log's filters (action, actor, target, from and to as ISO days) and its cursor, the id of the
    last entry of the previous page, as the URL carries them (unknown values and malformed days dropped)."""

    def day(name: str) -> str:
        found = _day(text_param(params, name, limit=200))
        return found.isoformat() if found else ""

    filters = {
        "action": choice_param(params, "action", AuditAction.__members__),
        "actor": text_param(params, "actor", limit=200),
        "target": text_param(params, "target", limit=200),
        "from": day("from"),
        "to": day("to"),
        "cursor": text_param(params, "cursor", limit=200),
    }
    return ListQuery(PATH, filters)


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def action_label(action: str) -> str:
    return action.replace("_", " ").capitalize()


def details_text(details: dict[str, Any]) -> str:
    """'from: support, to: hr' — nested values flattened one level."""

    def show(value: Any) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{k} {show(v)}" for k, v in value.items())
        if isinstance(value, list):
            return ", ".join(show(v) for v in value) or "none"
        return str(value)

    return "; ".join(f"{key}: {show(value)}" for key, value in details.items())


@component
def AuditPage() -> Component:
    return StaffFrame(StaffSection(_Audit, slug="audit"), active="audit")


@component
def _Audit() -> VdomDict:
    session = use_session()
    url = audit_query(use_search_params())
    return staff_screen(
        "Audit Log",
        _FilterForm(url, key=url.href(cursor="")),
        _Entries(url),
        lead="Who signed in, changed a role, opened a patient's visit, ticket or file, or changed the staff — "
        "newest first, with the address and browser it came from. "
        f"Times are in {session.time_zone.replace('_', ' ')}.",
    )


@component
def _FilterForm(url: ListQuery) -> VdomDict:
    # Typing is kept on the server (components/forms.py); submitting navigates. The filters of the URL
    # key the form element: ReactPy's client keeps a control's own value once it has been changed, so
    # only a remount in the browser shows the new URL's filters (after Clear, Back, a shared link).
    form = use_form(**{k: url.filters[k] for k in FIELDS})
    return filter_form(
        Select(
            "Action",
            "action",
            form=form,
            id="audit-action",
            placeholder="All actions",
            options=[(a.value, action_label(a.value)) for a in AuditAction],
            class_name="team-field",
        ),
        Field(
            "Actor e-mail",
            "actor",
            form=form,
            id="audit-actor",
            type="search",
            max_length=200,
            placeholder="Any",
            class_name="team-field",
        ),
        Field(
            "Target",
            "target",
            form=form,
            id="audit-target",
            type="search",
            max_length=200,
            placeholder="Ticket #, patient id, file",
            class_name="team-field",
        ),
        Field(
            "From", "from", form=form, id="audit-from", type="date", max_length=None, class_name="team-field"
        ),
        Field("To", "to", form=form, id="audit-to", type="date", max_length=None, class_name="team-field"),
        action=PATH,
        label="Filter the audit log",
        submit="Filter",
        clear_href=PATH,
        key=url.href(cursor=""),
    )


@component
def _Entries(url: ListQuery) -> VdomDict:
    session = use_session()
    filters = url.filters
    query = use_query(
        read_audit_log,
        time_zone=session.time_zone,
        action=filters["action"] or None,
        actor_query=filters["actor"] or None,
        target_query=filters["target"] or None,
        since=_day(filters["from"]),
        until=_day(filters["to"]),
        older_than=filters["cursor"] or None,
    )
    return QueryView(
        query,
        lambda page: entries_section(page, url, session.time_zone),
        is_empty=lambda page: page is None,
        loading_label="Loading the audit log…",
    )


def entries_section(page: AuditPageRead, url: ListQuery, time_zone: str) -> VdomDict:
    """The entries (at most 100, newest first) and the cursor pager: 'Newest entries' back to the first
    page, 'Older entries' after the last entry shown. The kit's pager counts pages; a cursor cannot."""
    return html.section(
        {"class_name": "staff-card", "aria-label": "Audit entries"},
        DataTable(
            entry_columns(time_zone),
            page.entries,
            caption="Audit entries",
            page_size=MAX_PAGE_SIZE,
            row_key=lambda e: e.id,
            empty="No audit entries match these filters.",
            class_name="staff-table audit-table",
        ),
        pager(
            "Audit pages",
            previous=url.href(cursor="") if url.filters["cursor"] else None,
            following=url.href(cursor=page.entries[-1].id) if page.has_more and page.entries else None,
            previous_label="Newest entries",
            next_label="Older entries",
        ),
    )


def when_text(moment: datetime, time_zone: str) -> str:
    """'Nov 21, 2026 · 1:20 PM' in `time_zone`."""
    return f"{format_date(moment.astimezone(ZoneInfo(time_zone)))} · {format_time(moment, time_zone)}"


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"))
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def browser_label(user_agent: str) -> str:
    """'Chrome on Linux' from a User-Agent header; the header itself (shortened) when it names neither."""
    browser = next((name for token, name in _BROWSERS if token in user_agent), None)
    if browser is None and "Safari/" in user_agent:
        browser = "Safari"
    system = next((name for token, name in _SYSTEMS if token in user_agent), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or user_agent[:40]


def client_cell(entry: AuditEntryRead) -> Any:
    """The address and browser an entry came from (the whole User-Agent on hover); '—' when unknown."""
    if not entry.ip and not entry.user_agent:
        return "—"
    return html.span(
        {"title": entry.user_agent} if entry.user_agent else {},
        html.span({"class_name": "audit-ip"}, entry.ip or "unknown address"),
        html.br(),
        html.span({"class_name": "audit-browser"}, browser_label(entry.user_agent))
        if entry.user_agent
        else "",
    )


def who_cell(entry: AuditEntryRead) -> Any:
    """The actor by name with their e-mail below (their id on hover); 'System' for none."""
    if not entry.actor_id and not entry.actor_email:
        return "System"
    return _person(entry.actor_name, entry.actor_email or entry.actor_id or "", entry.actor_id)


def target_cell(entry: AuditEntryRead) -> Any:
    """The target; when it is an account (its id or e-mail), the person's name above it."""
    if not entry.target:
        return "—"
    if not entry.target_name:
        return entry.target
    return _person(entry.target_name, entry.target, entry.target)


def _person(name: str, below: str, hover: str | None) -> Any:
    if not name:
        return html.span({"title": hover} if hover else {}, below)
    return html.span(
        {"title": hover} if hover else {},
        html.span({"class_name": "audit-name"}, name),
        html.br(),
        html.span({"class_name": "audit-sub"}, below),
    )


def entry_columns(time_zone: str) -> tuple[Column, ...]:
    return (
        Column("when", "When", render=lambda e: when_text(e.created_at, time_zone), class_name="audit-when"),
        Column("who", "Who", render=who_cell, class_name="audit-who"),
        Column(
            "action",
            "Action",
            render=lambda e: pill(action_label(e.action)),
        ),
        Column("target", "Target", render=target_cell, class_name="audit-target"),
        Column("client", "From", render=client_cell, class_name="audit-client"),
        Column(
            "details", "Details", render=lambda e: details_text(e.details) or "—", class_name="audit-details"
        ),
    )
