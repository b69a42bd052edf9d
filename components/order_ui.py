"""An order as its patient sees it once placed: the confirmation at /orders/<number> (pages/order.py), and
the price, total and time lines the checkout summary shares with it. Once placed, the order's totals are its
receipt's (app/services/receipts: credit lines for cancelled visits and refunds, then total, paid, due),
the same figures as the receipt PDF."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.appointments import visit_where
from components import browser
from components.context import UiSession, use_session
from components.format import format_currency, format_date, format_slot
from components.icons import icon
from components.kit import UserText, button_link, button_row, page_title
from models.booking import AppointmentRead, AppointmentStatus, OrderRead
from models.receipt import CreditKind, ReceiptCreditRead, ReceiptRead

CONFIRMED = "Booking confirmed"
REQUESTED = "Requested — awaiting the provider's confirmation"
AWAITING_PAYMENT = "Awaiting payment"
PAYMENT_FAILED = "Payment failed"
PAY_BY_CARD = "Pay by card"
WALLET_CREDIT = "wallet_credit"  # an order's payment_method when its wallet credit paid it all
STORE_ORDERS_HREF = "/dashboard/store?tab=orders"  # the patient's store orders


def receipt_href(number: str) -> str:
    """Where an order's receipt downloads (api/documents.py)."""
    return f"/api/orders/{number}/receipt.pdf"


def receipt_link(number: str, *, label: str = "Receipt", class_name: str = "receipt-link") -> VdomDict:
    """A download link to the order's receipt; its accessible name says which order and that it is a PDF."""
    return html.a(
        {
            "class_name": class_name,
            "href": receipt_href(number),
            "download": "",
            "aria-label": f"{label} for order {number} (PDF)",
        },
        label,
    )


def visit_price(
    visit: AppointmentRead, *, price_class: str = "summary-price", was_class: str = "summary-was"
) -> VdomDict:
    """What a visit costs, its price before a sale struck through beside it."""
    was = (
        html.s({"class_name": was_class}, format_currency(visit.original_price))
        if visit.original_price > visit.price
        else ""
    )
    return html.span({"class_name": price_class}, was, html.strong(format_currency(visit.price)))


def order_totals(subtotal: Any, fee: Any, total: Any, total_label: str) -> VdomDict:
    return html.dl(
        {"class_name": "summary-totals"},
        html.div(html.dt("Subtotal"), html.dd(format_currency(subtotal))),
        html.div(html.dt("Platform fee (5%)"), html.dd(format_currency(fee))),
        html.div({"class_name": "summary-total"}, html.dt(total_label), html.dd(format_currency(total))),
    )


def credit_line_text(credit: ReceiptCreditRead, time_zone: str) -> str:
    """'Refunded to card — Routine blood draw, Jan 7, 2030 (on Jan 9, 2030)' (the visit's date, then the
    refund's, in the reader's zone); a cancellation names the visit's date only."""
    zone = ZoneInfo(time_zone)
    what = f"{credit.label} — {credit.service_name}" if credit.service_name else credit.label
    when = f"{what}, {format_date(credit.visit_starts_at.astimezone(zone))}"
    if credit.kind is CreditKind.refund:
        return f"{when} (on {format_date(credit.at.astimezone(zone))})"
    return when


def _products_rows(receipt: ReceiptRead) -> list[VdomDict]:
    """The store order placed with the visits (one checkout): its products (each listed above the totals,
    `product_lines`), shipping, tax and a retail fee."""
    if not receipt.store_number:
        return []
    rows = [
        html.div(
            {"key": "products", "class_name": "summary-product"},
            html.dt("Products"),
            html.dd(format_currency(receipt.store_subtotal)),
        )
    ]
    rows.append(
        html.div(
            {"key": "shipping"},
            html.dt("Shipping"),
            html.dd(format_currency(receipt.shipping) if receipt.shipping else "Free"),
        )
    )
    if receipt.tax:
        rows.append(html.div({"key": "tax"}, html.dt("Sales tax"), html.dd(format_currency(receipt.tax))))
    if receipt.store_fee:
        rows.append(
            html.div({"key": "store-fee"}, html.dt("Store fee"), html.dd(format_currency(receipt.store_fee)))
        )
    return rows


