"""The automation domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.automation._delivery import deliver_due_webhooks
from app.services.automation._emit import (
    emit_event,
    emit_ticket_event,
    emit_visit_events,
    queue_ad_payment_settled,
    queue_card_payment_failed,
    queue_card_payment_succeeded,
    queue_late_payment_refunded,
    queue_payment_refunded,
    queue_payment_succeeded,
    queue_store_order_refunded,
    queue_store_payment_failed,
    queue_store_payment_succeeded,
)

__all__ = [
    "deliver_due_webhooks",
    "emit_event",
    "emit_ticket_event",
    "emit_visit_events",
    "queue_ad_payment_settled",
    "queue_card_payment_failed",
    "queue_card_payment_succeeded",
    "queue_late_payment_refunded",
    "queue_payment_refunded",
    "queue_payment_succeeded",
    "queue_store_order_refunded",
    "queue_store_payment_failed",
    "queue_store_payment_succeeded",
]
