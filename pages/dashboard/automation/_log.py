"""The delivery log: every event sent (or being retried) newest first, 20 a page, filtered by status in the
URL (`?log=failed&page=2`), reloaded live as the delivery job works; Details shows each attempt (when,
what n8n answered, how long it took, the start of its answer) and the payload, with Redeliver."""

from __future__ import annotations

import json
from typing import Any

from reactpy import component, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_search_params

from app.services.automation import AUTOMATION_TOPIC, PAGE_SIZE, get_delivery, list_deliveries, redeliver
from components.context import use_session
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    Dialog,
    QueryView,
    SettingsPanel,
    TabPanel,
    Tabs,
    Tone,
    dialog_actions,
    param_href,
)
from components.tickets import time_tag, when
from models.automation import AttemptRead, DeliveryDetailRead, DeliveryPageRead, DeliveryRead, DeliveryStatus

PATH = "/dashboard/automation"
TABS_ID = "automation-log"
TABS = (
    ("all", "All"),
    (DeliveryStatus.pending.value, "Retrying"),
    (DeliveryStatus.delivered.value, "Delivered"),
    (DeliveryStatus.failed.value, "Failed"),
    (DeliveryStatus.simulated.value, "Simulated"),
)
STATUS: dict[DeliveryStatus, tuple[str, Tone]] = {
    DeliveryStatus.pending: ("Pending", "warning"),
    DeliveryStatus.delivered: ("Delivered", "success"),
    DeliveryStatus.failed: ("Failed", "danger"),
    DeliveryStatus.simulated: ("Simulated", "info"),
}
TRIGGERS = {"scheduled": "Automatic", "redeliver": "Redeliver", "test": "Test connection"}
MAX_PAGE = 10_000


