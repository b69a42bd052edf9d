"""Notifications: what people are told of other domains' events (the `tell_*` subscribers of internal.py,
wired in medivisit/subscribers.py, and `notify_visits` for the appointments' own notices), the inbox of
the signed-in person (list, unread count, mark read, archive), preferences per category and channel with a
daily digest, the digest sender, and the security notices of the identity service.

Its public surface: the names below (`__all__`).
"""

from app.services.notifications._catalogue import CATEGORIES, KINDS
from app.services.notifications._copy import Audience, visit_copy, visit_link
from app.services.notifications._delivery import Message, notifications_topic
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
    "CATEGORIES",
    "KINDS",
    "Message",
    "VisitNote",
    "archive_notification",
    "count_unread",
    "get_notification_preferences",
    "install_security_notices",
    "list_notifications",
    "mark_all_read",
    "mark_read",
    "mark_unread",
    "notifications_topic",
    "unarchive_notification",
    "update_notification_preferences",
    "visit_copy",
    "visit_link",
]
