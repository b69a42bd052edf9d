"""Contracts (/staff/contracts, manage_services; issue 17 part 3): the corporate contracts, newest first, by
status (tabs in the URL); each moves draft → active → ended, books on-site event days (a dialog: service,
day, hours in the venue's local time, address, ZIP code and the providers — verified, offering the service;
the booking service refuses a provider who is busy then and names them) and invoices an event day to the
organization (a draft invoice in Invoices; that also needs create_invoices)."""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, VdomDict
from reactpy_router import use_search_params

from app.services.corporate import (
    book_event_day,
    invoice_event_day,
    list_contracts,
    list_event_providers,
    set_contract_status,
    update_contract,
)
from components.context import use_session
from components.contract_ui import cents_text, contract_card, contract_from_form
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Button,
    Checkbox,
    Dialog,
    Field,
    ListQuery,
    PagedItems,
    QueryView,
    Select,
    ServerForm,
    StatusTabs,
    TextArea,
    choice_param,
    dialog_actions,
    field_group,
    form_error,
    hint,
    page_param,
    staff_screen,
)
from components.staff_frame import StaffFrame, StaffSection
from models.corporate import (
    ContractPage,
    ContractRead,
    ContractStatus,
    EventDayRead,
)

PATH = "/staff/contracts"
PAGE_SIZE = 10
C = ContractStatus
TABS = (("", "All"), *((s.value, s.label) for s in C))
STEPS = {
    C.draft: ((C.active, "Activate"), (C.ended, "End")),
    C.active: ((C.ended, "End contract"),),
    C.ended: (),
}


@component
def ContractsPage() -> Component:
    return StaffFrame(StaffSection(_Contracts, slug="contracts"), active="contracts")


@component
def _Contracts() -> VdomDict:
    params = use_search_params()
    status = choice_param(params, "status", {s.value for s in C})
    page = page_param(params)
    url = ListQuery(PATH, {"status": status})
    contracts = use_query(list_contracts, status=status, page=page, page_size=PAGE_SIZE)
    return staff_screen(
        "Contracts",
        StatusTabs(
            TABS,
            status,
            QueryView(
                contracts, lambda data: _page(data, contracts, url), loading_label="Loading contracts…"
            ),
            label="Contract status",
            href=url.tab_href("status"),
            id="contracts-by",
        ),
        lead="Corporate contracts: activate them, book on-site event days with providers, invoice each day.",
        body_class="corp-list",
    )


def _page(data: ContractPage, query: Query, url: ListQuery) -> VdomDict:
    return PagedItems(
        data,
        html.div({"class_name": "corp-list"}, *[_Contract(c, query, key=c.id) for c in data.items]),
        empty="No contracts with this status."
        if url.filters["status"]
        else "No contracts yet: a won lead becomes one.",
        href=url.page_href,
        label="Pages of contracts",
    )


@component
def _Contract(contract: ContractRead, query: Query) -> Any:
    session = use_session()
    problem, set_problem = use_state("")
    booking, set_booking = use_state(False)
    editing, set_editing = use_state(False)

    def moved(result: ContractRead) -> None:
        set_problem("")
        session.toaster.success("Contract updated", f"{result.title}: {result.status.label}")

    move = use_action(set_contract_status, refetch=[query], on_success=moved, on_error=set_problem)

    def invoiced(invoice: Any) -> None:
        set_problem("")
        session.toaster.success("Invoice created", f"{invoice.number}: send it from Invoices")

    invoice = use_action(invoice_event_day, refetch=[query], on_success=invoiced, on_error=set_problem)

    def day_buttons(day: EventDayRead) -> Any:
        if day.invoice_number:
            return ""
        return Button(
            "Invoice this day",
            size="sm",
            variant="outline",
            icon="receipt",
            pending=invoice.pending,
            aria_label=f"Invoice the event day of {day.starts_at.date().isoformat()}",
            on_click=lambda: invoice.run(event_day_id=day.id),
        )

    actions = html.div(
        {"class_name": "corp-actions"},
        form_error(problem),
        *[
            Button(
                label,
                size="sm",
                variant="outline" if to is C.ended else "primary",
                disabled=move.pending,
                aria_label=f"{label}: {contract.title}",
                on_click=lambda to=to: move.run(contract_id=contract.id, status=to.value),
                key=to.value,
            )
            for to, label in STEPS[contract.status]
        ],
        Button("Book event day", size="sm", icon="calendar", on_click=lambda: set_booking(True))
        if contract.status is C.active
        else "",
        Button(
            "Edit",
            size="sm",
            variant="outline",
            aria_label=f"Edit {contract.title}",
            on_click=lambda: set_editing(True),
        )
        if contract.status is not C.ended
        else "",
    )
    return html._(
        contract_card(contract, day_extra=day_buttons, extra=actions),
        _EventDayDialog(contract, query, on_close=lambda: set_booking(False)) if booking else "",
        _EditDialog(contract, query, on_close=lambda: set_editing(False)) if editing else "",
    )