def receipt_totals(receipt: ReceiptRead, total_title: str, time_zone: str) -> VdomDict:
    """The order's figures as its receipt computes them: subtotal and fee, the products of a store order
    placed with the visits (shipping, tax), a credit line per cancelled visit and refund (to the card or as
    wallet credit), the total after them, then what was paid, refunded, the net paid and what is due."""
    rows: list[VdomDict] = [
        html.div({"key": "subtotal"}, html.dt("Subtotal"), html.dd(format_currency(receipt.subtotal))),
        html.div(
            {"key": "fee"}, html.dt("Platform fee (5%)"), html.dd(format_currency(receipt.platform_fee))
        ),
        *_products_rows(receipt),
        *[
            html.div(
                {"key": f"credit-{index}", "class_name": "summary-credit", "data-credit": credit.kind.value},
                html.dt(credit_line_text(credit, time_zone)),
                html.dd(format_currency(-credit.amount)),
            )
            for index, credit in enumerate(receipt.credits)
        ],
        html.div(
            {"key": "total", "class_name": "summary-total"},
            html.dt(total_title),
            html.dd({"data-receipt-total": str(receipt.total)}, format_currency(receipt.total)),
        ),
    ]
    if receipt.credit_applied:  # of what was paid: the wallet credit, then the rest (if any)
        rows += [
            html.div(
                {"key": "wallet", "class_name": "summary-credit"},
                html.dt("Wallet credit applied"),
                html.dd(
                    {"data-receipt-wallet": str(receipt.credit_applied)},
                    format_currency(receipt.credit_applied),
                ),
            ),
        ]
        if receipt.paid > receipt.credit_applied:
            rows.append(
                html.div(
                    {"key": "paid-rest"},
                    html.dt("Paid by card" if receipt.paid_ahead else "Paid at the visit"),
                    html.dd(format_currency(receipt.paid - receipt.credit_applied)),
                )
            )
    if receipt.paid or receipt.refunded:
        rows += [
            html.div(
                {"key": "paid"},
                html.dt("Paid in all" if receipt.credit_applied else "Paid"),
                html.dd(format_currency(receipt.paid)),
            ),
            html.div(
                {"key": "refunded"},
                html.dt("Refunded"),
                html.dd(format_currency(-receipt.refunded)),
            ),
        ]
        if receipt.refunded:
            rows.append(
                html.div(
                    {"key": "net"},
                    html.dt("Net paid"),
                    html.dd({"data-receipt-net": str(receipt.net_paid)}, format_currency(receipt.net_paid)),
                )
            )
    if receipt.paid or receipt.refunded or receipt.credits:
        rows.append(
            html.div(
                {"key": "due", "class_name": "summary-due"},
                html.dt("Due"),
                html.dd({"data-receipt-due": str(receipt.due)}, format_currency(receipt.due)),
            )
        )
    return html.dl({"class_name": "summary-totals"}, *rows)


def visit_when(visit: AppointmentRead, session: UiSession) -> str:
    return f"{visit.provider_name} · {format_slot(visit.starts_at, session.time_zone)}"


def confirmation_copy(order: OrderRead) -> tuple[str, str, str]:
    """(eyebrow and page title, heading, lead) of the confirmation: never 'confirmed' over pending visits,
    nor 'requested' before a card payment is confirmed."""
    if order.payment_status == "failed":
        return (
            PAYMENT_FAILED,
            "Your payment did not go through",
            "Nothing was charged, and the visits of this order were released. You can book them again.",
        )
    if order.payment_status == "awaiting":
        return (
            AWAITING_PAYMENT,
            "Complete your payment",
            "Your visits hold their times while you pay by card on Stripe's secure page. This page updates as "
            "soon as Stripe confirms the payment.",
        )
    if any(visit.status == AppointmentStatus.pending for visit in order.appointments):
        return (
            REQUESTED,
            "Your visit is requested" if len(order.appointments) == 1 else "Your visits are requested",
            "We've e-mailed your order. Each provider now confirms their visit; you can follow it under "
            "My Appointments.",
        )
    return (
        CONFIRMED,
        "You're booked!",
        "We've e-mailed your confirmation; you can follow it under My Appointments.",
    )


_ICONS = {REQUESTED: "clock", AWAITING_PAYMENT: "clock", PAYMENT_FAILED: "alert"}


