"""Notification Settings (/dashboard/notification-settings): which categories reach the signed-in person
in the app and by e-mail, and which wait for the daily digest (components/notifications.py)."""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict

from components.kit import dashboard_header, portal_body, portal_page
from components.notifications import NotificationSettings


@component
def NotificationSettingsPage() -> VdomDict:
    return portal_page(
        dashboard_header(
            "Notification Settings",
            lead="Choose how we tell you about your visits, requests and account. Security alerts and "
            "cancellations always reach you.",
            up=("Notifications", "/dashboard/notifications"),
        ),
        portal_body(NotificationSettings()),
    )
