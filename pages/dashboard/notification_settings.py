"""Notification Settings (/dashboard/notification-settings): which categories reach the signed-in person
in the app and by e-mail, and which wait for the daily digest (components/notifications.py)."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from components.kit import portal_body, portal_header, portal_page
from components.notifications import NotificationSettings


@component
def NotificationSettingsPage() -> VdomDict:
    return portal_page(
        portal_header(
            "Notification Settings",
            eyebrow=html.a({"href": "/dashboard/notifications"}, "Notifications"),
            lead="Choose how we tell you about your visits, requests and account. Security alerts and "
            "cancellations always reach you.",
        ),
        portal_body(NotificationSettings()),
    )
