"""Automation (issue 15 part 4): outbound webhooks to n8n, signed per Standard Webhooks, from a durable
outbox written with the change it reports, retried on a schedule by the periodic job, with a delivery log,
Redeliver, per-type switches and SPEC's four workflow templates. Owners and admins only.

Other domains make one call each: `emit_event` (or `emit_visit_event`, `emit_ticket_event`), imported from
`_emit`, inside their own transaction.

Its public surface: the names below (`__all__`).
"""

from app.services.automation._catalogue import EVENT_TYPES, GROUP_LABELS, TEST_EVENT
from app.services.automation._delivery import AUTOMATION_TOPIC, RETRY_DELAYS
from app.services.automation._integration import (
    CONNECTED,
    ERROR,
    FAILED,
    connect_webhook,
    disconnect,
    get_integration,
    reveal_secret,
    rotate_secret,
    set_event_type,
    set_header_auth,
    set_simulation,
)
from app.services.automation._log import PAGE_SIZE, get_delivery, list_deliveries, redeliver
from app.services.automation._signup import watch_signups
from app.services.automation._templates import get_workflow_template, list_workflow_templates, workflow_json

__all__ = [
    "AUTOMATION_TOPIC",
    "CONNECTED",
    "ERROR",
    "EVENT_TYPES",
    "FAILED",
    "GROUP_LABELS",
    "PAGE_SIZE",
    "RETRY_DELAYS",
    "TEST_EVENT",
    "connect_webhook",
    "disconnect",
    "get_delivery",
    "get_integration",
    "get_workflow_template",
    "list_deliveries",
    "list_workflow_templates",
    "redeliver",
    "reveal_secret",
    "rotate_secret",
    "set_event_type",
    "set_header_auth",
    "set_simulation",
    "watch_signups",
    "workflow_json",
]
