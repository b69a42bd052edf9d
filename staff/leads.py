"""Corporate Leads (/staff/leads, manage_services; issue 17 part 3): the enquiries sent from /corporate,
newest first, by status (tabs in the URL, `?status=contacted`; `?mine=1` for the signed-in member's);
each lead moves new → contacted → proposal → won / lost, is assigned to a member of the corporate desk,
collects notes, and at the proposal step becomes a contract (a dialog: title, sites, billing e-mail,
period and each service's agreed price), which marks it won. app/services/corporate checks and audits
every change; this screen shows its refusals."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.corporate import (
    LEAD_STEPS,
    add_lead_note,
    create_contract,
    list_lead_assignees,
    list_leads,
    update_lead,
)
from components.context import use_session
from components.contract_ui import contract_from_form
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Dialog,
    Field,
    ListQuery,
    PagedItems,
    QueryView,
    Region,
    Select,
    ServerForm,
    StatusTabs,
    TextArea,
    Tone,
    UserText,
    button_link,
    choice_param,
    dialog_actions,
    facts,
    form_error,
    hint,
    page_param,
    staff_screen,
)
from components.staff_frame import StaffFrame, StaffSection
from models.corporate import MAX_NOTE, LeadPage, LeadRead, LeadStatus

PATH = "/staff/leads"
PAGE_SIZE = 20
S = LeadStatus
TABS = (("", "All"), *((s.value, s.label) for s in S))
TONES: dict[S, Tone] = {
    S.new: "info",
    S.contacted: "warning",
    S.proposal: "warning",
    S.won: "success",
    S.lost: "neutral",
}
STEP_LABELS = {
    S.new: "Reopen",
    S.contacted: "Mark contacted",
    S.proposal: "Mark proposal sent",
    S.lost: "Mark lost",
}


@component
def LeadsPage() -> Component:
    return StaffFrame(StaffSection(_Leads, slug="leads"), active="leads")


@component
def _Leads() -> VdomDict:
    params = use_search_params()
    status = choice_param(params, "status", {s.value for s in S})
    page = page_param(params)
    url = ListQuery(PATH, {"status": status})
    leads = use_query(list_leads, status=status, page=page, page_size=PAGE_SIZE)
    assignees = use_query(list_lead_assignees)
    return staff_screen(
        "Corporate Leads",
        StatusTabs(
            TABS,
            status,
            QueryView(
                leads,
                lambda data: _page(data, leads, assignees.data or [], url),
                loading_label="Loading leads…",
            ),
            label="Lead status",
            href=url.tab_href("status"),
            id="leads-by",
        ),
        lead="Enquiries from the Corporate Solutions page: follow each one up until it becomes a contract.",
        body_class="corp-list",
    )


def _page(data: LeadPage, query: Query, assignees: list[Any], url: ListQuery) -> VdomDict:
    return PagedItems(
        data,
        html.p(
            {"class_name": "hint", "role": "status"}, f"{data.total} lead" + ("" if data.total == 1 else "s")
        ),
        html.div(
            {"class_name": "corp-list"},
            *[_LeadCard(lead, query, assignees, key=lead.id) for lead in data.items],
        ),
        empty="No leads with this status." if url.filters["status"] else "No leads yet.",
        href=url.page_href,
        label="Pages of leads",
    )


@component
def _LeadCard(lead: LeadRead, query: Query, assignees: list[Any]) -> Any:
    session = use_session()
    problem, set_problem = use_state("")
    contracting, set_contracting = use_state(False)
    notes = use_form(body="")

    def changed(result: LeadRead) -> None:
        set_problem("")
        session.toaster.success("Lead updated", f"{result.company}: {result.status.label}")

    update = use_action(update_lead, refetch=[query], on_success=changed, on_error=set_problem)

    def noted(_result: LeadRead) -> None:
        set_problem("")
        notes.reset(body="")
        session.toaster.success("Note added", lead.company)

    note = use_action(add_lead_note, refetch=[query], on_success=noted, on_error=set_problem)

    @event(prevent_default=True)
    async def add_note(_event: dict) -> None:
        await note.run(lead_id=lead.id, body=str(notes.values.get("body", ""))[: MAX_NOTE + 1])

    async def assign(value: str) -> None:
        await update.run(lead_id=lead.id, assigned_to=value)

    title_id = f"lead-{lead.id}-title"
    steps = [s for s in LEAD_STEPS[lead.status] if s is not S.won]
    return Region(
        UserText(lead.company),
        html.ul(
            {"class_name": "corp-meta"},
            html.li("Received ", format_date(lead.created_at)),
            html.li("Assigned to ", UserText(lead.assigned_name) if lead.assigned_name else "nobody yet"),
        ),
        facts(
            (
                "Contact",
                UserText(lead.contact_name),
                " · ",
                html.a({"href": f"mailto:{lead.email}"}, lead.email),
                " · ",
                html.a({"href": f"tel:{lead.phone}"}, lead.phone),
            ),
            ("Sites", f"{lead.site_count} · ", UserText(lead.site_location)),
            ("Headcount", f"About {lead.headcount:,}"),
            ("Services", ", ".join(lead.services)),
            ("Dates", UserText(lead.dates_wanted) if lead.dates_wanted else "—"),
            ("Message", UserText(lead.message, tag="p") if lead.message else "—"),
            class_name="corp-facts",
        ),
        form_error(problem),
        html.div(
            {"class_name": "corp-row"},
            Select(
                "Assigned to",
                "assigned_to",
                options=[("", "Nobody"), *[(a.id, a.name) for a in assignees]],
                default=lead.assigned_to or "",
                on_change=assign,
                id=f"lead-{lead.id}-assignee",
            ),
        ),
        html.div(
            {"class_name": "corp-actions"},
            *[
                Button(
                    STEP_LABELS[step],
                    size="sm",
                    variant="outline" if step is S.lost else "primary",
                    disabled=update.pending,
                    aria_label=f"{STEP_LABELS[step]}: {lead.company}",
                    on_click=lambda step=step: update.run(lead_id=lead.id, status=step.value),
                    key=step.value,
                )
                for step in steps
            ],
            Button("Create contract", size="sm", icon="check", on_click=lambda: set_contracting(True))
            if lead.status is S.proposal
            else "",
            button_link("View contract", "/staff/contracts", variant="outline", size="sm")
            if lead.contract_id
            else "",
        ),
        ServerForm(
            TextArea(
                "Add a note",
                "body",
                form=notes,
                rows=2,
                max_length=MAX_NOTE,
                id=f"lead-{lead.id}-note",
            ),
            Button("Add note", type="submit", size="sm", variant="outline", pending=note.pending),
            on_submit=add_note,
        ),
        *[
            html.div(
                {"class_name": "corp-note", "key": f"{n.created_at.isoformat()}-{i}"},
                hint(f"{n.author_name} · {format_date(n.created_at)}"),
                UserText(n.body, tag="p"),
            )
            for i, n in enumerate(lead.notes)
        ],
        _ContractDialog(lead, query, on_close=lambda: set_contracting(False)) if contracting else "",
        title_id=title_id,
        class_name="corp-card",
        tag="article",
        head_class="corp-card-head",
        head=(Badge(lead.status.label, tone=TONES[lead.status]),),
    )


@component
def _ContractDialog(lead: LeadRead, query: Query, on_close: Any) -> Any:
    session = use_session()
    start = date.today() + timedelta(days=7)
    form = use_form(
        title=f"{lead.company}: on-site care",
        sites=lead.site_location,
        billing_email=lead.email,
        starts_on=start.isoformat(),
        ends_on=(start + timedelta(days=365)).isoformat(),
        **{f"price-{slug}": "" for slug in lead.service_slugs},
    )
    problem, set_problem = use_state("")

    def created(_result: Any) -> None:
        session.toaster.success("Contract created", f"{lead.company}: activate it in Contracts")
        on_close()

    create = use_action(create_contract, refetch=[query], on_success=created, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        data = contract_from_form(form.values, lead.service_slugs)
        if isinstance(data, str):
            set_problem(data)
            return
        await create.run(lead_id=lead.id, data=data)

    return Dialog(
        f"Contract with {lead.company}",
        ServerForm(
            form_error(problem),
            Field("Title", "title", form=form, id="contract-title", required=True, max_length=120),
            TextArea("Sites", "sites", form=form, id="contract-sites", rows=2, max_length=500),
            Field(
                "Billing e-mail",
                "billing_email",
                form=form,
                type="email",
                id="contract-billing",
                max_length=320,
            ),
            html.div(
                {"class_name": "corp-row"},
                Field("Starts on", "starts_on", form=form, type="date", id="contract-starts", required=True),
                Field("Ends on", "ends_on", form=form, type="date", id="contract-ends", required=True),
            ),
            *[
                Field(
                    f"Agreed price, {name} (USD per provider-day)",
                    f"price-{slug}",
                    form=form,
                    id=f"contract-price-{slug}",
                    input_mode="decimal",
                    required=True,
                    max_length=12,
                    placeholder="e.g. 950",
                )
                for slug, name in zip(lead.service_slugs, lead.services, strict=False)
            ],
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Create contract", type="submit", pending=create.pending, pending_label="Creating…"),
            ),
            on_submit=submit,
            id="contract-form",
        ),
        open=True,
        on_close=on_close,
        description="The lead is marked won; its contact becomes the organization's admin.",
        id="contract-dialog",
        busy=create.pending,
    )
