"""The notification bell: a link to the inbox with the real unread count (unread, not archived, not muted),
named for screen readers "Notifications, 2 unread". A leaf: it loads the count itself and listens to the
signed-in person's notification topic, so a new notification, or one read in another tab, re-renders only
this link. Nothing for a visitor.

Staff members' bells (the roles that may open /staff) open the staff portal's inbox (/staff/notifications), everybody else's the dashboard's.
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.notifications import count_unread, notifications_topic
from components.context import use_session
from components.format import cart_badge_text
from components.guards import STAFF_ROLES
from components.hooks import use_query, use_topic
from components.icons import icon

DASHBOARD_INBOX = "/dashboard/notifications"
STAFF_INBOX = "/staff/notifications"


def inbox_path(role: object) -> str:
    return STAFF_INBOX if role in STAFF_ROLES else DASHBOARD_INBOX


def bell_label(count: int) -> str:
    return f"Notifications, {count} unread" if count else "Notifications"


@component
def NotificationBell() -> VdomDict:
    session = use_session()
    user = session.user
    count = use_query(count_unread, enabled=user is not None)
    use_topic(*((notifications_topic(user.id),) if user else ()), refetch=[count])
    if user is None:
        return html._()
    unread = count.data or 0
    text = cart_badge_text(unread)
    return html.a(
        {
            "class_name": "icon-button notification-bell",
            "href": inbox_path(user.role),
            "aria-label": bell_label(unread),
            "data-unread": str(unread),
        },
        icon("bell", size=20),
        html.span({"class_name": "badge-count", "aria-hidden": "true"}, text) if text else "",
    )
