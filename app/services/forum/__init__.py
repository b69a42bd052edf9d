"""The community forum with moderation (issue 16): categories seeded as reference data (`_seed`); reading
topics and their posts, public (`_reads`); starting topics, replying, quoting, likes, bookmarks, watching or
muting a topic, the accepted answer (`_posting`); flags, the review queue, the moderators' actions with their
reasons, silences and the moderation log (`_moderation`); who may post and who moderates (`_access`).

Every new topic and reply passes the red-flag detector (app.services.safety): a flagged post waits for a
moderator and its author is shown the emergency message. A new member's first posts wait for review too.
Markdown is rendered by the handbook's renderer (markdown-it, then nh3's allow-list).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_access": ("is_forum_moderator",),
    "_moderation": (
        "flag_post",
        "list_forum_silences",
        "moderate_post",
        "moderation_log",
        "moderation_queue",
        "silence_member",
        "unsilence_member",
    ),
    "_posting": (
        "accept_answer",
        "bookmark_topic",
        "like_post",
        "reply_to_topic",
        "start_topic",
        "watch_topic",
    ),
    "_reads": ("get_topic", "list_forum_categories", "list_topics"),
    "_seed": ("ensure_forum_categories",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
