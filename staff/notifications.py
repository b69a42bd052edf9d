"""Notifications in the staff portal (/staff/notifications): the same inbox as the dashboard's
(components/notifications.py), inside the staff frame (its sidebar entry follows Dashboard): tickets
assigned to the member, tickets past a due time, changes to their staff access, and everything else
addressed to them. Settings are the dashboard's (one set per person)."""

from __future__ import annotations

from reactpy import component
from reactpy.types import Component

from components.kit import portal_body, portal_header, portal_page
from components.notifications import NotificationInbox
from components.staff_frame import StaffFrame

PATH = "/staff/notifications"


@component
def StaffNotificationsPage() -> Component:
    return StaffFrame(
        portal_page(
            portal_header(
                "Notifications", eyebrow="Staff Portal", lead="Work assigned to you and account notices."
            ),
            portal_body(NotificationInbox(PATH)),
        ),
        active="notifications",
    )
