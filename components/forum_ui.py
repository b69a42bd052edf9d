"""Pieces the forum's screens and the staff moderation screen share: the not-medical-advice notice (the
emergency banner a red-flagged post shows its author is components/safety_ui.py's), an author's name with the "Verified provider" badge,
and the words for why a post waits for review."""

from __future__ import annotations

from reactpy import html
from reactpy.types import VdomDict

from components.format import format_date
from components.icons import icon
from components.kit import Badge, UserText
from models.forum import FLAG_LABELS, FlagReason, ForumAuthorRead, ReviewReason

NOT_MEDICAL_ADVICE = (
    "The forum is not medical advice: members share experiences, not diagnoses. Talk to your clinician "
    "before changing any treatment. In an emergency, call 911."
)
REVIEW_LABELS: dict[ReviewReason, str] = {
    ReviewReason.new_member: "New member",
    ReviewReason.safety: "Safety check",
    ReviewReason.flags: "Flagged by members",
}
WAITING_FOR_REVIEW = "Waiting for review: only you and the moderators can see this post until it is approved."


def medical_notice() -> VdomDict:
    return html.div(
        {"class_name": "notice notice-warning forum-medical", "role": "note"},
        icon("alert", size=18),
        html.p(NOT_MEDICAL_ADVICE),
    )


def author_line(author: ForumAuthorRead, *extra: object) -> VdomDict:
    """'Ada Nurse [Verified provider] · Nov 26, 2026'."""
    return html.span(
        {"class_name": "forum-author"},
        html.strong(UserText(author.name)),
        Badge("Verified provider", tone="success", icon="shield") if author.verified_provider else "",
        *extra,
    )


def when(moment: object) -> VdomDict:
    return html.span({"class_name": "forum-when"}, format_date(moment))  # type: ignore[arg-type]


def flag_summary(reasons: dict[str, int]) -> str:
    """'Spam 2, Medical misinformation 1'."""
    return ", ".join(f"{FLAG_LABELS[FlagReason(key)]} {count}" for key, count in sorted(reasons.items()))
