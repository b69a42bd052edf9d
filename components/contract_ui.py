"""A corporate contract as the dashboard (its organization's admins, its booked providers) and the staff's
contracts screen show it: organization, status, period, sites, services at their agreed prices, and each
on-site event day with its providers and invoice. Staff screens add their buttons through `day_extra` and
`extra`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.format import format_date, format_money, format_slot, format_time
from components.kit import Badge, Tone, UserText, facts, hint
from models.corporate import ContractCreate, ContractRead, ContractServiceInput, ContractStatus, EventDayRead

STATUS_TONES: dict[ContractStatus, Tone] = {
    ContractStatus.draft: "neutral",
    ContractStatus.active: "success",
    ContractStatus.ended: "info",
}
VISIT_LABELS = {
    "pending": "Awaiting provider",
    "confirmed": "Confirmed",
    "in_progress": "In progress",
    "completed": "Completed",
    "cancelled": "Cancelled",
}


def cents(amount: int) -> str:
    return format_money(Decimal(amount) / 100)


def cents_text(amount: int) -> str:
    """Cents as staff type dollars: 95000 → '950.00'."""
    return f"{Decimal(amount) / 100:.2f}"


def contract_from_form(values: dict[str, Any], service_slugs: list[str]) -> ContractCreate | str:
    """A contract as typed into the staff's contract form (each service's price in `price-<slug>`), or what
    to fix when its dates are not dates; the service checks the rest."""
    try:
        starts_on = date.fromisoformat(str(values.get("starts_on", "")))
        ends_on = date.fromisoformat(str(values.get("ends_on", "")))
    except ValueError:
        return "Enter the start and end dates of the contract."
    return ContractCreate(
        title=str(values.get("title", ""))[:200],
        sites=str(values.get("sites", ""))[:600],
        billing_email=str(values.get("billing_email", ""))[:320],
        starts_on=starts_on,
        ends_on=ends_on,
        services=[
            ContractServiceInput(service_slug=slug, price=str(values.get(f"price-{slug}", ""))[:20])
            for slug in service_slugs
        ],
    )


def contract_status(status: ContractStatus) -> VdomDict:
    return Badge(status.label, tone=STATUS_TONES[status])


def event_day_item(day: EventDayRead, extra: Any = "") -> VdomDict:
    when = f"{format_slot(day.starts_at, day.time_zone)} to {format_time(day.ends_at, day.time_zone)}"
    return html.li(
        {"class_name": "corp-day", "key": day.id},
        html.p(html.strong(day.service_name), " · ", when),
        hint("Corporate Venue: ", UserText(day.address_line), f", {day.zip_code}"),
        html.p(
            "Providers: ",
            ", ".join(f"{v.provider_name} ({VISIT_LABELS.get(v.status, v.status)})" for v in day.visits)
            or "none",
        ),
        hint(
            f"{cents(day.price_cents)} per provider · "
            + (f"Invoiced: {day.invoice_number}" if day.invoice_number else "Not invoiced yet")
        ),
        extra,
    )


def contract_card(
    contract: ContractRead,
    *,
    heading: str = "h2",
    day_extra: Callable[[EventDayRead], Any] | None = None,
    extra: Any = "",
) -> VdomDict:
    title_id = f"contract-{contract.id}-title"
    heading_tag = html.h3 if heading == "h3" else html.h2
    return html.article(
        {"class_name": "corp-card", "aria-labelledby": title_id, "key": contract.id},
        html.div(
            {"class_name": "corp-card-head"},
            heading_tag({"id": title_id}, UserText(contract.title)),
            contract_status(contract.status),
        ),
        html.ul(
            {"class_name": "corp-meta"},
            html.li(UserText(contract.organization_name)),
            html.li(f"{format_date(contract.starts_on)} to {format_date(contract.ends_on)}"),
        ),
        facts(
            ("Sites", UserText(contract.sites) if contract.sites else "—"),
            (
                "Services",
                "; ".join(
                    f"{s.service_name}: {cents(s.price_cents)} per provider-day" for s in contract.services
                ),
            ),
            ("Billing", contract.billing_email),
            class_name="corp-facts",
        ),
        html.h4("Event days") if heading == "h3" else html.h3("Event days"),
        html.ul(
            {"class_name": "corp-days"},
            *[event_day_item(day, day_extra(day) if day_extra else "") for day in contract.event_days],
        )
        if contract.event_days
        else hint("No event days booked yet."),
        extra,
    )
