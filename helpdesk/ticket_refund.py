"""The ticket's Refund section (issue 29 item 3), for payments staff (process_payments) only: a ticket names
its requester, not a visit or an order, so it offers a chooser of the requester's recent visits and store
orders with something left to refund (app.services.receipts.list_refundables); the one chosen opens the same
money section and refund form as the staff screens (components/visit_money.py for a visit,
components/store_refund.py for a store order). The services check process_payments themselves.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.services.receipts import list_refundables
from components.format import format_date, format_money
from components.hooks import use_query
from components.kit import QueryView, Region, Select, hint
from components.store_refund import StoreOrderRefund
from components.visit_money import VisitMoney
from models.card_refund import RefundableRead

TITLE_ID = "ticket-refund-title"
NOTHING = "Nothing of this customer's is left to refund: no completed visit or paid store order."


@component
def TicketRefund(patient_id: str) -> VdomDict:
    found = use_query(list_refundables, patient_id=patient_id)
    chosen, set_chosen = use_state("")

    def chooser(items: list[RefundableRead]) -> Any:
        kind, _, item_id = chosen.partition(":")
        # The one chosen stays open once refunded in full (and gone from the list): its refunds show.
        money = (
            VisitMoney(item_id, found.refetch, key=chosen)
            if kind == "visit"
            else StoreOrderRefund(item_id, found.refetch, key=chosen)
            if kind == "store_order"
            else ""
        )
        if not items:
            return html._(hint(NOTHING), money)
        options = [
            (
                f"{item.kind}:{item.id}",
                f"{item.label}, {format_date(item.at)} — {format_money(item.refundable)} left",
            )
            for item in items
        ]
        return html._(
            Select(
                "Visit or order to refund",
                "refund-target",
                id="ticket-refund-target",
                options=options,
                placeholder="Choose a visit or an order",
                default=chosen,
                on_change=set_chosen,
                key=f"target-{len(items)}",
            ),
            money,
        )

    return Region(
        "Refund",
        QueryView(
            found,
            chooser,
            is_empty=lambda items: items is None,
            loading_label="Loading what can be refunded…",
        ),
        title_id=TITLE_ID,
        class_name="ticket-section ticket-refund",
        heading="h3",
    )
