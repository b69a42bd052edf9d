"""What the applicant reads about their application at every moment: a title, a sentence, the reviewer's
reasons with what to fix, the reviewer's message, and when a rejected applicant may apply again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from models.enrollment import ApplicationRead, ApplicationStatus, DecisionReasonRead

TONES = {
    ApplicationStatus.draft: "info",
    ApplicationStatus.submitted: "info",
    ApplicationStatus.in_review: "info",
    ApplicationStatus.needs_information: "warning",
    ApplicationStatus.approved: "success",
    ApplicationStatus.rejected: "danger",
}


@dataclass(frozen=True)
class StatusSummary:
    title: str
    text: str
    tone: str  # info, warning, success, danger
    reasons: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (what was wrong, what to do)
    message: str = ""  # the reviewer's own words
    reapply_after: datetime | None = None


def _date(moment: datetime | None) -> str:
    return f"{moment:%b} {moment.day}, {moment.year}" if moment else ""


def status_summary(
    application: ApplicationRead, reasons: Mapping[str, DecisionReasonRead], now: datetime
) -> StatusSummary:
    status = application.status
    given = tuple(
        (reasons[code].label, reasons[code].advice)
        if code in reasons
        else (code.replace("_", " ").capitalize(), "")
        for code in application.decision_reasons
    )
    tone = TONES[status]
    if status == ApplicationStatus.draft:
        return StatusSummary(
            "Draft",
            "Your application is saved as you go. Finish each step, then send it for review.",
            tone,
        )
    if status == ApplicationStatus.submitted:
        return StatusSummary(
            "Submitted",
            f"We received your application on {_date(application.submitted_at)}. Our team reviews applications "
            "in the order they arrive, usually within 3 business days; we will notify you.",
            tone,
        )
    if status == ApplicationStatus.in_review:
        return StatusSummary(
            "In review",
            "A member of our credentialing team is checking your licences and documents now.",
            tone,
        )
    if status == ApplicationStatus.needs_information:
        return StatusSummary(
            "Needs information",
            "Our reviewer needs a few changes before they can approve your application. Fix what is listed "
            "below, then send your application again.",
            tone,
            given,
            application.decision_message,
        )
    if status == ApplicationStatus.approved:
        return StatusSummary(
            "Approved",
            "Welcome to MediVisit! Your profile is listed and patients in your area can book you. Manage your "
            "services and hours from your dashboard.",
            tone,
        )
    when = application.reapply_after
    if when is None or when <= now:
        again = "You may apply again now: open your application, update it and send it."
    else:
        again = f"You may apply again from {_date(when)}."
    return StatusSummary(
        "Rejected",
        f"We could not approve your application. {again}",
        tone,
        given,
        application.decision_message,
        when,
    )
