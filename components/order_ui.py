"""An order as its patient sees it once placed: the confirmation at /orders/<number> (pages/order.py), and
the price, total and time lines the checkout summary shares with it."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, html

from app.services.appointments import visit_where
from components import browser
from components.context import UiSession, use_session
from components.format import format_currency, format_date, format_slot
from components.icons import icon
from components.ui import button_link, page_title
from models.booking import AppointmentRead, AppointmentStatus, OrderRead

CONFIRMED = "Booking confirmed"
REQUESTED = "Requested — awaiting the provider's confirmation"


def visit_price(
    visit: AppointmentRead, *, price_class: str = "summary-price", was_class: str = "summary-was"
) -> dict:
    """What a visit costs, its price before a sale struck through beside it."""
    was = (
        html.s({"class_name": was_class}, format_currency(visit.original_price))
        if visit.original_price > visit.price
        else ""
    )
    return html.span({"class_name": price_class}, was, html.strong(format_currency(visit.price)))


def order_totals(subtotal: Any, fee: Any, total: Any, total_label: str) -> dict:
    return html.dl(
        {"class_name": "summary-totals"},
        html.div(html.dt("Subtotal"), html.dd(format_currency(subtotal))),
        html.div(html.dt("Platform fee (5%)"), html.dd(format_currency(fee))),
        html.div({"class_name": "summary-total"}, html.dt(total_label), html.dd(format_currency(total))),
    )


def visit_when(visit: AppointmentRead, session: UiSession) -> str:
    return f"{visit.provider_name} · {format_slot(visit.starts_at, session.time_zone)}"


def confirmation_copy(order: OrderRead) -> tuple[str, str, str]:
    """(eyebrow and page title, heading, lead) of the confirmation: never 'confirmed' over pending visits."""
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


@component
def OrderConfirmation(order: OrderRead) -> dict:
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
                        icon("clock" if eyebrow == REQUESTED else "check", size=32),
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
                    ),
                    order_totals(order.subtotal, order.platform_fee, order.total, "Total, paid at the visit"),
                    html.div(
                        {"class_name": "button-row"},
                        button_link("View My Appointments", "/appointments", icon_name="calendar"),
                        button_link("Browse more services", "/services", variant="outline"),
                    ),
                ),
            ),
        ),
    )
