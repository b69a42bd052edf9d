"""Invoices (/staff/invoices, create_invoices; issue 14 part 8).

- The list: every invoice, newest first, filtered by status and searched by number or recipient (the
  filters and page live in the URL), each with its PDF.
- /staff/invoices/new and /staff/invoices/<number>: a draft's editor (organization or patient recipient,
  due date, line items added and removed with their running total, notes), then Send (e-mails the PDF),
  Mark paid (process_payments: method and reference) and Void (a reason), and the PDF download. Sent, paid
  and void invoices are shown read-only. app.services.invoices checks every permission and rule; its
  refusals appear above the form, which keeps what was typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import navigate, use_params, use_search_params

from app.services.invoices import (
    METHOD_LABELS,
    create_invoice,
    get_invoice,
    list_invoices,
    mark_invoice_paid,
    send_invoice,
    update_invoice,
    void_invoice,
)
from components.context import use_session
from components.format import format_date
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.invoice_ui import STATUS_LABELS, cents_text, invoice_pdf_link, invoice_status_badge
from components.kit import (
    Button,
    Column,
    DataTable,
    Dialog,
    Field,
    ListQuery,
    QueryView,
    Select,
    ServerForm,
    StaffCard,
    TextArea,
    UserText,
    button_link,
    button_row,
    choice_param,
    dialog_actions,
    field_group,
    filter_form,
    form_error,
    hint,
    page_param,
    pill,
    staff_screen,
    text_param,
)
from components.staff_frame import StaffFrame, StaffSection, use_staff_permissions
from models.invoice import (
    MAX_ADDRESS,
    MAX_DESCRIPTION,
    MAX_EMAIL,
    MAX_LINES,
    MAX_NAME,
    MAX_NOTES,
    MAX_REASON,
    MAX_REFERENCE,
    InvoiceCreate,
    InvoiceLineInput,
    InvoicePageRead,
    InvoiceRead,
    InvoiceStatus,
    RecipientKind,
)
from models.staff import Permission

PATH = "/staff/invoices"
PAGE_SIZE = 25
MAX_SEARCH = 100
LINE_FIELD = re.compile(r"d(\d{1,4})")
AMOUNT = re.compile(r"^\d{1,9}(\.\d{1,2})?$")
BAD_QUANTITY = "Line {n}: the quantity is a whole number, such as 1 or 12."
BAD_PRICE = "Line {n}: enter the unit price in dollars, such as 35 or 35.50."
BAD_DUE = "Choose the due date."


@dataclass(frozen=True)
class Filters:
    """The list's search, status and page as the URL carries them (unknown values dropped)."""

    search: str = ""
    status: str = ""
    page: int = 1

    @classmethod
    def from_params(cls, params: dict[str, list[str]]) -> Filters:
        return cls(
            search=text_param(params, "q", limit=MAX_SEARCH, squash=True),
            status=choice_param(params, "status", InvoiceStatus.__members__),
            page=page_param(params),
        )

    @property
    def url(self) -> ListQuery:
        return ListQuery(PATH, {"q": self.search, "status": self.status})

    def href(self, **changes: Any) -> str:
        """This list's address with these changes, on this page unless `page` is given."""
        return self.url.href(**{"page": self.page, **changes})


# ---- the list --------------------------------------------------------------------------------------------
@component
def InvoicesPage() -> Component:
    return StaffFrame(StaffSection(_Invoices, slug="invoices"), active="invoices")


@component
def _Invoices() -> VdomDict:
    filters = Filters.from_params(use_search_params())
    return staff_screen(
        "Invoices",
        _FilterForm(filters.url, key=filters.url.href()),
        _List(filters),
        lead="Bill organizations and patients: drafts, sent invoices with their PDF, payments and voids.",
        header=(button_link("New invoice", f"{PATH}/new"),),
    )


@component
def _FilterForm(url: ListQuery) -> VdomDict:
    form = use_form(**url.filters)
    return filter_form(
        Field(
            "Number or recipient",
            "q",
            form=form,
            id="invoices-search",
            type="search",
            max_length=MAX_SEARCH,
            placeholder="INV-2026-00012, Acme, billing@…",
            class_name="team-field",
        ),
        Select(
            "Status",
            "status",
            form=form,
            id="invoices-status",
            placeholder="Any status",
            options=[(s.value, label) for s, label in STATUS_LABELS.items()],
            class_name="team-field",
        ),
        action=PATH,
        label="Find invoices",
        class_name="form audit-filters invoice-filters",
        clear_href=PATH,
    )


