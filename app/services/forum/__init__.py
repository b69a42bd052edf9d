"""The community forum with moderation (issue 16): categories seeded as reference data (`_seed`); reading
topics and their posts, public (`_reads`); starting topics, replying, quoting, likes, bookmarks, watching or
muting a topic, the accepted answer (`_posting`); flags, the review queue, the moderators' actions with their
reasons, silences and the moderation log (`_moderation`); who may post and who moderates (`_access`).

Every new topic and reply passes the red-flag detector (app.services.safety): a flagged post waits for a
moderator and its author is shown the emergency message. A new member's first posts wait for review too.
Markdown is rendered by the handbook's renderer (markdown-it, then nh3's allow-list).

Its public surface: the names below (`__all__`).
"""

from app.services.forum._access import is_forum_moderator
from app.services.forum._moderation import (
    flag_post,
    list_forum_silences,
    moderate_post,
    moderation_log,
    moderation_queue,
    silence_member,
    unsilence_member,
)
from app.services.forum._posting import (
    accept_answer,
    bookmark_topic,
    like_post,
    reply_to_topic,
    start_topic,
    watch_topic,
)
from app.services.forum._reads import get_topic, list_forum_categories, list_topics

__all__ = [
    "accept_answer",
    "bookmark_topic",
    "flag_post",
    "get_topic",
    "is_forum_moderator",
    "like_post",
    "list_forum_categories",
    "list_forum_silences",
    "list_topics",
    "moderate_post",
    "moderation_log",
    "moderation_queue",
    "reply_to_topic",
    "silence_member",
    "start_topic",
    "unsilence_member",
    "watch_topic",
]
