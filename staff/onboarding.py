"""Provider Onboarding (/staff/onboarding, manage_onboarding): the pipeline as counts per status, a board
of the applications in each status (oldest in status first, with their age in status), and the timeline of
the applicant chosen on the board (`?application=<id>`, so it survives a reconnect and can be shared).
Idle drafts are nudged by a periodic job (app.services.enrollment.nudge_idle_drafts), not from here.
"""

from __future__ import annotations

from urllib.parse import urlencode

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.enrollment import NUDGE_EVERY, NUDGE_IDLE, get_applicant_timeline, get_onboarding_pipeline
from components.format import format_date
from components.hooks import use_query
from components.kit import (
    Badge,
    QueryView,
    Region,
    StatCard,
    Tone,
    UserText,
    hint,
    pill,
    staff_screen,
    stat_group,
)
from components.staff_frame import StaffFrame, StaffSection
from models.enrollment import ApplicationStatus, EventKind, WizardStep
from models.standing import ApplicantTimeline, OnboardingCard, OnboardingPipeline, TimelineEntry

PATH = "/staff/onboarding"
TONES: dict[ApplicationStatus, Tone] = {
    ApplicationStatus.draft: "neutral",
    ApplicationStatus.submitted: "info",
    ApplicationStatus.in_review: "info",
    ApplicationStatus.needs_information: "warning",
    ApplicationStatus.approved: "success",
    ApplicationStatus.rejected: "danger",
}
EVENT_LABELS = {
    EventKind.created: "Started the application",
    EventKind.submitted: "Submitted",
    EventKind.info_requested: "Information requested",
    EventKind.resubmitted: "Resubmitted",
    EventKind.in_review: "Review started",
    EventKind.approved: "Approved",
    EventKind.rejected: "Rejected",
    EventKind.document_approved: "Document approved",
    EventKind.document_rejected: "Document rejected",
    EventKind.nudged: "Reminder sent (idle draft)",
    EventKind.suspended: "Suspended",
    EventKind.reinstated: "Reinstated",
    EventKind.lapsed: "Credentials lapsed",
    EventKind.withdrawn: "Withdrawn",
}


def days_text(days: int) -> str:
    return "today" if days == 0 else ("1 day" if days == 1 else f"{days} days")


def application_href(application_id: str) -> str:
    return f"{PATH}?{urlencode({'application': application_id})}#timeline"


@component
def OnboardingPage() -> Component:
    return StaffFrame(StaffSection(_Onboarding, slug="onboarding"), active="onboarding")


@component
def _Onboarding() -> VdomDict:
    chosen = (use_search_params().get("application") or [""])[0][:36]
    pipeline = use_query(get_onboarding_pipeline)
    return staff_screen(
        "Provider Onboarding",
        QueryView(pipeline, lambda data: pipeline_view(data, chosen), loading_label="Loading the pipeline…"),
        _Timeline(chosen, key=chosen) if chosen else "",
        lead=f"Every application by status, oldest first. Drafts idle for {NUDGE_IDLE.days} days get a "
        f"reminder, at most one every {NUDGE_EVERY.days} days.",
    )


def pipeline_view(data: OnboardingPipeline, chosen: str) -> VdomDict:
    return html._(
        stat_group(
            *(StatCard(c.status.label, str(c.count), key=c.status.value) for c in data.columns),
            label="Applications by status",
            class_name="onboarding-counts",
        ),
        html.section(
            {"class_name": "onboarding-board", "aria-label": "Onboarding board"},
            *(
                Region(
                    column.status.label,
                    html.ol(
                        {"class_name": "onboarding-cards"},
                        *(board_card(card, card.id == chosen) for card in column.cards),
                    )
                    if column.cards
                    else hint("None"),
                    hint(f"Showing the oldest {len(column.cards)} of {column.count}.")
                    if column.count > len(column.cards)
                    else "",
                    title_id=f"column-{column.status.value}",
                    class_name="staff-card onboarding-column",
                    head_class="staff-card-head",
                    head=(pill(str(column.count)),),
                    key=column.status.value,
                )
                for column in data.columns
            ),
        ),
    )


def board_card(card: OnboardingCard, current: bool) -> VdomDict:
    step = ""
    if card.status == ApplicationStatus.draft and card.step:
        step = f"Step {min(card.step, len(WizardStep))} of {len(WizardStep)} saved"
    return html.li(
        {"key": card.id, "class_name": "onboarding-card" + (" is-current" if current else "")},
        html.a(
            {
                "class_name": "onboarding-card-link",
                "href": application_href(card.id),
                "aria-current": "true" if current else None,
            },
            UserText(card.name, class_name="onboarding-name"),
        ),
        html.span(
            {"class_name": "onboarding-meta"},
            card.provider_type.label if card.provider_type else "Type not chosen",
        ),
        html.span({"class_name": "onboarding-meta"}, f"In status for {days_text(card.days_in_status)}"),
        html.span({"class_name": "onboarding-meta"}, step) if step else "",
        html.span({"class_name": "onboarding-meta"}, f"Reminded {format_date(card.last_nudged_at)}")
        if card.last_nudged_at
        else "",
    )


@component
def _Timeline(application_id: str) -> VdomDict:
    query = use_query(get_applicant_timeline, application_id=application_id)
    return html.section(
        {"id": "timeline", "class_name": "staff-card", "aria-labelledby": "timeline-title"},
        QueryView(query, timeline_view, loading_label="Loading the timeline…"),
    )


def event_text(entry: TimelineEntry) -> str:
    label = EVENT_LABELS.get(entry.kind, entry.kind.value)
    reason = entry.details.get("reason")
    return f"{label}: {reason}" if reason else label


def timeline_view(data: ApplicantTimeline) -> VdomDict:
    return html._(
        html.div(
            {"class_name": "staff-card-head"},
            html.h2({"id": "timeline-title"}, "Timeline of ", UserText(data.name)),
            Badge(data.status.label, tone=TONES[data.status]),
        ),
        html.p(
            {"class_name": "staff-card-lead"},
            f"{data.email} · {data.provider_type.label if data.provider_type else 'type not chosen'} · started "
            f"{format_date(data.created_at)}",
        ),
        html.ol(
            {"class_name": "timeline"},
            *(
                html.li(
                    {"key": e.id, "class_name": "timeline-item"},
                    html.time({"date_time": e.at.isoformat()}, format_date(e.at)),
                    html.span({"class_name": "timeline-what"}, event_text(e)),
                    html.span({"class_name": "timeline-who"}, e.actor),
                )
                for e in data.events
            ),
        )
        if data.events
        else hint("Nothing has happened yet."),
    )
