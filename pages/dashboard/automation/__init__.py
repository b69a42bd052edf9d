"""Automation (/dashboard/automation, issue 15 part 4; owners and admins, guarded in the route table and in
every service call): the n8n connection and its Test connection, the signing secret and Header Auth
token, simulation mode, which event types are sent (and which may carry clinical text), SPEC's four
workflow templates to download, and the delivery log with Redeliver (live: it reloads as the server's
delivery job sends)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.automation import AUTOMATION_TOPIC, get_integration
from components.hooks import use_query, use_topic
from components.kit import QueryView, dashboard_header, portal_body, portal_page
from pages.dashboard.automation._connection import ConnectionCard
from pages.dashboard.automation._events import EventTypesCard
from pages.dashboard.automation._log import DeliveryLog
from pages.dashboard.automation._security import SecurityCard
from pages.dashboard.automation._templates import TemplatesCard


@component
def AutomationPage() -> VdomDict:
    integration = use_query(get_integration)
    # Reloaded when the connection changes elsewhere (another tab, the delivery job after a 410 Gone).
    use_topic(AUTOMATION_TOPIC, refetch=[integration], on_event=lambda payload: "connected" in payload)
    return portal_page(
        dashboard_header(
            "Automation",
            lead="Send MediVisit events to your n8n workflows: signed, retried until n8n accepts them, "
            "and logged.",
        ),
        portal_body(
            QueryView(
                integration,
                lambda data: html._(
                    ConnectionCard(data, integration),
                    SecurityCard(data, integration),
                    EventTypesCard(data, integration),
                ),
                loading_label="Loading the automation settings…",
            ),
            TemplatesCard(),
            DeliveryLog(),
            class_name="automation",
        ),
    )