def _param(params: dict[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0].strip()[:20]


def status_badge(status: DeliveryStatus) -> VdomDict:
    text, tone = STATUS[status]
    return Badge(text, tone=tone)


@component
def DeliveryLog() -> VdomDict:
    session = use_session()
    params = use_search_params()
    tab = _param(params, "log")
    tab = tab if tab in dict(TABS) else "all"
    page_text = _param(params, "page")
    page = min(int(page_text), MAX_PAGE) if page_text.isdigit() and int(page_text) > 0 else 1
    log = use_query(list_deliveries, page=page, status="" if tab == "all" else tab)
    use_topic(AUTOMATION_TOPIC, refetch=[log])
    selected, set_selected = use_state("")
    zone = session.time_zone
    pages = param_href(PATH, params, name="page", default="1", drop=())

    columns = [
        Column("event_type", "Event", render=lambda d: html.code(d.event_type)),
        Column("status", "Status", render=lambda d: status_badge(d.status)),
        Column("attempts", "Attempts", numeric=True),
        Column(
            "last",
            "Last answer",
            render=lambda d: f"HTTP {d.last_status_code}" if d.last_status_code else "—",
        ),
        Column("created_at", "Created", render=lambda d: time_tag(d.created_at, when(d.created_at, zone))),
        Column(
            "next",
            "Next attempt",
            render=lambda d: (
                time_tag(d.next_attempt_at, when(d.next_attempt_at, zone)) if d.next_attempt_at else "—"
            ),
        ),
        Column(
            "actions",
            "Details",
            render=lambda d: Button(
                "Details",
                on_click=lambda: set_selected(d.id),
                variant="ghost",
                size="sm",
                aria_label=f"Details of {d.event_type}, {d.created_at:%b %d %H:%M}",
            ),
        ),
    ]

    def table(data: DeliveryPageRead) -> Any:
        return DataTable(
            columns,
            data.items,
            caption="Webhook deliveries",
            total=data.total,
            page=data.page,
            page_size=PAGE_SIZE,
            page_href=lambda n: pages(str(n)),
            row_key=lambda d: d.id,
            empty="No deliveries yet. Test the connection, then book a visit to see one arrive.",
            class_name="staff-table automation-log-table",
        )

    return SettingsPanel(
        "Delivery log",
        Tabs(
            TABS,
            tab,
            label="Deliveries by status",
            href=param_href(PATH, params, name="log", default="all"),
            id=TABS_ID,
        ),
        TabPanel(
            tab,
            QueryView(log, table, loading_label="Loading deliveries…"),
            id=TABS_ID,
        ),
        _Details(selected, on_close=lambda: set_selected(""), key=selected or "none") if selected else "",
        lead="Failed requests are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. "
        "A 410 Gone answer disconnects n8n.",
        title_id="automation-log-title",
        class_name="automation-log",
    )


@component
def _Details(delivery_id: str, on_close: Any) -> VdomDict:
    session = use_session()
    detail = use_query(get_delivery, delivery_id=delivery_id)
    again = use_action(redeliver, refetch=[detail])
    use_topic(AUTOMATION_TOPIC, refetch=[detail])
    data: DeliveryDetailRead | None = detail.data

    async def send_again() -> None:
        done: DeliveryRead | None = await again.run(delivery_id=delivery_id)
        if done is not None:
            session.toaster.success("Queued for redelivery", "It is sent within a few seconds.")

    can_redeliver = data is not None and data.delivery.status != DeliveryStatus.pending
    return Dialog(
        data.delivery.event_type if data else "Delivery",
        QueryView(detail, lambda d: _detail(d, session.time_zone), loading_label="Loading the delivery…"),
        open=True,
        on_close=on_close,
        id="automation-delivery",
        class_name="automation-dialog",
        description=f"Message {data.delivery.message_id}" if data else None,
        footer=dialog_actions(
            Button("Close", on_click=on_close, variant="outline"),
            Button("Redeliver", on_click=send_again, pending=again.pending, pending_label="Queuing…")
            if can_redeliver
            else "",
        ),
    )


def _attempt(attempt: AttemptRead, zone: str) -> VdomDict:
    if attempt.simulated:
        result = Badge("Simulated", tone="info")
    elif attempt.ok:
        result = Badge(f"HTTP {attempt.status_code}", tone="success")
    elif attempt.status_code:
        result = Badge(f"HTTP {attempt.status_code}", tone="danger")
    else:
        result = Badge("No answer", tone="danger")
    return html.li(
        {"class_name": "automation-attempt", "key": attempt.id},
        html.div(
            {"class_name": "automation-attempt-head"},
            html.strong(f"Attempt {attempt.number}"),
            result,
            html.span(
                {"class_name": "settings-text"},
                time_tag(attempt.attempted_at, when(attempt.attempted_at, zone)),
                f" · {TRIGGERS.get(attempt.trigger.value, attempt.trigger.value)} · {attempt.duration_ms} ms",
            ),
        ),
        html.p({"class_name": "automation-attempt-text"}, attempt.error) if attempt.error else "",
        html.pre({"class_name": "automation-excerpt"}, attempt.response_excerpt)
        if attempt.response_excerpt
        else "",
    )


def _detail(data: DeliveryDetailRead, zone: str) -> VdomDict:
    delivery = data.delivery
    return html.div(
        {"class_name": "automation-detail"},
        html.p(
            status_badge(delivery.status),
            f" {delivery.attempts} attempt(s)",
            html._(" · next ", time_tag(delivery.next_attempt_at, when(delivery.next_attempt_at, zone)))
            if delivery.next_attempt_at
            else "",
        ),
        html.h3({"class_name": "automation-subtitle"}, "Attempts"),
        html.ol({"class_name": "automation-attempts"}, *(_attempt(a, zone) for a in data.attempts))
        if data.attempts
        else html.p({"class_name": "settings-text"}, "Not sent yet."),
        html.h3({"class_name": "automation-subtitle"}, "Payload"),
        html.pre(
            {"class_name": "automation-payload", "tab_index": 0, "aria-label": "Payload (JSON)"},
            json.dumps(data.payload, indent=2, ensure_ascii=False),
        ),
    )