@component
def _EditDialog(contract: ContractRead, query: Query, on_close: Any) -> Any:
    session = use_session()
    form = use_form(
        title=contract.title,
        sites=contract.sites,
        billing_email=contract.billing_email,
        starts_on=contract.starts_on.isoformat(),
        ends_on=contract.ends_on.isoformat(),
        **{f"price-{s.service_slug}": cents_text(s.price_cents) for s in contract.services},
    )
    problem, set_problem = use_state("")

    def saved(_result: ContractRead) -> None:
        session.toaster.success("Contract saved", contract.title)
        on_close()

    save = use_action(update_contract, refetch=[query], on_success=saved, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        data = contract_from_form(form.values, [s.service_slug for s in contract.services])
        if isinstance(data, str):
            set_problem(data)
            return
        await save.run(contract_id=contract.id, data=data)

    return Dialog(
        f"Edit {contract.title}",
        ServerForm(
            form_error(problem),
            Field("Title", "title", form=form, id="edit-title", required=True, max_length=120),
            TextArea("Sites", "sites", form=form, id="edit-sites", rows=2, max_length=500),
            Field(
                "Billing e-mail", "billing_email", form=form, type="email", id="edit-billing", max_length=320
            ),
            html.div(
                {"class_name": "corp-row"},
                Field("Starts on", "starts_on", form=form, type="date", id="edit-starts", required=True),
                Field("Ends on", "ends_on", form=form, type="date", id="edit-ends", required=True),
            ),
            *[
                Field(
                    f"Agreed price, {s.service_name} (USD per provider-day)",
                    f"price-{s.service_slug}",
                    form=form,
                    id=f"edit-price-{s.service_slug}",
                    input_mode="decimal",
                    required=True,
                    max_length=12,
                )
                for s in contract.services
            ],
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Save contract", type="submit", pending=save.pending, pending_label="Saving…"),
            ),
            on_submit=submit,
            id="contract-edit-form",
        ),
        open=True,
        on_close=on_close,
        description="Event days already booked keep the price they were booked at.",
        id="contract-edit-dialog",
        busy=save.pending,
    )


@component
def _EventDayDialog(contract: ContractRead, query: Query, on_close: Any) -> Any:
    session = use_session()
    first = contract.services[0].service_slug if contract.services else ""
    service, set_service = use_state(first)
    day = max(date.today() + timedelta(days=1), contract.starts_on)
    form = use_form(
        service=first, day=day.isoformat(), starts="09:00", ends="13:00", address_line="", zip_code=""
    )
    zip_code, set_zip_code = use_state("")
    on_day, set_on_day = use_state(day)
    providers = use_query(
        list_event_providers,
        contract_id=contract.id,
        service_slug=service,
        zip_code=zip_code,
        day=on_day,
        enabled=bool(service),
    )

    def day_typed(text: str) -> None:
        try:
            chosen = date.fromisoformat(text.strip())
        except ValueError:
            return
        if chosen != on_day:
            set_on_day(chosen)  # licences are checked on the event's day

    def zip_typed(text: str) -> None:
        digits = text.strip()[:5]
        if len(digits) == 5 and digits.isdigit() and digits != zip_code:
            set_zip_code(digits)  # the providers licensed in the venue's state

    problem, set_problem = use_state("")

    def booked(_result: ContractRead) -> None:
        session.toaster.success("Event day booked", "Each provider sees the visit in their schedule")
        on_close()

    book = use_action(book_event_day, refetch=[query], on_success=booked, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        try:
            when = date.fromisoformat(str(values.get("day", "")))
            starts = time.fromisoformat(str(values.get("starts", "")))
            ends = time.fromisoformat(str(values.get("ends", "")))
        except ValueError:
            set_problem("Enter the day and the start and end times.")
            return
        chosen = [p.id for p in providers.data or [] if values.get(f"provider-{p.id}")]
        await book.run(
            contract_id=contract.id,
            service_slug=service,
            day=when,
            starts=starts,
            ends=ends,
            address_line=str(values.get("address_line", ""))[:300],
            zip_code=str(values.get("zip_code", ""))[:10],
            provider_ids=chosen,
        )

    return Dialog(
        f"Book an event day: {contract.title}",
        ServerForm(
            form_error(problem),
            Select(
                "Service",
                "service",
                form=form,
                options=[(s.service_slug, s.service_name) for s in contract.services],
                on_change=set_service,
                id="event-service",
            ),
            html.div(
                {"class_name": "corp-row"},
                Field(
                    "Day",
                    "day",
                    form=form,
                    type="date",
                    id="event-day",
                    on_change=day_typed,
                    required=True,
                    min=contract.starts_on.isoformat(),
                    max=contract.ends_on.isoformat(),
                ),
                Field("Starts", "starts", form=form, type="time", id="event-starts", required=True),
                Field("Ends", "ends", form=form, type="time", id="event-ends", required=True),
            ),
            html.div(
                {"class_name": "corp-row"},
                Field(
                    "Venue address",
                    "address_line",
                    form=form,
                    id="event-address",
                    required=True,
                    max_length=200,
                ),
                Field(
                    "ZIP code",
                    "zip_code",
                    form=form,
                    id="event-zip",
                    required=True,
                    max_length=10,
                    input_mode="numeric",
                    on_change=zip_typed,
                    hint="Times are the venue's local time; providers licensed in its state are listed",
                ),
            ),
            QueryView(
                providers,
                lambda rows: field_group(
                    "Providers",
                    *[
                        Checkbox(f"{p.name} ({p.provider_type})", f"provider-{p.id}", form=form, key=p.id)
                        for p in rows
                    ],
                    class_name="corp-checks",
                ),
                is_empty=lambda rows: not rows,
                empty=hint(
                    "No verified provider licensed in this state offers this service yet."
                    if zip_code
                    else "No verified provider offers this service yet."
                ),
                loading_label="Loading providers…",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Book event day", type="submit", pending=book.pending, pending_label="Booking…"),
            ),
            on_submit=submit,
            id="event-day-form",
        ),
        open=True,
        on_close=on_close,
        description="One Corporate Venue visit per provider; each confirms it in their own schedule.",
        id="event-day-dialog",
        busy=book.pending,
    )