@component
def _List(filters: Filters) -> VdomDict:
    query = use_query(
        list_invoices,
        status=filters.status,
        search=filters.search,
        page=filters.page,
        page_size=PAGE_SIZE,
    )
    return QueryView(query, lambda data: list_section(data, filters.url), loading_label="Loading invoices…")


def invoice_columns() -> tuple[Column, ...]:
    return (
        Column(
            "number",
            "Number",
            render=lambda i: html.a({"class_name": "provider-link", "href": f"{PATH}/{i.number}"}, i.number),
        ),
        Column("recipient", "Recipient", render=lambda i: UserText(i.recipient_name)),
        Column("due", "Due", render=lambda i: format_date(i.due_on)),
        Column("total", "Total", render=lambda i: cents_text(i.total_cents), numeric=True),
        Column("status", "Status", render=lambda i: invoice_status_badge(i.status)),
        Column("pdf", "PDF", render=lambda i: invoice_pdf_link(i.number)),
    )


def list_section(page: InvoicePageRead, url: ListQuery) -> VdomDict:
    filtered = any(url.filters.values())
    return StaffCard(
        "All invoices",
        DataTable(
            invoice_columns(),
            page.items,
            caption="Invoices, newest first",
            page=page.page,
            page_size=page.page_size,
            total=page.total,
            page_href=url.page_href,
            row_key=lambda i: i.id,
            empty="No invoice matches these filters."
            if filtered
            else "No invoices yet. Create one with New invoice.",
            class_name="staff-table invoices-table",
        ),
        title_id="invoices-title",
        head=(pill(f"{page.total:,}"),),
    )


# ---- one invoice -----------------------------------------------------------------------------------------
@component
def InvoicePage() -> Component:
    return StaffFrame(StaffSection(_Invoice, slug="invoices"), active="invoices")


@component
def _Invoice() -> VdomDict | Component:
    number = use_params().get("number", "")[:20]
    if number == "new":
        return staff_screen(
            "New invoice",
            _Editor(None, None),
            lead="Saved as a draft with its number; you can change it until it is sent.",
            eyebrow=html.a({"href": PATH}, "Invoices"),
        )
    return _Existing(number)


@component
def _Existing(number: str) -> VdomDict:
    query = use_query(get_invoice, number=number)
    invoice = query.data
    return staff_screen(
        f"Invoice {invoice.number}" if invoice else "Invoice",
        QueryView(query, lambda i: invoice_view(i, query), loading_label="Loading the invoice…"),
        lead=f"To {invoice.recipient_name} · {cents_text(invoice.total_cents)} · due {format_date(invoice.due_on)}"
        if invoice
        else None,
        eyebrow=html.a({"href": PATH}, "Invoices"),
        header=(invoice_status_badge(invoice.status) if invoice else "",),
    )


def invoice_view(invoice: InvoiceRead, query: Query) -> VdomDict:
    key = f"{invoice.id}-{invoice.status.value}"
    if invoice.status is InvoiceStatus.draft:
        return html._(_Actions(invoice, query, key=key), _Editor(invoice, query, key=f"editor-{invoice.id}"))
    return html._(_Actions(invoice, query, key=key), read_only(invoice))


