"""Contracts (/dashboard/contracts, issue 17 part 3): the corporate contracts the signed-in person may read —
those of the organization they administer, and those they are booked on as a provider — each with its
services at their agreed prices and its on-site event days (providers, invoice). Staff create and change
contracts in the staff portal; this page only reads (app/services/corporate checks who may)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.corporate import list_my_contracts
from components.contract_ui import contract_card
from components.hooks import use_query
from components.kit import QueryView, button_link, dashboard_header, empty_state, portal_body, portal_page


@component
def ContractsPage() -> VdomDict:
    contracts = use_query(list_my_contracts)
    return portal_page(
        dashboard_header(
            "Contracts", lead="On-site corporate care: what was agreed, and the event days booked under it."
        ),
        portal_body(
            QueryView(
                contracts,
                lambda rows: html.div({"class_name": "corp-list"}, *[contract_card(c) for c in rows]),
                is_empty=lambda rows: not rows,
                empty=empty_state(
                    "No contracts yet",
                    "Contracts appear here for your organization's admins and for the providers booked on "
                    "their event days.",
                    icon_name="check",
                    action=button_link("Corporate Solutions", "/corporate", variant="outline"),
                ),
                loading_label="Loading your contracts…",
            ),
            class_name="corp-list",
        ),
    )
