"""Careers (/careers, issue 17 part 5): what MediVisit values and the open roles HR publishes from the staff
portal, each with its own page (/careers/<slug>): the job's description and an application form that works
signed out (name, e-mail, optional phone, a short cover note and a CV the browser uploads first, through
/api/careers/cv), then a clear confirmation; the applicant is also e-mailed one. Licensed providers are
pointed to Join as Provider instead.

app/services/careers decides what each person may read (drafts and closed jobs only for HR), checks every
field and renders the description's Markdown sanitised, so its HTML is inserted as given.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict
from reactpy_router import use_params

from app.services.careers import apply_for_job, get_posting, get_staged_cv, list_open_postings
from app.settings import get_settings
from components import browser
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Field,
    QueryView,
    Region,
    ServerForm,
    TextArea,
    back_link,
    button_link,
    cta_band,
    detail_header,
    empty_state,
    feature_grid,
    file_button,
    file_input,
    form_error,
    hint,
    notice,
    page_title,
    public_page,
    section,
    titled_card,
    upload_receiver,
)
from models.careers import (
    EMPLOYMENT_LABELS,
    MAX_COVER_NOTE,
    MAX_EMAIL,
    MAX_NAME,
    MAX_SLUG,
    ApplicationCreate,
    ApplicationSentRead,
    PostingDetailRead,
    PostingRead,
    PostingStatus,
)

PATH = "/careers"
CV_URL = "/api/careers/cv"
CV_ACCEPT = ".pdf,.doc,.docx,.odt"

VALUES = (
    (
        "shield",
        "Safety first",
        "Every decision starts with the patient in the room and the provider at the door.",
    ),
    ("heart", "Respect people's time", "Care should fit around people's lives, not the other way round."),
    ("check", "Say what's true", "Clear prices, plain words, and no promises we can't keep."),
    ("users", "Build with providers", "Nurses and clinicians shape the product they use every day."),
)
EQUAL_OPPORTUNITY = (
    "We consider all applicants without regard to race, color, religion, sex, sexual orientation, gender "
    "identity, national origin, age, disability or veteran status."
)


def posting_href(slug: str) -> str:
    return f"{PATH}/{quote(slug)}"


def _facts(posting: PostingRead) -> VdomDict:
    return html.ul(
        {"class_name": "career-facts"},
        html.li(icon("map-pin", size=16), posting.location),
        html.li(icon("clock", size=16), EMPLOYMENT_LABELS[posting.employment_type]),
        html.li(icon("users", size=16), posting.team),
    )


def _provider_band() -> VdomDict:
    return section(
        cta_band(
            "Licensed provider?",
            "You don't need a job application to see patients. Join as a provider instead.",
            button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
        ),
    )


# ---- the list ------------------------------------------------------------------------------------------
@component
def CareersPage() -> VdomDict:
    query = use_query(list_open_postings)
    return public_page(
        "Work with us",
        section(
            QueryView(
                query,
                _open_roles,
                loading_label="Loading the open roles…",
                empty=empty_state(
                    "No open roles right now",
                    "We post every opening here first. Please check back soon.",
                    icon_name="briefcase",
                ),
            ),
            html.p({"class_name": "hint spaced-row"}, EQUAL_OPPORTUNITY),
            title="Open roles",
            id="open-roles",
        ),
        section(
            feature_grid(VALUES, columns=4),
            title="What we value",
            muted=True,
        ),
        _provider_band(),
        lead="We're building a simpler way to get licensed care at home. If that matters to you, we'd like "
        "to hear from you.",
        eyebrow="Careers",
    )


def _open_roles(postings: list[PostingRead]) -> VdomDict:
    return html.ul(
        {"class_name": "career-list", "aria-label": "Open roles"},
        *(
            html.li(
                {"key": posting.slug, "class_name": "career-item card"},
                html.div(
                    html.h3(
                        {"class_name": "career-item-title"},
                        html.a({"href": posting_href(posting.slug)}, posting.title),
                    ),
                    _facts(posting),
                ),
                button_link(
                    "View and apply",
                    posting_href(posting.slug),
                    variant="outline",
                    size="sm",
                    **{"aria-label": f"View and apply: {posting.title}"},
                ),
            )
            for posting in postings
        ),
    )


# ---- one job -------------------------------------------------------------------------------------------
@component
def CareerPostingPage() -> VdomDict:
    slug = use_params().get("slug", "")[:MAX_SLUG]
    query = use_query(get_posting, slug=slug)
    return html.div(
        {"class_name": "career-page"},
        QueryView(
            query, lambda posting: _Posting(posting, key=posting.slug), loading_label="Loading the job…"
        ),
    )


@component
def _Posting(posting: PostingDetailRead) -> VdomDict:
    is_open = posting.status == PostingStatus.open
    return html._(
        page_title(f"{posting.title} · Careers"),
        detail_header(_facts(posting), trail=(("Careers", PATH), (posting.team, None)), title=posting.title),
        section(
            ""
            if is_open
            else notice(
                "This job is a draft: only HR can see it until it is opened."
                if posting.status == PostingStatus.draft
                else "This job is closed: it no longer takes applications.",
                tone="warning",
            ),
            html.div(
                {"class_name": "career-layout"},
                html.article(
                    {
                        "class_name": "career-description prose",
                        "aria-label": "About the job",
                        "dangerouslySetInnerHTML": {"__html": posting.description_html},
                    }
                ),
                _ApplicationForm(posting) if is_open else "",
            ),
            back_link("All open roles", PATH),
        ),
        _provider_band(),
    )


@component
def _ApplicationForm(posting: PostingDetailRead) -> VdomDict:
    form = use_form(draft=f"careers:{posting.slug}", name="", email="", phone="", cover_note="")
    # The CV staged in this tab (the upload's JSON answer: {id, filename, size, content_type}).
    cv_state: State[dict[str, Any] | None] = use_state(None)
    uploaded_now, set_cv = cv_state
    staged = use_query(get_staged_cv)  # or one staged before a reload
    cv = uploaded_now or (staged.data.model_dump() if staged.data else None)
    sent_state: State[ApplicationSentRead | None] = use_state(None)
    sent, set_sent = sent_state
    problem, set_problem = use_state("")

    def done(result: ApplicationSentRead) -> None:
        form.discard_draft()
        set_sent(result)

    action = use_action(apply_for_job, on_success=done, on_error=set_problem)

    def uploaded(event: dict) -> None:
        try:
            staged = json.loads(event["target"]["value"])
        except (KeyError, TypeError, ValueError):
            return
        if isinstance(staged, dict) and staged.get("id"):
            set_cv(staged)
            set_problem("")

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await action.run(
            slug=posting.slug,
            data=ApplicationCreate(
                **{k: str(form.values.get(k, "") or "") for k in ("name", "email", "phone", "cover_note")},
                cv_id=cv["id"] if cv else "",
            ),
        )

    if sent is not None:
        return _sent(sent)
    return Region(
        "Apply for this job",
        ServerForm(
            form_error(problem),
            Field(
                "Full name",
                "name",
                form=form,
                id="apply-name",
                required=True,
                max_length=MAX_NAME,
                autocomplete="name",
            ),
            Field(
                "E-mail",
                "email",
                form=form,
                id="apply-email",
                type="email",
                required=True,
                max_length=MAX_EMAIL,
                autocomplete="email",
                hint="We'll send a confirmation here, and write about next steps.",
            ),
            Field(
                "Phone (optional)",
                "phone",
                form=form,
                id="apply-phone",
                type="tel",
                max_length=64,
                autocomplete="tel",
            ),
            TextArea(
                "Cover note (optional)",
                "cover_note",
                form=form,
                id="apply-note",
                rows=6,
                max_length=MAX_COVER_NOTE,
                hint=f"A few lines on why this role, at most {MAX_COVER_NOTE:,} characters.",
            ),
            _cv_upload(cv, uploaded),
            Button("Send application", type="submit", pending=action.pending, pending_label="Sending…"),
            hint(
                "Only our hiring team reads your application. ",
                html.a({"href": "/privacy-policy"}, "Privacy policy"),
            ),
            on_submit=submit,
            id="career-apply-form",
        ),
        title_id="apply-title",
        class_name="career-apply card",
        tag="aside",
        title_class="card-title",
    )


def _cv_upload(cv: dict[str, Any] | None, uploaded: Callable[[dict], None]) -> VdomDict:
    """The CV's file input: the browser posts the file at once (static/js/uploads.js) and hands the staged
    CV to the hidden sink, whose change `uploaded` hears."""
    limit_mb = get_settings().upload_max_bytes // (1024 * 1024)
    return html.div(
        {"class_name": "career-cv", **browser.upload_scope()},
        html.p({"class_name": "field-label", "id": "apply-cv-label"}, "CV (required)"),
        html.p(
            {"class_name": "hint", "id": "apply-cv-hint"},
            f"PDF, Word (.docx, .doc) or OpenDocument (.odt), at most {limit_mb} MB.",
        ),
        html.div(
            {"class_name": "career-cv-row"},
            file_input(
                "apply-cv",
                accept=CV_ACCEPT,
                max_bytes=get_settings().upload_max_bytes,
                url=CV_URL,
                max_files=1,  # the default, named: mypy checks the aria dict below against every keyword left
                **{
                    "aria-labelledby": "apply-cv-label",
                    "aria-required": "true",
                    "aria-describedby": "apply-cv-hint",
                },
            ),
            file_button("Replace CV" if cv else "Upload CV", input_id="apply-cv"),
            html.span(
                {"aria-live": "polite"},  # says which file was received once the upload ends
                html.span(
                    {"class_name": "career-cv-name"},
                    icon("file-check", size=16),
                    f"{cv['filename']} ({max(1, int(cv['size']) // 1024):,} KB)",
                )
                if cv
                else html.span({"class_name": "text-muted"}, "No file chosen"),
            ),
        ),
        upload_receiver(uploaded),
    )


def _sent(sent: ApplicationSentRead) -> VdomDict:
    return titled_card(
        "Application sent",
        html.p(
            f"Thank you. Your application for {sent.posting_title} is with our hiring team. We've e-mailed a "
            f"confirmation to {sent.email}, and we'll write to you there about the next steps."
        ),
        button_link("See other open roles", PATH, variant="outline"),
        icon_name="check",
        class_name="career-apply career-sent",
        tag="aside",
        title_id="sent-title",
        role="status",
        labelled=True,
    )
