"""Notifications: `notify` (called by other domains inside their unit of work), the inbox of the signed-in
person (list, unread count, mark read, archive), preferences per category and channel with a daily digest,
the digest sender, and the security notices of the identity service.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_catalogue": ("CATEGORIES", "KINDS"),
    "_delivery": (
        "Delivery",
        "MAX_RECIPIENTS",
        "Message",
        "notification_html",
        "notifications_topic",
        "notify",
        "notify_each",
    ),
    "_digest": ("send_daily_digests",),
    "_inbox": (
        "archive_notification",
        "count_unread",
        "list_notifications",
        "mark_all_read",
        "mark_read",
        "mark_unread",
        "unarchive_notification",
    ),
    "_preferences": ("get_notification_preferences", "update_notification_preferences"),
    "_security": ("install_security_notices",),
    "_visits": ("VisitNote", "notify_visits"),
    "_copy": (
        "Audience",
        "Breach",
        "ENROLLMENT_PATH",
        "STAFF_HOME",
        "WAITLIST_APPROVED",
        "enrollment_decision_copy",
        "staff_access_copy",
        "ticket_assigned_copy",
        "ticket_link_for_customer",
        "ticket_link_for_staff",
        "ticket_overdue_copy",
        "ticket_red_flag_copy",
        "ticket_reply_copy",
        "verification_link",
        "verification_waiting_copy",
        "visit_copy",
        "visit_link",
        "when_text",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