def read_only(invoice: InvoiceRead) -> VdomDict:
    facts = [
        ("Recipient", invoice.recipient_name),
        ("Billing e-mail", invoice.recipient_email),
        ("Address", invoice.recipient_address or "—"),
        ("Due", format_date(invoice.due_on)),
        ("Sent", format_date(invoice.sent_at) if invoice.sent_at else "—"),
    ]
    if invoice.status is InvoiceStatus.paid:
        method = next(
            (label for m, label in METHOD_LABELS.items() if m.value == invoice.payment_method),
            invoice.payment_method,
        )
        facts.append(("Paid", f"{format_date(invoice.paid_at)} · {method}" if invoice.paid_at else method))
        facts.append(("Reference", invoice.payment_reference or "—"))
    if invoice.status is InvoiceStatus.void:
        facts.append(("Voided", format_date(invoice.voided_at) if invoice.voided_at else "—"))
        facts.append(("Reason", invoice.void_reason))
    return html.section(
        {"class_name": "staff-card invoice-detail", "aria-labelledby": "invoice-lines-title"},
        html.dl(
            {"class_name": "invoice-facts"},
            *[
                html.div({"key": label}, html.dt(label), html.dd(UserText(value, tag="span")))
                for label, value in facts
            ],
        ),
        html.h2({"id": "invoice-lines-title"}, "Items"),
        DataTable(
            (
                Column("description", "Description", render=lambda line: UserText(line.description)),
                Column("quantity", "Qty", render=lambda line: f"{line.quantity:,}", numeric=True),
                Column(
                    "price", "Unit price", render=lambda line: cents_text(line.unit_price_cents), numeric=True
                ),
                Column("amount", "Amount", render=lambda line: cents_text(line.amount_cents), numeric=True),
            ),
            invoice.lines,
            caption=f"Items of invoice {invoice.number}",
            row_key=lambda line: line.position,
            page_size=100,
        ),
        html.p({"class_name": "invoice-total"}, "Total ", html.strong(cents_text(invoice.total_cents))),
        hint(UserText(invoice.notes)) if invoice.notes else "",
    )


# ---- the actions -----------------------------------------------------------------------------------------
@component
def _Actions(invoice: InvoiceRead, query: Query) -> VdomDict:
    session = use_session()
    permissions = use_staff_permissions()
    dialog, set_dialog = use_state("")
    problem, set_problem = use_state("")
    open_ = invoice.status in (InvoiceStatus.draft, InvoiceStatus.sent)
    buttons = [invoice_pdf_link(invoice.number, label="Download PDF", class_name="btn btn-outline")]
    if invoice.status is InvoiceStatus.draft:
        buttons.insert(0, Button("Send invoice", icon="mail", on_click=lambda: set_dialog("send")))
    if invoice.status is InvoiceStatus.sent and Permission.process_payments in permissions:
        buttons.insert(0, Button("Mark paid", icon="check", on_click=lambda: set_dialog("paid")))
    if open_:
        buttons.append(Button("Void", variant="outline", on_click=lambda: set_dialog("void")))

    def done(title: str) -> Callable[[InvoiceRead], None]:
        def after(result: InvoiceRead) -> None:
            set_problem("")
            set_dialog("")
            session.toaster.success(title, f"{result.number} · {cents_text(result.total_cents)}")

        return after

    def failed(message: str) -> None:
        set_problem(message)
        set_dialog("")

    return html.section(
        {"class_name": "staff-card invoice-actions", "aria-label": "Invoice actions"},
        html.div({"class_name": "invoice-action-row"}, *buttons),
        hint("Sending e-mails the PDF; save your changes first.")
        if invoice.status is InvoiceStatus.draft
        else "",
        form_error(problem),
        _SendDialog(invoice, query, done("Invoice sent"), failed, lambda: set_dialog(""))
        if dialog == "send"
        else "",
        _PaidDialog(invoice, query, done("Invoice marked paid"), failed, lambda: set_dialog(""))
        if dialog == "paid"
        else "",
        _VoidDialog(invoice, query, done("Invoice voided"), failed, lambda: set_dialog(""))
        if dialog == "void"
        else "",
    )


@component
def _SendDialog(
    invoice: InvoiceRead,
    query: Query,
    on_done: Callable[[InvoiceRead], None],
    on_error: Callable[[str], None],
    on_close: Callable[[], None],
) -> Any:
    action = use_action(send_invoice, refetch=[query], on_success=on_done, on_error=on_error)

    async def send() -> None:
        await action.run(invoice_id=invoice.id)

    return Dialog(
        "Send invoice",
        html.p(
            f"{invoice.number} for {cents_text(invoice.total_cents)} goes to {invoice.recipient_email} with its "
            "PDF. It can no longer be edited afterwards."
        ),
        footer=dialog_actions(
            Button("Cancel", variant="ghost", on_click=on_close),
            Button("Send invoice", on_click=send, pending=action.pending, pending_label="Sending…"),
        ),
        open=True,
        on_close=on_close,
        id="invoice-send-dialog",
        busy=action.pending,
    )


