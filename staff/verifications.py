"""Verification Requests (/staff/verifications, manage_verification; issue 13): the queue of provider
applications, the longest waiting first, with filters (status, type, licence state) and pages of 50 in the
URL; `?application=<id>` opens one beside its documents, with the checklist, the decisions and the timeline.

Opening an application is a recorded read (audit log) and takes a submitted application into review; the
rules are app/services/enrollment's, which refuse on their own whatever this screen shows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from reactpy import component, event, html, use_ref, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.enrollment import (
    REVIEW_TOPIC,
    US_STATES,
    approve_application,
    get_application_review,
    list_verification_queue,
    open_application,
    reject_application,
    request_information,
    set_check,
)
from components.context import use_session
from components.effects import use_effect
from components.format import format_date
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.icons import icon
from components.kit import (
    MAX_PAGE_SIZE,
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    ListQuery,
    QueryView,
    StaffCard,
    TextArea,
    Tone,
    UserText,
    bullets,
    choice_param,
    dialog_actions,
    facts,
    field_group,
    hint,
    meta_line,
    page_param,
    portal_body,
    staff_screen,
    text_param,
)
from components.kit.list_screen import MorePages
from components.staff_frame import StaffFrame, StaffSection
from models.enrollment import ApplicationStatus, DecisionCreate, DocumentRead, ReasonUse
from models.enrollment_review import (
    MAX_DECISION_MESSAGE,
    QUEUE_STATUSES,
    ApplicationReviewRead,
    CheckItemRead,
    QueuePageRead,
    QueueRowRead,
)
from models.provider import ProviderType
from staff.credential_ui import DOCUMENT_URL, FilterForm, counts_list, standing_badge

PATH = "/staff/verifications"
PHOTO_URL = "/api/enrollment/photos/{id}"
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
STATUS_TONES: dict[ApplicationStatus, Tone] = {
    ApplicationStatus.submitted: "info",
    ApplicationStatus.in_review: "warning",
    ApplicationStatus.needs_information: "neutral",
    ApplicationStatus.approved: "success",
    ApplicationStatus.rejected: "danger",
    ApplicationStatus.draft: "neutral",
}
DECISIONS: dict[str, tuple[str, str, Callable[..., Awaitable[ApplicationReviewRead]], ReasonUse | None]] = {
    "approve": ("Approve", "Approve and publish", approve_application, None),
    "information": (
        "Request information",
        "Send back to the applicant",
        request_information,
        ReasonUse.information,
    ),
    "reject": ("Reject", "Reject the application", reject_application, ReasonUse.rejection),
}
DONE = {
    "approve": ("Application approved", "The provider is now listed and bookable."),
    "information": ("Information requested", "The applicant was told what to fix."),
    "reject": ("Application rejected", "The applicant was told why."),
}
MAX_PAGE = 1000


def queue_query(params: dict[str, list[str]]) -> tuple[ListQuery, int]:
    """The queue's filters (status, type, licence state), its page and the open application as the URL
    carries them (unknown values dropped; a page past the last one allowed shows that last one). The page
    is one of the filters: opening an application and going back keeps it."""
    state = text_param(params, "state", limit=40).upper()
    page = min(page_param(params, last=10**12), MAX_PAGE)
    filters = {
        "status": choice_param(params, "status", {s.value for s in QUEUE_STATUSES}),
        "type": choice_param(params, "type", ProviderType.__members__),
        "state": state if state in US_STATES else "",
        "page": str(page) if page > 1 else "",
        "application": text_param(params, "application", limit=36),
    }
    return ListQuery(PATH, filters), page


def waiting_text(since: datetime, now: datetime | None = None) -> str:
    """'3 days' — how long an application has been in its status."""
    days = ((now or datetime.now(UTC)) - since.replace(tzinfo=since.tzinfo or UTC)).days
    if days < 1:
        return "today"
    return "1 day" if days == 1 else f"{days} days"


def status_badge(status: ApplicationStatus) -> VdomDict:
    return Badge(status.label, tone=STATUS_TONES[status])


def minutes_text(minute: int) -> str:
    hour, rest = divmod(minute, 60)
    return "midnight" if minute >= 1440 else f"{hour % 12 or 12}:{rest:02d} {'AM' if hour < 12 else 'PM'}"


@component
def VerificationsPage() -> Component:
    return StaffFrame(StaffSection(_Verifications, slug="verifications"), active="verifications")


@component
def _Verifications() -> VdomDict | Component:
    url, page = queue_query(use_search_params())
    application = url.filters["application"]
    if application:
        return _Review(application, url.href(application=""), key=application)
    return staff_screen(
        "Verification Requests",
        FilterForm(
            PATH,
            "Filter the verification queue",
            "queue",
            (
                (
                    "Status",
                    "status",
                    url.filters["status"],
                    "Every open status",
                    [(s.value, s.label) for s in QUEUE_STATUSES],
                ),
                (
                    "Provider type",
                    "type",
                    url.filters["type"],
                    "Every type",
                    [(t.value, t.label) for t in ProviderType],
                ),
                ("Licence state", "state", url.filters["state"], "Every state", sorted(US_STATES)),
            ),
            key=url.href(page=0),
        ),
        _Queue(url, page),
        lead="Provider applications waiting for a review or for the applicant's answer, the longest "
        "waiting first. Open one to check it beside its documents and decide.",
    )


@component
def _Queue(url: ListQuery, page: int) -> VdomDict:
    query = use_query(
        list_verification_queue,
        status=url.filters["status"],
        provider_type=url.filters["type"],
        state=url.filters["state"],
        page=page,
    )
    use_topic(REVIEW_TOPIC, refetch=[query])
    return QueryView(
        query,
        lambda data: queue_section(data, url),
        is_empty=lambda page: page is None,
        loading_label="Loading applications…",
    )


def queue_section(page: QueuePageRead, url: ListQuery) -> VdomDict:
    counts = counts_list(
        "Applications per status",
        [(s.value, status_badge(s), page.counts.get(s.value, 0)) for s in QUEUE_STATUSES],
    )
    return StaffCard(
        "Applications",
        DataTable(
            queue_columns(url),
            page.rows,
            caption="Provider applications, the longest waiting first",
            page_size=MAX_PAGE_SIZE,
            row_key=lambda row: row.id,
            empty="No application matches these filters.",
        ),
        MorePages(page.page, page.has_more, href=url.page_href, label="Queue pages"),
        title_id="queue-title",
        head=(counts,),
        head_class="verify-head",
    )


def queue_columns(url: ListQuery) -> tuple[Column, ...]:
    def applicant(row: QueueRowRead) -> VdomDict:
        return html.a({"href": url.href(application=row.id), "class_name": "verify-open"}, UserText(row.name))

    def npi(row: QueueRowRead) -> Any:
        if row.npi_valid is None:
            return html.span({"class_name": "hint"}, "Not required")
        return Badge("Valid" if row.npi_valid else "Invalid", tone="success" if row.npi_valid else "danger")

    return (
        Column("name", "Applicant", render=applicant),
        Column("type", "Type", render=lambda r: r.provider_type.label if r.provider_type else "—"),
        Column("status", "Status", render=lambda r: status_badge(r.status)),
        Column(
            "waiting", "Waiting", render=lambda r: waiting_text(r.status_changed_at), class_name="audit-when"
        ),
        Column(
            "submitted", "Submitted", render=lambda r: format_date(r.submitted_at) if r.submitted_at else "—"
        ),
        Column("states", "Licence states", render=lambda r: ", ".join(r.license_states) or "—"),
        Column("documents", "Documents", render=lambda r: str(r.documents), numeric=True),
        Column("npi", "NPI", render=npi),
    )


# ---- one application -----------------------------------------------------------------------------------
@component
def _Review(application_id: str, back_href: str) -> VdomDict:
    session = use_session()
    detail = use_query(get_application_review, application_id=application_id)
    use_topic(
        REVIEW_TOPIC,
        refetch=[detail],
        on_event=lambda payload: payload.get("application_id") == application_id,
    )
    opening = use_action(open_application, refetch=[detail], exclusive=False, on_error=lambda _message: None)

    @use_effect(dependencies=[application_id])
    async def opened() -> None:
        await opening.run(application_id=application_id)

    back = html.a(
        {"class_name": "verify-back", "href": back_href},
        icon("arrow-left", size=16),
        "All applications",
    )
    if detail.data is None:
        return portal_body(
            back, QueryView(detail, lambda _data: "", loading_label="Loading the application…")
        )
    review = detail.data
    application = review.application
    return staff_screen(
        UserText(application.name or "Unnamed applicant"),
        html.div(
            {"class_name": "verify-columns"},
            form_data(review),
            documents_section(review),
        ),
        _Checklist(review, detail.refetch),
        _Decisions(review, detail.refetch),
        timeline_section(review, session.time_zone),
        eyebrow=back,
        header=(
            meta_line(
                status_badge(application.status),
                application.provider_type.label if application.provider_type else "No type yet",
                f"Submitted {format_date(application.submitted_at)}" if application.submitted_at else "",
                review.email,
                class_name="verify-meta",
            ),
        ),
        body_class="verify-body",
    )


def _definition(term: str, value: Any) -> tuple[str, Any]:
    return term, value if value not in ("", None) else "—"


def form_data(review: ApplicationReviewRead) -> VdomDict:
    a = review.application
    hours = ", ".join(
        f"{WEEKDAYS[h.weekday]} {minutes_text(h.start_minute)}–{minutes_text(h.end_minute)}"
        for h in a.weekly_hours
    )
    return StaffCard(
        "The application",
        html.div(
            {"class_name": "verify-who"},
            html.img(
                {"src": PHOTO_URL.format(id=a.id), "alt": f"Photo of {a.name}", "class_name": "verify-photo"}
            )
            if a.photo_key
            else "",
            facts(
                _definition("Legal name", UserText(a.name)),
                _definition("Provider type", a.provider_type.label if a.provider_type else ""),
                _definition("Phone", a.phone),
                _definition("Languages", ", ".join(a.languages)),
                _definition("NPI", a.npi),
                class_name="verify-list",
            ),
        ),
        html.h3("Licences"),
        html.ul(
            {"class_name": "verify-items"},
            *(
                html.li(
                    {"key": lic.id},
                    html.strong(f"{lic.license_type} · {lic.state} · {lic.number}"),
                    html.span(f" expires {format_date(lic.expires_on)}"),
                )
                for lic in a.licenses
            ),
        )
        if a.licenses
        else hint("No licence."),
        html.h3("What they offer"),
        html.ul(
            {"class_name": "verify-items"},
            *(
                html.li(
                    {"key": o.service_id},
                    html.strong(o.name),
                    f" · ${o.price} · {', '.join(o.places) or 'anywhere allowed'}",
                )
                for o in review.offers
            ),
        ),
        facts(
            _definition("ZIP codes", ", ".join(a.zip_codes)),
            _definition("Weekly hours", hours),
            _definition("Time zone", a.time_zone.replace("_", " ")),
            class_name="verify-list",
        ),
        html.h3("Bio"),
        UserText(a.bio or "—", tag="p", class_name="verify-bio"),
        title_id="form-title",
        class_name="verify-form",
    )


def document_card(document: DocumentRead) -> VdomDict:
    url = DOCUMENT_URL.format(id=document.id)
    dates = " · ".join(
        part
        for part in (
            f"issued {format_date(document.issued_on)}" if document.issued_on else "",
            f"expires {format_date(document.expires_on)}" if document.expires_on else "",
        )
        if part
    )
    if document.content_type.startswith("image/"):
        view: Any = html.a(
            {"href": url, "target": "_blank", "rel": "noopener", "class_name": "verify-image-link"},
            html.img(
                {
                    "src": url,
                    "alt": f"{document.kind.label} ({document.filename})",
                    "class_name": "verify-image",
                    "loading": "lazy",
                }
            ),
        )
    else:
        view = html.a(
            {"href": url, "target": "_blank", "rel": "noopener", "class_name": "btn btn-outline btn-sm"},
            icon("file-check", size=16),
            f"Open {document.filename} (new tab)",
        )
    return html.li(
        {"key": document.id, "class_name": "verify-document"},
        html.div(
            {"class_name": "verify-document-head"},
            html.strong(document.kind.label),
            standing_badge(document.standing),
        ),
        hint(UserText(document.filename), f" · {dates}" if dates else ""),
        view,
    )


def documents_section(review: ApplicationReviewRead) -> VdomDict:
    documents = review.application.documents
    return StaffCard(
        "Documents",
        html.ul({"class_name": "verify-document-list"}, *(document_card(d) for d in documents))
        if documents
        else hint("No document uploaded."),
        title_id="documents-title",
        class_name="verify-documents",
    )


@component
def _Checklist(review: ApplicationReviewRead, changed: Callable[[], None]) -> VdomDict:
    open_ = review.application.status in (ApplicationStatus.submitted, ApplicationStatus.in_review)
    return StaffCard(
        "Checklist",
        html.ul(
            {"class_name": "verify-checklist"},
            *(
                _CheckLine(review.application.id, check, open_ and not review.own, changed, key=check.key)
                for check in review.checks
            ),
        ),
        title_id="checklist-title",
    )


@component
def _CheckLine(
    application_id: str, check: CheckItemRead, editable: bool, changed: Callable[[], None]
) -> VdomDict:
    ticking = use_action(set_check, on_success=lambda _r: changed())
    notes = bullets(check.notes, class_name="verify-notes") if check.notes else ""
    if check.automatic:
        mark = Badge("Passed" if check.passed else "Failed", tone="success" if check.passed else "danger")
        return html.li(
            {"class_name": "verify-check"},
            html.div(
                {"class_name": "verify-check-line"},
                mark,
                html.strong(check.label),
                html.span({"class_name": "hint"}, "(computed)"),
            ),
            hint(check.detail),
            notes,
        )

    async def toggle(checked: bool) -> None:
        await ticking.run(application_id=application_id, item=check.key, checked=checked)

    who = (
        f"Ticked by {check.checked_by}" + (f" on {format_date(check.checked_at)}" if check.checked_at else "")
        if check.passed
        else ""
    )
    return html.li(
        {"class_name": "verify-check"},
        Checkbox(
            check.label,
            check.key,
            id=f"check-{check.key.replace(':', '-')}",
            default=check.passed,
            disabled=not editable or ticking.pending,
            on_change=toggle,
            class_name="perm-item",
            hint=" · ".join(part for part in (check.detail, who) if part),
            key=f"{check.key}-{check.passed}",
        ),
        notes,
    )


@component
def _Decisions(review: ApplicationReviewRead, changed: Callable[[], None]) -> VdomDict:
    dialog, set_dialog = use_state("")
    status = review.application.status
    if review.own:
        body: Any = html.p(
            {"class_name": "notice"}, "This is your own application: another reviewer must decide it."
        )
    elif not review.decidable:
        body = hint(f"Decided: {status.label.lower()}. Nothing more to decide.")
    else:
        approvable = status in (ApplicationStatus.submitted, ApplicationStatus.in_review)
        body = html._(
            bullets(review.blockers, class_name="verify-notes") if review.blockers and approvable else "",
            html.div(
                {"class_name": "verify-actions"},
                Button(
                    "Approve",
                    icon="check",
                    disabled=not review.approvable,
                    on_click=lambda: set_dialog("approve"),
                )
                if approvable
                else "",
                Button(
                    "Request information",
                    variant="outline",
                    icon="message",
                    on_click=lambda: set_dialog("information"),
                )
                if approvable
                else "",
                Button("Reject", variant="danger", icon="x", on_click=lambda: set_dialog("reject")),
            ),
        )
    return StaffCard(
        "Decision",
        body,
        _DecisionDialog(review, dialog, lambda: set_dialog(""), changed, key=dialog) if dialog else "",
        title_id="decision-title",
    )


@component
def _DecisionDialog(
    review: ApplicationReviewRead, kind: str, on_close: Callable[[], None], changed: Callable[[], None]
) -> VdomDict:
    session = use_session()
    title, submit_label, fn, use = DECISIONS[kind]
    deciding = use_action(fn)
    chosen: set[str] = use_ref(set[str]()).current
    form = use_form(message="")
    reasons = [r for r in review.reasons if use is not None and r.applies_to in (use, ReasonUse.both)]

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        decision = DecisionCreate(
            reasons=[r.code for r in reasons if r.code in chosen][:10],
            message=str(form.values.get("message", ""))[:MAX_DECISION_MESSAGE],
        )
        done = await deciding.run(application_id=review.application.id, decision=decision)
        if done is not None:
            session.toaster.success(*DONE[kind])
            on_close()
            changed()

    def toggle(code: str, checked: bool) -> None:
        (chosen.add if checked else chosen.discard)(code)

    return Dialog(
        f"{title}: {review.application.name}",
        html.form(
            {"class_name": "form", "on_submit": submit},
            field_group(
                "Reasons (the applicant reads them, with what to do)",
                html.ul(
                    {"class_name": "verify-reasons"},
                    *(
                        html.li(
                            {"key": r.code, "class_name": "perm-item"},
                            Checkbox(
                                r.label,
                                r.code,
                                id=f"reason-{kind}-{r.code}",
                                on_change=lambda checked, code=r.code: toggle(code, checked),
                            ),
                        )
                        for r in reasons
                    ),
                ),
                class_name="perm-set",
            )
            if use is not None
            else hint("The provider is listed at once: bookable in their ZIP codes."),
            TextArea(
                "Message to the applicant (optional)",
                "message",
                form=form,
                id=f"message-{kind}",
                rows=4,
                max_length=MAX_DECISION_MESSAGE,
                hint=f"Up to {MAX_DECISION_MESSAGE:,} characters; e-mailed and shown on their application.",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=deciding.pending),
                Button(
                    submit_label,
                    type="submit",
                    variant="danger" if kind == "reject" else "primary",
                    pending=deciding.pending,
                    pending_label="Saving…",
                ),
            ),
        ),
        open=True,
        on_close=on_close,
        busy=deciding.pending,
        id=f"decide-{kind}",
        class_name="staff-modal",
    )


EVENT_LABELS = {
    "created": "Started",
    "submitted": "Submitted",
    "resubmitted": "Resubmitted",
    "in_review": "Taken into review",
    "info_requested": "Information requested",
    "approved": "Approved",
    "rejected": "Rejected",
    "document_approved": "Document approved",
    "document_rejected": "Document rejected",
    "nudged": "Reminder sent",
    "suspended": "Suspended",
    "reinstated": "Reinstated",
    "lapsed": "Credentials lapsed",
    "withdrawn": "Withdrawn",
}


def timeline_section(review: ApplicationReviewRead, time_zone: str) -> VdomDict:
    def line(entry: Any) -> VdomDict:
        e = entry.event
        reasons = e.details.get("reasons") or ([e.details["reason"]] if e.details.get("reason") else [])
        return html.li(
            {"key": e.id},
            html.time({"date_time": e.at.isoformat()}, format_date(e.at.astimezone(ZoneInfo(time_zone)))),
            html.strong(EVENT_LABELS.get(e.kind.value, e.kind.value)),
            html.span(f"by {entry.actor_name}" if entry.actor_name else ""),
            html.span({"class_name": "hint"}, ", ".join(reasons)) if reasons else "",
        )

    return StaffCard(
        "Timeline",
        html.ol({"class_name": "verify-timeline"}, *(line(entry) for entry in review.timeline)),
        title_id="timeline-title",
    )
