"""Notifications in the staff portal (/staff/notifications): the same inbox as the dashboard's
(components/notifications.py), inside the staff frame (its sidebar entry follows Dashboard): tickets
assigned to the member, tickets past a due time, changes to their staff access, and everything else
addressed to them. Settings are the dashboard's (one set per person)."""

from __future__ import annotations

from reactpy import component, html

from components.kit import portal_header
from components.notifications import NotificationInbox
from components.staff_frame import StaffFrame

PATH = "/staff/notifications"


@component
def StaffNotificationsPage() -> dict:
    return StaffFrame(
        html.div(
            {"class_name": "portal"},
            portal_header(
                "Notifications", eyebrow="Staff Portal", lead="Work assigned to you and account notices."
            ),
            html.div({"class_name": "container portal-body"}, NotificationInbox(PATH)),
        ),
        active="notifications",
    )
