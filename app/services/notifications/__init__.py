"""Notifications: `notify` (called by other domains inside their unit of work), the inbox of the signed-in
person (list, unread count, mark read, archive), preferences per category and channel with a daily digest,
the digest sender, and the security notices of the identity service.

Its public surface: the names below (`__all__`).
"""

from app.services.notifications._catalogue import CATEGORIES, KINDS
from app.services.notifications._copy import (
    ENROLLMENT_PATH,
    STAFF_HOME,
    WAITLIST_APPROVED,
    Audience,
    Breach,
    enrollment_decision_copy,
    staff_access_copy,
    ticket_assigned_copy,
    ticket_link_for_customer,
    ticket_link_for_staff,
    ticket_overdue_copy,
    ticket_red_flag_copy,
    ticket_reply_copy,
    verification_link,
    verification_waiting_copy,
    visit_copy,
    visit_link,
    when_text,
)
from app.services.notifications._delivery import (
    MAX_RECIPIENTS,
    Delivery,
    Message,
    notification_html,
    notifications_topic,
)
from app.services.notifications._inbox import (
    archive_notification,
    count_unread,
    list_notifications,
    mark_all_read,
    mark_read,
    mark_unread,
    unarchive_notification,
)
from app.services.notifications._preferences import (
    get_notification_preferences,
    update_notification_preferences,
)
from app.services.notifications._security import install_security_notices
from app.services.notifications._visits import VisitNote

__all__ = [
    "Audience",
    "Breach",
    "CATEGORIES",
    "Delivery",
    "ENROLLMENT_PATH",
    "KINDS",
    "MAX_RECIPIENTS",
    "Message",
    "STAFF_HOME",
    "VisitNote",
    "WAITLIST_APPROVED",
    "archive_notification",
    "count_unread",
    "enrollment_decision_copy",
    "get_notification_preferences",
    "install_security_notices",
    "list_notifications",
    "mark_all_read",
    "mark_read",
    "mark_unread",
    "notification_html",
    "notifications_topic",
    "staff_access_copy",
    "ticket_assigned_copy",
    "ticket_link_for_customer",
    "ticket_link_for_staff",
    "ticket_overdue_copy",
    "ticket_red_flag_copy",
    "ticket_reply_copy",
    "unarchive_notification",
    "update_notification_preferences",
    "verification_link",
    "verification_waiting_copy",
    "visit_copy",
    "visit_link",
    "when_text",
]
