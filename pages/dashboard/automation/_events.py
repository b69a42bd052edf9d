"""Which event types are sent (SPEC §9's six groups; SPEC §5: a type switched off is skipped), and for the
types that have any, whether clinical text (the service, the patient's notes, a ticket's words) goes with
them. Each box saves as it is ticked."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.automation import GROUP_LABELS, set_event_type
from components.hooks import Query, use_action
from components.kit import Checkbox, SettingsPanel
from models.automation import EventTypeRead, IntegrationRead


@component
def EventTypesCard(data: IntegrationRead, integration: Query[Any]) -> VdomDict:
    return SettingsPanel(
        "Events to send",
        html.div(
            {"class_name": "automation-groups"},
            *(
                _group(group, list(types), integration)
                for group, types in groupby(data.event_types, key=lambda e: e.group)
            ),
        ),
        lead="Events carry ids, statuses and times. Clinical text (the service booked, the patient's notes, "
        "a ticket's subject and description) is left out unless you include it for that event type, "
        "under your agreement with the n8n host.",
        title_id="automation-events",
    )


def _group(group: str, types: list[EventTypeRead], integration: Query[Any]) -> VdomDict:
    clinical = any(e.has_details for e in types)
    return html.table(
        {"class_name": "prefs-table automation-types", "key": group},
        html.caption({"class_name": "automation-caption"}, f"{GROUP_LABELS[group]} events"),
        html.thead(
            html.tr(
                html.th({"scope": "col"}, "Event"),
                html.th({"scope": "col"}, "Send"),
                html.th({"scope": "col"}, "Clinical text") if clinical else "",
            )
        ),
        html.tbody(
            *(_TypeRow(e, integration, clinical, key=f"{e.name}-{e.enabled}-{e.detailed}") for e in types)
        ),
    )


def _breakable(name: str) -> list[Any]:
    """`appointment.reminder_due` with a break opportunity after each dot and underscore (phones)."""
    parts: list[Any] = []
    for piece in name.replace(".", ".\0").replace("_", "_\0").split("\0"):
        parts.extend([piece, html.wbr()])
    return parts[:-1]


@component
def _TypeRow(item: EventTypeRead, integration: Query[Any], clinical: bool) -> VdomDict:
    save = use_action(set_event_type, refetch=[integration], exclusive=False)
    label = f"{GROUP_LABELS[item.group]} · {item.label}"

    async def send(checked: bool) -> None:
        await save.run(event_type=item.name, enabled=checked)

    async def detail(checked: bool) -> None:
        await save.run(event_type=item.name, detailed=checked)

    slug = item.name.replace(".", "-").replace("_", "-")
    return html.tr(
        {"class_name": "prefs-row"},
        html.th(
            {"scope": "row", "class_name": "prefs-head"},
            html.span({"class_name": "prefs-label"}, item.label),
            html.code({"class_name": "prefs-desc"}, *_breakable(item.name)),
        ),
        html.td(
            {"class_name": "prefs-cell", "data-label": "Send"},
            Checkbox(
                f"Send {label}",
                f"send-{slug}",
                default=item.enabled,
                on_change=send,
                hide_label=True,
                id_prefix="auto",
            ),
        ),
        html.td(
            {"class_name": "prefs-cell", "data-label": "Clinical text"},
            Checkbox(
                f"Include clinical text with {label}",
                f"detail-{slug}",
                default=item.detailed,
                on_change=detail,
                hide_label=True,
                id_prefix="auto",
                disabled=not item.enabled,
            ),
        )
        if clinical
        else "",
    )