@component
def _PaidDialog(
    invoice: InvoiceRead,
    query: Query,
    on_done: Callable[[InvoiceRead], None],
    on_error: Callable[[str], None],
    on_close: Callable[[], None],
) -> Any:
    form = use_form(method="bank_transfer", reference="")
    action = use_action(mark_invoice_paid, refetch=[query], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await action.run(
            invoice_id=invoice.id,
            method=str(form.values.get("method", "")),
            reference=str(form.values.get("reference", "")),
        )

    return Dialog(
        "Mark invoice paid",
        ServerForm(
            Select(
                "Payment method",
                "method",
                form=form,
                id="invoice-paid-method",
                options=[(m.value, label) for m, label in METHOD_LABELS.items()],
            ),
            Field(
                "Reference",
                "reference",
                form=form,
                id="invoice-paid-reference",
                max_length=MAX_REFERENCE,
                hint="The transfer, check or receipt number, if there is one.",
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Mark paid", type="submit", pending=action.pending),
            ),
            on_submit=submit,
            id="invoice-paid-form",
        ),
        open=True,
        on_close=on_close,
        description=f"{invoice.number}: {cents_text(invoice.total_cents)} received in full. "
        "It is recorded in the ledger.",
        id="invoice-paid-dialog",
        busy=action.pending,
    )


@component
def _VoidDialog(
    invoice: InvoiceRead,
    query: Query,
    on_done: Callable[[InvoiceRead], None],
    on_error: Callable[[str], None],
    on_close: Callable[[], None],
) -> Any:
    form = use_form(reason="")
    action = use_action(void_invoice, refetch=[query], on_success=on_done, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await action.run(invoice_id=invoice.id, reason=str(form.values.get("reason", "")))

    return Dialog(
        "Void invoice",
        ServerForm(
            TextArea(
                "Reason",
                "reason",
                form=form,
                id="invoice-void-reason",
                rows=3,
                max_length=MAX_REASON,
                required=True,
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button("Void invoice", type="submit", variant="danger", pending=action.pending),
            ),
            on_submit=submit,
            id="invoice-void-form",
        ),
        open=True,
        on_close=on_close,
        description=f"{invoice.number} will no longer be owed; its number stays used. The reason is printed "
        "on its PDF.",
        id="invoice-void-dialog",
        busy=action.pending,
    )


# ---- the editor ------------------------------------------------------------------------------------------
def _initial(invoice: InvoiceRead | None) -> dict[str, str]:
    """The editor's first values (one empty line for a new invoice). Line n's fields are dN, qN and pN; a
    removed line's are None."""
    if invoice is None:
        due = (date.today() + timedelta(days=30)).isoformat()
        return {"recipient_kind": "organization", "due_on": due, "d0": "", "q0": "1", "p0": ""}
    values = {
        "recipient_kind": invoice.recipient_kind.value,
        "patient_email": invoice.recipient_email if invoice.recipient_kind is RecipientKind.patient else "",
        "recipient_name": invoice.recipient_name
        if invoice.recipient_kind is RecipientKind.organization
        else "",
        "recipient_email": invoice.recipient_email
        if invoice.recipient_kind is RecipientKind.organization
        else "",
        "recipient_address": invoice.recipient_address,
        "due_on": invoice.due_on.isoformat(),
        "notes": invoice.notes,
    }
    for key, line in enumerate(invoice.lines):
        values |= {
            f"d{key}": line.description,
            f"q{key}": str(line.quantity),
            f"p{key}": f"{Decimal(line.unit_price_cents) / 100:.2f}",
        }
    return values if invoice.lines else values | {"d0": "", "q0": "1", "p0": ""}


def line_keys(values: dict[str, Any]) -> list[int]:
    """The keys of the lines in the form, in the order they were added."""
    return sorted(
        int(found.group(1))
        for name, value in values.items()
        if value is not None and (found := LINE_FIELD.fullmatch(name))
    )


def recipient_kind(values: dict[str, Any]) -> RecipientKind:
    kind = str(values.get("recipient_kind") or "")
    return RecipientKind(kind) if kind in RecipientKind.__members__ else RecipientKind.organization


def parse_cents(text: str) -> int | None:
    """'35', '35.5', '$1,234.56' → cents; None when it is not an amount of dollars."""
    cleaned = (text or "").strip().replace("$", "").replace(",", "")
    if not AMOUNT.match(cleaned):
        return None
    return int(Decimal(cleaned) * 100)


def parse_quantity(text: str) -> int | None:
    cleaned = (text or "").strip()
    return int(cleaned) if cleaned.isdigit() and len(cleaned) <= 6 else None


def line_total(values: dict[str, Any], keys: list[int]) -> int:
    """The running total of the lines as typed (lines not yet valid count as nothing)."""
    total = 0
    for key in keys:
        quantity, price = (
            parse_quantity(str(values.get(f"q{key}", ""))),
            parse_cents(str(values.get(f"p{key}", ""))),
        )
        total += (quantity or 0) * (price or 0)
    return total


def read_form(values: dict[str, Any], keys: list[int], kind: RecipientKind) -> InvoiceCreate | str:
    """What the editor holds as an InvoiceCreate, or the first thing to fix in words."""
    lines = []
    for n, key in enumerate(keys, start=1):
        quantity = parse_quantity(str(values.get(f"q{key}", "")))
        if quantity is None:
            return BAD_QUANTITY.format(n=n)
        price = parse_cents(str(values.get(f"p{key}", "")))
        if price is None:
            return BAD_PRICE.format(n=n)
        lines.append(
            InvoiceLineInput(
                description=str(values.get(f"d{key}", "")), quantity=quantity, unit_price_cents=price
            )
        )
    try:
        due_on = date.fromisoformat(str(values.get("due_on", "")).strip())
    except ValueError:
        return BAD_DUE
    return InvoiceCreate(
        recipient_kind=kind,
        patient_email=str(values.get("patient_email", "")),
        recipient_name=str(values.get("recipient_name", "")),
        recipient_email=str(values.get("recipient_email", "")),
        recipient_address=str(values.get("recipient_address", "")),
        due_on=due_on,
        notes=str(values.get("notes", "")),
        lines=lines,
    )


@component
def _Editor(invoice: InvoiceRead | None, query: Query | None) -> VdomDict | Component:
    session = use_session()
    # Not a form draft (drafts keep 20 text fields; an invoice has up to 150): "Create draft" saves it.
    form = use_form(**_initial(invoice))
    _tick, set_tick = use_state(0)  # the kind, a line, a quantity or a price changed: render again
    kind, keys = recipient_kind(form.values), line_keys(form.values)
    problem, set_problem = use_state("")
    created_state: State[str | None] = use_state(None)
    created, set_created = created_state

    def saved(result: InvoiceRead) -> None:
        set_problem("")
        if invoice is None:
            session.toaster.success("Draft created", result.number)
            set_created(result.number)
        else:
            session.toaster.success("Draft saved", f"{result.number} · {cents_text(result.total_cents)}")

    create = use_action(create_invoice, on_success=saved, on_error=set_problem)
    update = use_action(
        update_invoice, refetch=[query] if query else [], on_success=saved, on_error=set_problem
    )
    if created:
        return navigate(f"{PATH}/{created}", replace=True)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        data = read_form(form.values, keys, kind)
        if isinstance(data, str):
            set_problem(data)
            return
        if invoice is None:
            await create.run(data=data)
        else:
            await update.run(invoice_id=invoice.id, data=data)

    def add_line() -> None:
        key = max(keys) + 1 if keys else 0
        form.values.update({f"d{key}": "", f"q{key}": "1", f"p{key}": ""})
        set_tick(lambda t: t + 1)

    def remove_line(key: int) -> Callable[[], None]:
        def remove() -> None:
            form.values.update({f"{field}{key}": None for field in ("d", "q", "p")})
            set_tick(lambda t: t + 1)

        return remove

    pending = create.pending or update.pending
    return html.form(
        {
            "class_name": "staff-card form invoice-editor",
            "on_submit": submit,
            "no_validate": True,
            "aria-labelledby": "invoice-editor-title",
        },
        html.h2({"id": "invoice-editor-title"}, "Draft" if invoice else "Invoice details"),
        html.p({"class_name": "form-error", "role": "alert", "id": "invoice-problem"}, problem)
        if problem
        else "",
        field_group(
            "Bill to",
            Select(
                "Recipient",
                "recipient_kind",
                form=form,
                id="invoice-kind",
                options=[
                    (RecipientKind.organization.value, "An organization"),
                    (RecipientKind.patient.value, "A patient"),
                ],
                on_change=lambda _value: set_tick(lambda t: t + 1),
                class_name="invoice-kind",
            ),
            *(
                Field(
                    "Patient's account e-mail",
                    "patient_email",
                    form=form,
                    id="invoice-patient-email",
                    type="email",
                    max_length=MAX_EMAIL,
                    required=True,
                    autocomplete="off",
                    hint="The e-mail the patient signs in with; the invoice goes there and to their wallet.",
                    key="patient_email",
                ),
            )
            if kind == RecipientKind.patient
            else (
                Field(
                    "Organization name",
                    "recipient_name",
                    form=form,
                    id="invoice-name",
                    max_length=MAX_NAME,
                    required=True,
                    autocomplete="off",
                    key="recipient_name",
                ),
                Field(
                    "Billing e-mail",
                    "recipient_email",
                    form=form,
                    id="invoice-email",
                    type="email",
                    max_length=MAX_EMAIL,
                    required=True,
                    autocomplete="off",
                    key="recipient_email",
                ),
            ),
            TextArea(
                "Billing address",
                "recipient_address",
                form=form,
                id="invoice-address",
                rows=3,
                max_length=MAX_ADDRESS,
                hint="Optional. Printed under the recipient's name.",
            ),
            Field("Due date", "due_on", form=form, id="invoice-due", type="date", required=True),
            class_name="invoice-fieldset",
        ),
        field_group(
            "Items",
            html.ol(
                {"class_name": "invoice-lines"},
                *[
                    html.li(
                        {"key": str(key), "class_name": "invoice-line"},
                        Field(
                            f"Description, line {n}",
                            f"d{key}",
                            form=form,
                            id=f"invoice-line-{key}-description",
                            max_length=MAX_DESCRIPTION,
                            required=True,
                            class_name="invoice-line-description",
                        ),
                        Field(
                            f"Quantity, line {n}",
                            f"q{key}",
                            form=form,
                            id=f"invoice-line-{key}-quantity",
                            input_mode="numeric",
                            max_length=6,
                            required=True,
                            on_change=lambda _v: set_tick(lambda t: t + 1),
                            class_name="invoice-line-quantity",
                        ),
                        Field(
                            f"Unit price (USD), line {n}",
                            f"p{key}",
                            form=form,
                            id=f"invoice-line-{key}-price",
                            input_mode="decimal",
                            max_length=14,
                            required=True,
                            placeholder="0.00",
                            on_change=lambda _v: set_tick(lambda t: t + 1),
                            class_name="invoice-line-price",
                        ),
                        Button(
                            "Remove",
                            variant="ghost",
                            size="sm",
                            icon="trash",
                            on_click=remove_line(key),
                            aria_label=f"Remove line {n}",
                            class_name="invoice-line-remove",
                        )
                        if len(keys) > 1
                        else "",
                    )
                    for n, key in enumerate(keys, start=1)
                ],
            ),
            html.div(
                {"class_name": "invoice-lines-foot"},
                Button(
                    "Add line",
                    variant="outline",
                    size="sm",
                    icon="plus",
                    on_click=add_line,
                    disabled=len(keys) >= MAX_LINES,
                ),
                html.p(
                    {"class_name": "invoice-total", "aria-live": "polite"},
                    "Total ",
                    html.strong(cents_text(line_total(form.values, keys))),
                ),
            ),
            class_name="invoice-fieldset",
        ),
        TextArea(
            "Notes",
            "notes",
            form=form,
            id="invoice-notes",
            rows=3,
            max_length=MAX_NOTES,
            hint="Optional. Printed on the invoice (payment instructions, a purchase order number).",
        ),
        button_row(
            Button("Create draft" if invoice is None else "Save draft", type="submit", pending=pending),
            button_link("Cancel", PATH, variant="ghost") if invoice is None else "",
        ),
    )