def total_label(order: OrderRead, *, products: bool = False) -> str:
    """What the order's one total says of how it is paid (`products`: a store order was placed with it,
    paid with the card payment, else on delivery)."""
    if order.payment_method == WALLET_CREDIT:
        return "Total, paid with wallet credit" + (" (products on delivery)" if products else "")
    return {
        "paid": "Total, paid by card",
        "awaiting": "Total, to pay by card",
        "failed": "Total (nothing was charged)",
    }.get(order.payment_status, "Total, paid at the visit" + (" and on delivery" if products else ""))


def product_lines(receipt: ReceiptRead) -> list[VdomDict]:
    """A line (`li`) per product of the store order placed with the visits: name, quantity, its total."""
    return [
        html.li(
            {"key": f"product-{index}", "class_name": "summary-product"},
            html.div(
                {"class_name": "summary-line-text"},
                html.strong(UserText(product.name)),
                html.span({"class_name": "hint"}, f"Quantity {product.quantity}"),
            ),
            html.span({"class_name": "summary-price"}, html.strong(format_currency(product.line_total))),
        )
        for index, product in enumerate(receipt.products)
    ]


def _store_note(receipt: ReceiptRead) -> VdomDict | str:
    """The products' part of one checkout: their store order, shipped, followed under My orders."""
    if not receipt.store_number:
        return ""
    return html.p(
        {"class_name": "hint order-store-note"},
        icon("truck", size=16),
        " Your store products are store order ",
        html.strong({"data-store-order-number": receipt.store_number}, receipt.store_number),
        ", shipped to you: follow it under ",
        html.a({"href": STORE_ORDERS_HREF}, "My store orders"),
        ".",
    )


@component
def OrderConfirmation(order: OrderRead, receipt: ReceiptRead) -> VdomDict:
    session = use_session()
    booked_on = order.created_at.astimezone(ZoneInfo(session.time_zone))
    eyebrow, heading, lead = confirmation_copy(order)
    return html._(
        page_title(eyebrow),
        html.section(
            {"class_name": "section checkout-done"},
            html.div(
                {"class_name": "container"},
                html.div(
                    {"class_name": "checkout-done-card"},
                    html.span(
                        {"class_name": "checkout-done-icon"},
                        icon(_ICONS.get(eyebrow, "check"), size=32),
                    ),
                    html.p({"class_name": "eyebrow"}, eyebrow),
                    # Place order lands here: the focus moves to the heading (a screen reader reads it).
                    html.h1({"tab_index": -1, **browser.focus_on_mount()}, heading),
                    html.p(
                        {"class_name": "checkout-done-number"},
                        "Order ",
                        html.strong({"data-order-number": order.number}, order.number),
                        f" · placed {format_date(booked_on)}",
                    ),
                    html.p({"class_name": "lead"}, lead),
                    html.ul(
                        {"class_name": "summary-lines"},
                        *[
                            html.li(
                                {"key": visit.id},
                                html.div(
                                    {"class_name": "summary-line-text"},
                                    html.strong(visit.service_name),
                                    html.span({"class_name": "hint"}, visit_when(visit, session)),
                                    html.span({"class_name": "hint"}, visit_where(visit)),
                                ),
                                html.div(
                                    {"class_name": "summary-line-end"},
                                    html.span(
                                        {"class_name": f"status-pill status-{visit.status.value}"},
                                        visit.status.label,
                                    ),
                                    visit_price(visit),
                                ),
                            )
                            for visit in order.appointments
                        ],
                        *product_lines(receipt),
                    ),
                    _store_note(receipt),
                    receipt_totals(
                        receipt, total_label(order, products=bool(receipt.store_number)), session.time_zone
                    ),
                    button_row(
                        html.a(
                            {
                                "class_name": "btn btn-primary",
                                "href": order.payment_url,
                                **browser.native_link(),
                            },
                            PAY_BY_CARD,
                            icon("shield", size=18),
                        )
                        if order.payment_url
                        else "",
                        button_link("View My Appointments", "/appointments", icon_name="calendar"),
                        button_link("Browse more services", "/services", variant="outline"),
                        receipt_link(order.number, label="Download receipt", class_name="btn btn-outline"),
                    ),
                ),
            ),
        ),
    )
