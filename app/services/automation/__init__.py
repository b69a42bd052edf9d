"""Automation (issue 15 part 4): outbound webhooks to n8n, signed per Standard Webhooks, from a durable
outbox written with the change it reports, retried on a schedule by the periodic job, with a delivery log,
Redeliver, per-type switches and SPEC's four workflow templates. Owners and admins only.

Other domains make one call each: `emit_event` (or `emit_visit_event`, `emit_ticket_event`), imported from
`_emit`, inside their own transaction.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_catalogue": ("EVENT_TYPES", "GROUP_LABELS", "TEST_EVENT"),
    "_delivery": ("AUTOMATION_TOPIC", "RETRY_DELAYS", "deliver_due_webhooks"),
    "_emit": ("emit_event", "emit_payment_event", "emit_ticket_event", "emit_visit_events"),
    "_signup": ("watch_signups",),
    "_integration": (
        "CONNECTED",
        "ERROR",
        "FAILED",
        "disconnect",
        "get_integration",
        "reveal_secret",
        "rotate_secret",
        "set_event_type",
        "set_header_auth",
        "set_simulation",
        "connect_webhook",
    ),
    "_log": ("PAGE_SIZE", "get_delivery", "list_deliveries", "redeliver"),
    "_templates": ("get_workflow_template", "list_workflow_templates", "workflow_json"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
