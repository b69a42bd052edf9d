"""Document Approvals (/staff/documents, approve_documents; issue 13): every credential document with its
standing (pending, approved, rejected, expiring within 90 days, expired), filters by standing and kind in
the URL, 50 a page, expiring and expired ones highlighted; approve one, or reject it with a reason from the
managed list and a note. The rules (and the audit rows) are app/services/enrollment's.
"""

from __future__ import annotations

from collections.abc import Callable

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.enrollment import (
    REVIEW_TOPIC,
    approve_document,
    list_credential_documents,
    list_document_reasons,
    reject_document,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import use_action, use_query, use_topic
from components.kit import (
    MAX_PAGE_SIZE,
    Button,
    Column,
    DataTable,
    Dialog,
    ListQuery,
    QueryView,
    Select,
    StaffCard,
    TextArea,
    UserText,
    choice_param,
    dialog_actions,
    page_param,
    staff_screen,
)
from components.kit.list_screen import MorePages
from components.staff_frame import StaffFrame, StaffSection
from models.enrollment import DocumentKind, DocumentStanding, DocumentStatus
from models.enrollment_review import MAX_DOCUMENT_NOTE, DocumentPageRead, DocumentRowRead
from staff.credential_ui import DOCUMENT_URL, FilterForm, counts_list, standing_badge

PATH = "/staff/documents"
APPROVED, REJECTED = "Document approved", "Document rejected"


MAX_PAGE = 1000


def documents_query(params: dict[str, list[str]]) -> tuple[ListQuery, int]:
    """The list's filters (standing, kind) and its page as the URL carries them (unknown values dropped;
    a page past the last one allowed shows that last one)."""
    standing = choice_param(params, "standing", DocumentStanding.__members__)
    kind = choice_param(params, "kind", DocumentKind.__members__)
    page = min(page_param(params, last=10**12), MAX_PAGE)
    return ListQuery(PATH, {"standing": standing, "kind": kind}), page


@component
def DocumentsPage() -> Component:
    return StaffFrame(StaffSection(_Documents, slug="documents"), active="documents")


@component
def _Documents() -> VdomDict:
    url, page = documents_query(use_search_params())
    return staff_screen(
        "Document Approvals",
        FilterForm(
            PATH,
            "Filter the documents",
            "documents",
            (
                (
                    "Standing",
                    "standing",
                    url.filters["standing"],
                    "Every standing",
                    [(s.value, s.value.capitalize()) for s in DocumentStanding],
                ),
                (
                    "Kind",
                    "kind",
                    url.filters["kind"],
                    "Every kind",
                    [(k.value, k.label) for k in DocumentKind],
                ),
            ),
            key=url.href(),
        ),
        _List(url, page),
        lead="Every credential document providers and applicants handed in. Those expiring within 90 days "
        "or expired are highlighted; approve a document, or reject it with a reason the applicant reads.",
    )


@component
def _List(url: ListQuery, page: int) -> VdomDict:
    query = use_query(
        list_credential_documents,
        standing=url.filters["standing"],
        kind=url.filters["kind"],
        page=page,
    )
    use_topic(REVIEW_TOPIC, refetch=[query])
    return QueryView(
        query,
        lambda data: documents_section(data, url, query.refetch),
        is_empty=lambda page: page is None,
        loading_label="Loading documents…",
    )


def documents_section(page: DocumentPageRead, url: ListQuery, changed: Callable[[], None]) -> VdomDict:
    counts = counts_list(
        "Documents per standing",
        [
            (
                s.value,
                html.a({"href": url.href(standing=s.value)}, standing_badge(s)),
                page.counts.get(s.value, 0),
            )
            for s in DocumentStanding
        ],
    )
    return StaffCard(
        "Documents",
        DataTable(
            document_columns(changed),
            page.rows,
            caption="Credential documents",
            page_size=MAX_PAGE_SIZE,
            row_key=lambda row: row.document.id,
            row_class=lambda row: (
                f"doc-{row.document.standing.value}"
                if row.document.standing in (DocumentStanding.expiring, DocumentStanding.expired)
                else ""
            ),
            empty="No document matches these filters.",
        ),
        MorePages(page.page, page.has_more, href=url.page_href, label="Document pages"),
        title_id="documents-list-title",
        head=(counts,),
        head_class="verify-head",
    )


def document_columns(changed: Callable[[], None]) -> tuple[Column, ...]:
    def file(row: DocumentRowRead) -> VdomDict:
        d = row.document
        return html.div(
            {"class_name": "team-who"},
            html.span({"class_name": "team-name"}, d.kind.label),
            html.a(
                {
                    "href": DOCUMENT_URL.format(id=d.id),
                    "target": "_blank",
                    "rel": "noopener",
                    "aria-label": f"Open {d.filename} ({d.kind.label} of {row.applicant_name}) in a new tab",
                },
                UserText(d.filename),
            ),
        )

    return (
        Column("applicant", "Applicant", render=lambda r: UserText(r.applicant_name)),
        Column("document", "Document", render=file),
        Column(
            "issued",
            "Issued",
            render=lambda r: format_date(r.document.issued_on) if r.document.issued_on else "—",
        ),
        Column(
            "expires",
            "Expires",
            render=lambda r: format_date(r.document.expires_on) if r.document.expires_on else "—",
        ),
        Column(
            "standing",
            "Standing",
            render=lambda r: html.div(
                {"class_name": "team-who"},
                standing_badge(r.document.standing),
                html.span({"class_name": "hint"}, r.document.rejection_reason)
                if r.document.rejection_reason
                else "",
            ),
        ),
        Column(
            "actions",
            "Actions",
            render=lambda r: _DocumentActions(r, changed, key=r.document.id),
            class_name="team-actions",
        ),
    )


@component
def _DocumentActions(row: DocumentRowRead, changed: Callable[[], None]) -> VdomDict:
    session = use_session()
    rejecting, set_rejecting = use_state(False)
    approving = use_action(approve_document)
    document = row.document

    async def approve() -> None:
        done = await approving.run(document_id=document.id)
        if done is not None:
            session.toaster.success(APPROVED, f"{document.kind.label} of {row.applicant_name}.")
            changed()

    label = f"{document.kind.label} of {row.applicant_name}"
    return html.div(
        {"class_name": "doc-actions"},
        Button(
            "Approve",
            size="sm",
            variant="outline",
            icon="check",
            aria_label=f"Approve the {label}",
            pending=approving.pending,
            on_click=approve,
        )
        if document.status != DocumentStatus.approved
        else "",
        Button(
            "Reject",
            size="sm",
            variant="ghost",
            icon="x",
            aria_label=f"Reject the {label}",
            on_click=lambda: set_rejecting(True),
        )
        if document.status != DocumentStatus.rejected
        else "",
        _RejectDialog(row, lambda: set_rejecting(False), changed) if rejecting else "",
    )


@component
def _RejectDialog(
    row: DocumentRowRead, on_close: Callable[[], None], changed: Callable[[], None]
) -> VdomDict:
    session = use_session()
    reasons = use_query(list_document_reasons)
    rejecting = use_action(reject_document)
    form = use_form(reason="", note="")
    document = row.document

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        done = await rejecting.run(
            document_id=document.id,
            reason=str(form.values.get("reason", ""))[:40],
            note=str(form.values.get("note", ""))[:MAX_DOCUMENT_NOTE],
        )
        if done is not None:
            session.toaster.success(REJECTED, f"{row.applicant_name} was told what to replace.")
            on_close()
            changed()

    return Dialog(
        f"Reject the {document.kind.label.lower()} of {row.applicant_name}",
        html.form(
            {"class_name": "form", "on_submit": submit},
            Select(
                "Reason",
                "reason",
                form=form,
                id=f"reject-reason-{document.id}",
                placeholder="Choose a reason",
                options=[(r.code, r.label) for r in reasons.data or []],
                required=True,
            ),
            TextArea(
                "Note for the applicant (optional)",
                "note",
                form=form,
                id=f"reject-note-{document.id}",
                rows=3,
                max_length=MAX_DOCUMENT_NOTE,
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=rejecting.pending),
                Button(
                    "Reject document",
                    type="submit",
                    variant="danger",
                    pending=rejecting.pending,
                    pending_label="Rejecting…",
                ),
            ),
        ),
        open=True,
        on_close=on_close,
        busy=rejecting.pending,
        description=UserText(document.filename),
        id=f"reject-{document.id}",
        class_name="staff-modal",
    )
