"""Store Orders (/staff/store-orders, manage_services; issue 14 part 9): the fulfilment queue, newest first,
filtered by fulfilment status (tabs in the URL, `?status=processed`) and searched by order number; each
order shows its next steps: Mark processed, Mark shipped (carrier and tracking number, in a dialog), Mark
delivered, Mark returned (after delivery) or Cancel order (before shipping; both with an optional reason).
app/services/store validates every step, audits it, records the money and e-mails the patient; this screen
shows its refusals above the queue. A paid order canceled or returned is refunded: to the card when it was
paid by card, else as wallet credit. Members who hold process_payments get each order's "Download receipt"
link and, for a paid order, "Refund": a dialog with its money and the refund form
(components/store_refund.py: in full or in part, with a reason, to the card or as wallet credit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.store import NEXT_STEPS, list_store_orders, move_fulfilment
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Button,
    Dialog,
    Field,
    ListQuery,
    PagedItems,
    QueryView,
    SearchForm,
    ServerForm,
    StatusTabs,
    browser_field,
    choice_param,
    dialog_actions,
    form_error,
    hint,
    page_param,
    staff_screen,
    text_param,
)
from components.staff_frame import StaffFrame, StaffSection, use_staff_permissions
from components.store_refund import StoreOrderRefund
from components.store_ui import order_card
from models.staff import Permission
from models.store import FulfilmentStatus, StoreOrderPage, StoreOrderRead

F = FulfilmentStatus
CARD = "stripe"  # a store order's payment_method when paid by card
PATH = "/staff/store-orders"
PAGE_SIZE = 20
TABS = (("", "All"), *((f.value, f.label) for f in F))
# A step's button (label, needs the dialog) by the status it leads to.
STEP_LABELS = {
    F.processed: ("Mark processed", False),
    F.shipped: ("Mark shipped", True),
    F.delivered: ("Mark delivered", False),
    F.returned: ("Mark returned", True),
    F.canceled: ("Cancel order", True),
}
DONE = {
    F.processed: "Order marked processed",
    F.shipped: "Order marked shipped",
    F.delivered: "Order marked delivered",
    F.returned: "Order marked returned",
    F.canceled: "Order canceled",
}


@component
def StoreOrdersPage() -> Component:
    return StaffFrame(StaffSection(_Queue, slug="store-orders"), active="store-orders")


@component
def _Queue() -> VdomDict:
    params = use_search_params()
    status = choice_param(params, "status", {f.value for f in F})
    search = text_param(params, "q", limit=16)
    page = page_param(params)
    url = ListQuery(PATH, {"status": status, "q": search})
    session = use_session()
    receipts = Permission.process_payments in use_staff_permissions()
    query = use_query(
        list_store_orders,
        fulfilment=status,
        search=search,
        page=page,
        page_size=PAGE_SIZE,
    )
    problem, set_problem = use_state("")
    asking_state: State[tuple[StoreOrderRead, FulfilmentStatus] | None] = use_state(
        None
    )  # (order, target) for the dialog
    asking, set_asking = asking_state
    refunding_state: State[StoreOrderRead | None] = use_state(None)
    refunding, set_refunding = refunding_state

    def after(result: StoreOrderRead) -> None:
        set_problem("")
        session.toaster.success(DONE[result.fulfilment], f"Order {result.number}")

    action = use_action(move_fulfilment, refetch=[query], on_success=after, on_error=set_problem)

    def step(order: StoreOrderRead, target: FulfilmentStatus) -> Callable[[], Any]:
        async def run() -> None:
            if STEP_LABELS[target][1]:
                set_asking((order, target))
            else:
                await action.run(order_id=order.id, to=target.value)

        return run

    return staff_screen(
        "Store Orders",
        StatusTabs(
            TABS,
            status,
            SearchForm(
                browser_field(
                    "Order number",
                    "q",
                    value=search,
                    type="search",
                    id_prefix="orders",
                    max_length=16,
                    placeholder="MS-",
                ),
                action=PATH,
                label="Find an order",
                key=f"search {status} {search}",
                hidden={"status": status},
                clear_href=url.href(q=""),
                class_name="form audit-filters store-filters",
            ),
            form_error(problem),
            QueryView(
                query,
                lambda data: _orders(data, step, action.pending, url, receipts, set_refunding),
                is_empty=lambda data: data is None,
                loading_label="Loading store orders…",
            ),
            label="Fulfilment status",
            href=url.tab_href("status"),
            id="orders-by",
            class_name="tabs store-status-tabs",
            panel_class="store-orders",
        ),
        _StepDialog(
            asking,
            query,
            on_close=lambda: set_asking(None),
            on_error=set_problem,
            key=f"{asking[0].id} {asking[1]}",
        )
        if asking
        else "",
        _RefundDialog(refunding, query, on_close=lambda: set_refunding(None), key=refunding.id)
        if refunding and receipts
        else "",
        lead="Move each store order along: processed, shipped with its tracking number, delivered.",
        body_class="store",
    )


def _orders(
    data: StoreOrderPage,
    step: Callable[[StoreOrderRead, FulfilmentStatus], Callable[[], Any]],
    busy: bool,
    url: ListQuery,
    receipts: bool,
    refund: Callable[[StoreOrderRead | None], None],
) -> VdomDict:
    def buttons(order: StoreOrderRead) -> VdomDict | str:
        targets = NEXT_STEPS[order.fulfilment]
        refundable = receipts and is_paid(order)
        if not targets and not refundable:
            return ""
        return html.div(
            {"class_name": "store-order-actions"},
            *[
                Button(
                    STEP_LABELS[target][0],
                    size="sm",
                    variant="danger"
                    if target is F.canceled
                    else ("outline" if target is F.returned else "primary"),
                    on_click=step(order, target),
                    disabled=busy,
                    aria_label=f"{STEP_LABELS[target][0]}: order {order.number}",
                    key=target.value,
                )
                for target in targets
            ],
            Button(
                "Refund",
                size="sm",
                variant="outline",
                on_click=lambda: refund(order),
                disabled=busy,
                aria_label=f"Refund: order {order.number}",
                key="refund",
            )
            if refundable
            else "",
        )

    return PagedItems(
        data,
        html.p(
            {"class_name": "hint store-count", "role": "status"},
            f"{data.total} order" + ("" if data.total == 1 else "s"),
        ),
        *[
            html.div(
                {"key": order.id},
                order_card(
                    order,
                    heading_level="h2",
                    receipt=receipts,
                    extra=html._(
                        hint(f"Patient: {order.patient_name}") if order.patient_name else "",
                        buttons(order),
                    ),
                ),
            )
            for order in data.items
        ],
        empty="No store orders match." if any(url.filters.values()) else "No store orders yet.",
        href=url.page_href,
        label="Pages of orders",
    )


@component
def _StepDialog(
    asking: tuple[StoreOrderRead, FulfilmentStatus],
    query: Query,
    on_close: Callable[[], None],
    on_error: Callable[[str], None],
) -> Any:
    session = use_session()
    order, target = asking
    form = use_form(carrier="", tracking_number="", reason="")

    def after(result: StoreOrderRead) -> None:
        on_error("")
        session.toaster.success(DONE[result.fulfilment], f"Order {result.number}")
        on_close()

    problem, set_problem = use_state("")
    action = use_action(move_fulfilment, refetch=[query], on_success=after, on_error=set_problem)
    label = STEP_LABELS[target][0]

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        await action.run(
            order_id=order.id,
            to=target.value,
            carrier=str(values.get("carrier", ""))[:100],
            tracking_number=str(values.get("tracking_number", ""))[:100],
            reason=str(values.get("reason", ""))[:1000],
        )

    fields = (
        [
            Field(
                "Carrier",
                "carrier",
                form=form,
                id="ship-carrier",
                required=True,
                max_length=40,
                placeholder="UPS, USPS, FedEx",
            ),
            Field(
                "Tracking number",
                "tracking_number",
                form=form,
                id="ship-tracking",
                required=True,
                max_length=40,
            ),
        ]
        if target is F.shipped
        else [Field("Reason (optional)", "reason", form=form, id="step-reason", max_length=500)]
    )
    descriptions = {
        F.shipped: "The patient is e-mailed the carrier and tracking number.",
        F.returned: (
            "What is left of it is refunded (to the card it was paid with, else as wallet credit) and the "
            "stock goes back on the shelf."
        ),
        F.canceled: (
            "Nothing is owed for it any more (paid by card: refunded to the card) and the stock goes back "
            "on the shelf."
        ),
    }
    return Dialog(
        f"{label}: order {order.number}",
        ServerForm(
            form_error(problem),
            *fields,
            dialog_actions(
                Button("Back", variant="ghost", on_click=on_close),
                Button(
                    label,
                    type="submit",
                    variant="danger" if target is F.canceled else "primary",
                    pending=action.pending,
                ),
            ),
            on_submit=submit,
            id="store-step-form",
        ),
        open=True,
        on_close=on_close,
        description=descriptions[target],
        id="store-step-dialog",
        busy=action.pending,
    )


def is_paid(order: StoreOrderRead) -> bool:
    """Whether its money was collected (by card at checkout, or on delivery) and not all given back."""
    if order.status == "refunded" or order.fulfilment in (F.canceled, F.returned):
        return False
    if order.payment_method == CARD:
        return order.paid_at is not None
    return order.fulfilment is F.delivered


@component
def _RefundDialog(order: StoreOrderRead, query: Query, on_close: Callable[[], None]) -> Any:
    return Dialog(
        f"Refund order {order.number}",
        StoreOrderRefund(order.id, on_changed=query.refetch),
        open=True,
        on_close=on_close,
        description=f"Patient: {order.patient_name}" if order.patient_name else None,
        id="store-refund-dialog",
    )
