"""Careers in the staff portal (issue 17 part 5), for staff with manage_staff (HR; owners hold every
permission):

- /staff/careers: every job posting, drafts and closed ones too, latest change first, with how many
  applications each received and how many are new; a dialog writes a posting (title, team, city and state or
  Remote, employment type, a Markdown description with a preview rendered by the public page's code) and
  sets it draft, open or closed.
- /staff/careers/<slug>: that posting's applications, newest first, a page at a time, filtered by status
  (tabs in the URL); a dialog shows one (contact details, cover note, the CV to download), moves it to its
  next step, keeps HR's notes, and e-mails a rejected applicant only when HR ticks the box.

app/services/careers refuses anyone without manage_staff on every call, whatever this screen shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_params, use_search_params

from app.services.careers import (
    STATE_CODES,
    get_posting,
    list_applications,
    list_postings,
    next_statuses,
    save_posting,
    update_application,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Checkbox,
    Column,
    DataTable,
    Dialog,
    Field,
    NewerOlderLinks,
    PageLinks,
    QueryView,
    Select,
    ServerForm,
    StatusTabs,
    TextArea,
    Tone,
    UserText,
    button_link,
    button_row,
    dialog_actions,
    facts,
    form_error,
    item_title,
    page_param,
    param_href,
    staff_screen,
)
from components.markdown_body import markdown_body
from components.staff_frame import StaffFrame, StaffSection
from models.careers import (
    APPLICATION_STATUS_LABELS,
    EMPLOYMENT_LABELS,
    MAX_CITY,
    MAX_DESCRIPTION,
    MAX_NOTES,
    MAX_SLUG,
    MAX_TEAM,
    MAX_TITLE,
    PAGE_SIZE,
    POSTING_STATUS_LABELS,
    ApplicationListRead,
    ApplicationRead,
    ApplicationStatus,
    ApplicationUpdate,
    PostingDetailRead,
    PostingListRead,
    PostingRead,
    PostingStatus,
    PostingWrite,
)

PATH = "/staff/careers"
LEAD = "Job postings at /careers and the applications they receive. Only staff with manage_staff see this."
POSTING_TONES: dict[PostingStatus, Tone] = {
    PostingStatus.draft: "warning",
    PostingStatus.open: "success",
    PostingStatus.closed: "neutral",
}
APPLICATION_TONES: dict[ApplicationStatus, Tone] = {
    ApplicationStatus.new: "info",
    ApplicationStatus.reviewing: "neutral",
    ApplicationStatus.interview: "warning",
    ApplicationStatus.offer: "warning",
    ApplicationStatus.hired: "success",
    ApplicationStatus.rejected: "danger",
}


def applications_href(slug: str) -> str:
    return f"{PATH}/{quote(slug)}"


def cv_href(application_id: str) -> str:
    return f"/api/careers/applications/{quote(application_id)}/cv"


# ---- the postings --------------------------------------------------------------------------------------
@component
def CareersAdminPage() -> Component:
    return StaffFrame(StaffSection(_Postings, slug="careers"), active="careers")


@component
def _Postings() -> VdomDict:
    page = page_param(use_search_params(), last=1_000)
    query = use_query(list_postings, page=page)
    editing_state: State[str | None] = use_state(
        None
    )  # None: closed; "": a new posting; else the slug edited
    editing, set_editing = editing_state
    return staff_screen(
        "Careers",
        QueryView(
            query,
            lambda found: _postings_table(found, set_editing),
            loading_label="Loading the job postings…",
            is_empty=lambda _found: False,
        ),
        lead=LEAD,
        header=(
            button_row(
                button_link("View the careers page", "/careers", variant="outline"),
                Button("New job", icon="plus", on_click=lambda: set_editing("")),
            ),
        ),
        after=(
            _Editor(editing or None, on_close=lambda: set_editing(None), query=query, key=editing or "new")
            if editing is not None
            else "",
        ),
    )


def _applications_cell(posting: PostingRead) -> Any:
    link = html.a(
        {"href": applications_href(posting.slug), "aria-label": f"Applications for {posting.title}"},
        f"{posting.applications:,}",
    )
    return html.span(link, f" ({posting.new_applications:,} new)" if posting.new_applications else "")


def _postings_table(found: PostingListRead, edit: Callable[[str], None]) -> VdomDict:
    columns = [
        Column(
            "title",
            "Job",
            render=lambda p: item_title(
                p.title, p.team, href=applications_href(p.slug), detail_class="career-admin-team"
            ),
        ),
        Column("location", "Location", render=lambda p: p.location),
        Column("employment_type", "Type", render=lambda p: EMPLOYMENT_LABELS[p.employment_type]),
        Column(
            "status",
            "Status",
            render=lambda p: Badge(POSTING_STATUS_LABELS[p.status], tone=POSTING_TONES[p.status]),
        ),
        Column("applications", "Applications", numeric=True, render=_applications_cell),
        Column(
            "updated_at",
            "Updated",
            render=lambda p: format_date(p.updated_at),
            class_name="help-admin-nowrap",
        ),
        Column(
            "actions",
            "Actions",
            render=lambda p: Button(
                "Edit",
                size="sm",
                variant="outline",
                aria_label=f"Edit “{p.title}”",
                on_click=lambda: edit(p.slug),
            ),
        ),
    ]
    pager = NewerOlderLinks(
        found.page, found.has_more, href=lambda n: f"{PATH}?page={n}", label="Pages of job postings"
    )
    return html.div(
        {"class_name": "staff-card"},
        DataTable(
            columns,
            found.postings,
            caption="Job postings",
            page_size=PAGE_SIZE,
            row_key=lambda p: p.slug,
            empty="No job postings yet. Write the first one with New job.",
        ),
        pager,
    )


@component
def _Editor(slug: str | None, on_close: Callable[[], None], query: Query) -> Any:
    """An existing posting is loaded first (the list carries no description); a new one starts empty."""
    if slug is None:
        return _EditorForm(None, on_close, query)
    loaded = use_query(get_posting, slug=slug)
    if loaded.data is None:
        return Dialog(
            "Edit job",
            html.p(
                {"role": "alert"} if loaded.error else {"role": "status"}, loaded.error or "Loading the job…"
            ),
            open=True,
            on_close=on_close,
            id="career-dialog",
        )
    return _EditorForm(loaded.data, on_close, query)


@component
def _EditorForm(posting: PostingDetailRead | None, on_close: Callable[[], None], query: Query) -> VdomDict:
    session = use_session()
    form = use_form(
        draft=f"careers-posting:{posting.slug if posting else 'new'}",
        title=posting.title if posting else "",
        team=posting.team if posting else "",
        remote=posting.remote if posting else False,
        city=posting.city if posting else "",
        state=posting.state if posting else "",
        employment_type=posting.employment_type.value if posting else "",
        body=posting.description if posting else "",
        status=posting.status.value if posting else PostingStatus.draft.value,
    )
    tab, set_tab = use_state("write")
    problem, set_problem = use_state("")

    def saved(result: PostingDetailRead) -> None:
        form.discard_draft()
        session.toaster.success(f"Job saved ({POSTING_STATUS_LABELS[result.status].lower()})", result.title)
        on_close()

    action = use_action(save_posting, refetch=[query], on_success=saved, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        text = {
            k: str(form.values.get(k, "") or "")
            for k in ("title", "team", "city", "state", "employment_type")
        }
        await action.run(
            slug=posting.slug if posting else None,
            data=PostingWrite(
                **text,
                remote=bool(form.values.get("remote")),
                description=str(form.values.get("body", "") or ""),
                status=str(form.values.get("status", "") or ""),
            ),
        )

    return Dialog(
        "Edit job" if posting else "New job",
        ServerForm(
            form_error(problem),
            Field("Title", "title", form=form, id="career-title", required=True, max_length=MAX_TITLE),
            Field(
                "Team",
                "team",
                form=form,
                id="career-team",
                required=True,
                max_length=MAX_TEAM,
                hint="For example: Patient support, Engineering and design.",
            ),
            html.div(
                {"class_name": "career-admin-row"},
                Field("City", "city", form=form, id="career-city", max_length=MAX_CITY),
                Select(
                    "State",
                    "state",
                    form=form,
                    id="career-state",
                    options=list(STATE_CODES),
                    placeholder="Choose a state",
                ),
            ),
            Checkbox(
                "Remote",
                "remote",
                form=form,
                id="career-remote",
                hint="Ticked, the job shows as Remote and the city and state are not needed.",
            ),
            html.div(
                {"class_name": "career-admin-row"},
                Select(
                    "Employment type",
                    "employment_type",
                    form=form,
                    id="career-type",
                    options=[(kind.value, label) for kind, label in EMPLOYMENT_LABELS.items()],
                    placeholder="Choose a type",
                    required=True,
                ),
                Select(
                    "Status",
                    "status",
                    form=form,
                    id="career-status",
                    options=[(status.value, label) for status, label in POSTING_STATUS_LABELS.items()],
                    hint="Open jobs are listed at /careers and take applications.",
                ),
            ),
            markdown_body(form, tab, set_tab, id="career", max_length=MAX_DESCRIPTION),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Save job", type="submit", pending=action.pending),
            ),
            on_submit=submit,
            id="career-form",
            class_name="handbook-editor",
        ),
        open=True,
        on_close=on_close,
        description="Markdown: ## for headings, **bold**, - for lists.",
        id="career-dialog",
        busy=action.pending,
        class_name="dialog-wide",
    )


# ---- one posting's applications ------------------------------------------------------------------------
@component
def ApplicationsPage() -> Component:
    return StaffFrame(StaffSection(_Applications, slug="careers"), active="careers")


@component
def _Applications() -> VdomDict:
    slug = use_params().get("slug", "")[:MAX_SLUG]
    params = use_search_params()
    status = (params.get("status") or [""])[0]
    status = status if status in ApplicationStatus.__members__ else ""
    page = page_param(params, last=1_000)
    query = use_query(list_applications, slug=slug, status=status or None, page=page)
    reviewing_state: State[ApplicationRead | None] = use_state(None)
    reviewing, set_reviewing = reviewing_state
    tab_href = param_href(f"{PATH}/{quote(slug)}", params, "status", default="")
    found: ApplicationListRead | None = query.data
    return staff_screen(
        found.posting.title if found else "Applications",
        QueryView(
            query,
            lambda listed: _applications_view(listed, tab_href, set_reviewing),
            loading_label="Loading the applications…",
            is_empty=lambda _listed: False,
        ),
        lead=f"{found.posting.team} · {found.posting.location} · {EMPLOYMENT_LABELS[found.posting.employment_type]}"
        if found
        else None,
        eyebrow="Careers · Applications",
        header=(
            html.p(
                {"class_name": "button-row career-back"},
                button_link("← All job postings", PATH, variant="outline", size="sm"),
            ),
        ),
        after=(
            _Review(reviewing, on_close=lambda: set_reviewing(None), query=query, key=reviewing.id)
            if reviewing is not None
            else "",
        ),
    )


def _applications_view(
    listed: ApplicationListRead, tab_href: Callable[[str], str], review: Callable[[ApplicationRead], None]
) -> VdomDict:
    everyone = sum(listed.counts.values())
    tabs = [("", f"All ({everyone:,})")] + [
        (status.value, f"{label} ({listed.counts.get(status, 0):,})")
        for status, label in APPLICATION_STATUS_LABELS.items()
    ]
    selected = listed.status.value if listed.status else ""
    columns = [
        Column(
            "name",
            "Applicant",
            render=lambda a: item_title(UserText(a.name), a.email, detail_class="career-admin-team"),
        ),
        Column(
            "created_at",
            "Received",
            render=lambda a: format_date(a.created_at),
            class_name="help-admin-nowrap",
        ),
        Column(
            "status",
            "Status",
            render=lambda a: Badge(APPLICATION_STATUS_LABELS[a.status], tone=APPLICATION_TONES[a.status]),
        ),
        Column(
            "cv",
            "CV",
            render=lambda a: (
                html.a(
                    {"href": cv_href(a.id), "download": True, "aria-label": f"Download the CV of {a.name}"},
                    a.cv.filename,
                )
                if a.cv
                else "—"
            ),
        ),
        Column(
            "actions",
            "Actions",
            render=lambda a: Button(
                "Review",
                size="sm",
                variant="outline",
                aria_label=f"Review {a.name}",
                on_click=lambda: review(a),
            ),
        ),
    ]
    return html.div(
        {"class_name": "staff-card"},
        StatusTabs(
            tabs,
            selected,
            DataTable(
                columns,
                listed.applications,
                caption="Applications",
                page_size=PAGE_SIZE,
                row_key=lambda a: a.id,
                empty="No applications here yet.",
            ),
            PageLinks(
                listed.page,
                listed.total,
                PAGE_SIZE,
                href=lambda n: f"{tab_href(selected)}{'&' if '?' in tab_href(selected) else '?'}page={n}",
                label="Pages of applications",
            ),
            label="Application status",
            href=tab_href,
            id="career-status-tabs",
            class_name="tabs career-tabs",
        ),
    )


@component
def _Review(application: ApplicationRead, on_close: Callable[[], None], query: Query) -> VdomDict:
    session = use_session()
    form = use_form(status="", notes=application.notes, send_rejection_email=False)
    problem, set_problem = use_state("")
    steps = next_statuses(application.status)

    def saved(result: ApplicationRead) -> None:
        session.toaster.success(f"Application: {APPLICATION_STATUS_LABELS[result.status]}", result.name)
        on_close()

    action = use_action(update_application, refetch=[query], on_success=saved, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        await action.run(
            application_id=application.id,
            data=ApplicationUpdate(
                status=str(form.values.get("status", "") or ""),
                notes=str(form.values.get("notes", "") or ""),
                send_rejection_email=bool(form.values.get("send_rejection_email")),
            ),
        )

    return Dialog(
        f"Application from {application.name}",
        facts(
            (
                "Status",
                Badge(
                    APPLICATION_STATUS_LABELS[application.status], tone=APPLICATION_TONES[application.status]
                ),
            ),
            ("E-mail", application.email),
            ("Phone", application.phone or "Not given"),
            ("Received", format_date(application.created_at)),
            (
                "CV",
                html.a(
                    {"href": cv_href(application.id), "download": True}, f"Download {application.cv.filename}"
                )
                if application.cv
                else "None",
            ),
            class_name="career-review-facts",
        ),
        html.h3({"class_name": "career-review-heading"}, "Cover note"),
        UserText(application.cover_note, tag="p", class_name="career-review-note")
        if application.cover_note
        else html.p({"class_name": "text-muted"}, "No cover note."),
        ServerForm(
            form_error(problem),
            Select(
                "Move to",
                "status",
                form=form,
                id="review-status",
                options=[(s.value, APPLICATION_STATUS_LABELS[s]) for s in steps],
                placeholder=f"Keep it at {APPLICATION_STATUS_LABELS[application.status]}",
            )
            if steps
            else html.p({"class_name": "text-muted"}, "Hired: this application is complete."),
            Checkbox(
                "E-mail the applicant that they were not selected",
                "send_rejection_email",
                form=form,
                id="review-email",
                hint="Only when moving it to Rejected. Unticked, the applicant is not told.",
            )
            if ApplicationStatus.rejected in steps
            else "",
            TextArea("Notes (HR only)", "notes", form=form, id="review-notes", rows=4, max_length=MAX_NOTES),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Save", type="submit", pending=action.pending),
            ),
            on_submit=submit,
            id="career-review-form",
        ),
        open=True,
        on_close=on_close,
        id="career-review",
        busy=action.pending,
        class_name="dialog-wide",
    )
