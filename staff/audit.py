"""The audit log (/staff/audit): owners only. Filters (action, actor, date range) and the page cursor live
in the URL, so a filtered view can be shared and survives a reconnect; 100 entries a page, newest first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from reactpy import component, html
from reactpy_router import use_search_params

from app.services.staff import read_audit_log
from components.context import use_session
from components.format import format_date, format_time
from components.forms import use_form
from components.hooks import use_query
from components.icons import icon
from components.staff_frame import StaffFrame, StaffSection, loading_notice
from components.ui import notice, portal_header
from models.audit import AuditAction, AuditEntryRead

PATH = "/staff/audit"


@dataclass(frozen=True)
class AuditFilters:
    action: str = ""
    actor: str = ""
    since: date | None = None
    until: date | None = None
    cursor: str = ""  # the id of the last entry of the previous page

    @classmethod
    def from_params(cls, params: dict[str, list[str]]) -> AuditFilters:
        def first(name: str) -> str:
            return (params.get(name) or [""])[0].strip()[:200]

        action = first("action")
        return cls(
            action=action if action in AuditAction.__members__ else "",
            actor=first("actor"),
            since=_day(first("from")),
            until=_day(first("to")),
            cursor=first("cursor"),
        )

    def params(self, **changes: str) -> dict[str, str]:
        values = {
            "action": self.action,
            "actor": self.actor,
            "from": self.since.isoformat() if self.since else "",
            "to": self.until.isoformat() if self.until else "",
            "cursor": self.cursor,
        } | changes
        return {k: v for k, v in values.items() if v}

    def href(self, **changes: str) -> str:
        query = urlencode(self.params(**changes))
        return f"{PATH}?{query}" if query else PATH


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
def AuditPage() -> dict:
    return StaffFrame(StaffSection(_Audit, slug="audit"), active="audit")


@component
def _Audit() -> dict:
    session = use_session()
    filters = AuditFilters.from_params(use_search_params())
    return html._(
        portal_header(
            "Audit Log",
            eyebrow="Staff Portal",
            lead="Who signed in, changed a role, viewed a patient's records or changed the staff — newest first. "
            f"Times are in {session.time_zone.replace('_', ' ')}.",
        ),
        html.div(
            {"class_name": "container portal-body"},
            _FilterForm(filters, key=filters.href(cursor="")),
            _Entries(filters),
        ),
    )


@component
def _FilterForm(filters: AuditFilters) -> dict:
    form = use_form(**{k: filters.params().get(k, "") for k in ("action", "actor", "from", "to")})
    return html.form(
        {
            "class_name": "form audit-filters",
            "method": "get",
            "action": PATH,
            "role": "search",
            "aria-label": "Filter the audit log",
            "data-client-get": "",
        },
        html.div(
            {"class_name": "team-field"},
            html.label({"html_for": "audit-action"}, "Action"),
            html.select(
                form.field("action", id="audit-action"),
                html.option({"value": "", "key": "all"}, "All actions"),
                *(
                    html.option({"value": a.value, "key": a.value}, action_label(a.value))
                    for a in AuditAction
                ),
            ),
        ),
        html.div(
            {"class_name": "team-field"},
            html.label({"html_for": "audit-actor"}, "Actor e-mail"),
            html.input(
                form.field("actor", id="audit-actor", type="search", maxLength=200, placeholder="Any")
            ),
        ),
        html.div(
            {"class_name": "team-field"},
            html.label({"html_for": "audit-from"}, "From"),
            html.input(form.field("from", id="audit-from", type="date")),
        ),
        html.div(
            {"class_name": "team-field"},
            html.label({"html_for": "audit-to"}, "To"),
            html.input(form.field("to", id="audit-to", type="date")),
        ),
        html.div(
            {"class_name": "audit-filter-actions"},
            html.button(
                {"class_name": "btn btn-primary", "type": "submit"}, icon("search", size=18), "Filter"
            ),
            html.a({"class_name": "btn btn-outline", "href": PATH}, "Clear"),
        ),
    )


@component
def _Entries(filters: AuditFilters) -> dict:
    session = use_session()
    query = use_query(
        read_audit_log,
        actor=session.actor,
        time_zone=session.time_zone,
        action=filters.action or None,
        actor_query=filters.actor or None,
        since=filters.since,
        until=filters.until,
        older_than=filters.cursor or None,
    )
    data = query.data
    if data is None:
        return (
            notice(query.error, tone="warning") if query.error else loading_notice("Loading the audit log…")
        )
    if not data.entries:
        body: Any = html.p({"class_name": "staff-empty"}, "No audit entries match these filters.")
    else:
        body = html.table(
            {"class_name": "staff-table audit-table"},
            html.thead(
                html.tr(
                    *(
                        html.th({"scope": "col", "key": h}, h)
                        for h in ("When", "Who", "Action", "Target", "Details")
                    )
                )
            ),
            html.tbody(*(entry_row(e, session.time_zone) for e in data.entries)),
        )
    return html.section(
        {"class_name": "staff-card", "aria-label": "Audit entries"},
        body,
        html.nav(
            {"class_name": "staff-pager", "aria-label": "Audit pages"},
            html.a(
                {"class_name": "btn btn-sm btn-outline", "href": filters.href(cursor="")}, "Newest entries"
            )
            if filters.cursor
            else "",
            html.a(
                {"class_name": "btn btn-sm btn-outline", "href": filters.href(cursor=data.entries[-1].id)},
                "Older entries",
            )
            if data.has_more
            else "",
        ),
    )


def when_text(moment: datetime, time_zone: str) -> str:
    """'Nov 21, 2026 · 1:20 PM' in `time_zone`."""
    return f"{format_date(moment.astimezone(ZoneInfo(time_zone)))} · {format_time(moment, time_zone)}"


def entry_row(entry: AuditEntryRead, time_zone: str) -> dict:
    return html.tr(
        {"key": entry.id},
        html.td({"data-label": "When", "class_name": "audit-when"}, when_text(entry.created_at, time_zone)),
        html.td({"data-label": "Who", "class_name": "audit-who"}, entry.actor_email or "System"),
        html.td(
            {"data-label": "Action"}, html.span({"class_name": "portal-pill"}, action_label(entry.action))
        ),
        html.td({"data-label": "Target", "class_name": "audit-target"}, entry.target or "—"),
        html.td({"data-label": "Details", "class_name": "audit-details"}, details_text(entry.details) or "—"),
    )
