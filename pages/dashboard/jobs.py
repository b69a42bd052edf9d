"""Jobs (/dashboard/jobs, issue 17): the provider's offers on service requests (pending, accepted,
declined, withdrawn, expired), a pending one withdrawn with one click, and the jobs they won with the
patient's notes (shown only once the job is won) and the booked visit's order. Updated live."""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.services.service_requests import SERVICE_REQUESTS_TOPIC, list_my_offers, withdraw_offer
from components.context import use_session
from components.format import format_money, format_slot
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    Badge,
    Button,
    Column,
    DataTable,
    QueryView,
    StaffCard,
    Tone,
    dashboard_header,
    hint,
    portal_body,
    portal_page,
    request_details,
    status_card,
)
from models.service_request import OfferRead, OfferStatus

STATUS: dict[OfferStatus, tuple[str, Tone]] = {
    OfferStatus.pending: ("Pending", "info"),
    OfferStatus.accepted: ("Accepted", "success"),
    OfferStatus.declined: ("Declined", "neutral"),
    OfferStatus.withdrawn: ("Withdrawn", "neutral"),
    OfferStatus.expired: ("Expired", "neutral"),
}


def status_badge(status: OfferStatus) -> VdomDict:
    text, tone = STATUS[status]
    return Badge(text, tone=tone)


@component
def JobsPage() -> VdomDict:
    session = use_session()
    offers = use_query(list_my_offers)
    mine = {o.request_id for o in offers.data or ()}
    use_topic(SERVICE_REQUESTS_TOPIC, refetch=[offers], on_event=lambda e: e.get("request_id") in mine)
    withdraw = use_action(withdraw_offer, refetch=[offers])
    page, set_page = use_state(1)
    zone = session.time_zone

    def action(offer: OfferRead) -> Any:
        if offer.status != OfferStatus.pending:
            return "—"

        async def take_back() -> None:
            if await withdraw.run(offer_id=offer.id) is not None:
                session.toaster.success("Offer withdrawn")

        return Button(
            "Withdraw",
            on_click=take_back,
            variant="outline",
            size="sm",
            pending=withdraw.pending,
            aria_label=f"Withdraw your offer for {offer.service_name} in {offer.zip_code}",
        )

    columns = [
        Column("service_name", "Service"),
        Column("zip_code", "ZIP code"),
        Column("starts_at", "Start", render=lambda o: format_slot(o.starts_at, zone)),
        Column("price", "Price", render=lambda o: format_money(o.price), numeric=True),
        Column("status", "Status", render=lambda o: status_badge(o.status)),
        Column("id", "Action", render=action),
    ]

    def body(rows: list[OfferRead]) -> VdomDict:
        won = [o for o in rows if o.status == OfferStatus.accepted]
        return html._(
            StaffCard(
                "Won jobs",
                html.ul({"class_name": "request-cards"}, *(_won_card(o, zone) for o in won))
                if won
                else hint("When a patient accepts one of your offers, it appears here."),
                title_id="won-title",
            ),
            StaffCard(
                "My offers",
                DataTable(
                    columns, rows, caption="My offers", row_key=lambda o: o.id, page=page, on_page=set_page
                ),
                title_id="offers-title",
            ),
        )

    return portal_page(
        dashboard_header("Jobs", lead="Your offers on patients' service requests, and the visits you won."),
        portal_body(
            QueryView(
                offers,
                body,
                empty=html.div(
                    {"class_name": "staff-card"},
                    html.p("You haven't sent any offers yet. "),
                    html.a({"href": "/dashboard/marketplace"}, "Find open requests in the Marketplace"),
                ),
                loading_label="Loading your offers…",
            )
        ),
    )


def _won_card(offer: OfferRead, zone: str) -> VdomDict:
    title_id = f"won-{offer.id}-title"
    return status_card(
        offer.service_name,
        status_badge(offer.status),
        *request_details(
            f"{offer.location.label if offer.location else ''} visit · ZIP {offer.zip_code} · "
            f"{format_slot(offer.starts_at, zone)} · {format_money(offer.price)}",
            notes=offer.notes,
            notes_label="Patient's notes: ",
        ),
        "" if offer.notes else hint("The patient left no notes."),
        html.p(
            f"Order {offer.order_number}. ",
            html.a({"href": "/dashboard/appointments"}, "Confirm it under Appointments"),
        )
        if offer.order_number
        else "",
        title_id=title_id,
        key=offer.id,
    )
