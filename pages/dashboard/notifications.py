"""Notifications (/dashboard/notifications): the signed-in person's inbox (components/notifications.py),
tabs Unread, All and Archived, inside the dashboard."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict

from components.kit import dashboard_header, portal_body, portal_page
from components.notifications import NotificationInbox

PATH = "/dashboard/notifications"


@component
def NotificationsPage() -> VdomDict:
    return portal_page(
        dashboard_header(
            "Notifications",
            lead="Updates about your visits, requests and account. Open one to see the details.",
        ),
        portal_body(NotificationInbox(PATH)),
    )
