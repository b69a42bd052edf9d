"""Revenue Reports (/staff/revenue, view_revenue; issue 14 items 6 and 7).

- The revenue summary from the ledger (gross bookings, platform fees, refunds, payouts, net) by day, week or
  month (`?by=` in the URL), a chart of gross against net and a CSV download (api/revenue.py).
- The same money split by service line or by metro (`?split=`), with a chart and a CSV.
- The payout queue: pending, approved and in-transit requests with the steps a member with
  process_payments may take (approve, reject with a reason, mark sent, paid, or failed with a reason).
  app/services/ledger checks every permission and rule (the second approver among them); this screen shows
  its refusals as a message above the queue.
- Reported problems (issue 29, item 3), for members with process_payments: the disputes queue (open ones
  oldest first, or the resolved, `?disputes=` and `?dpage=` in the URL) with Resolve: a full refund, a
  partial refund (an amount) or reject (a note to the patient), as app.services.disputes decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict
from reactpy_router import use_search_params

from app.services.disputes import MAX_NOTE, list_dispute_queue, resolve_dispute
from app.services.errors import ValidationFailed
from app.services.ledger import (
    approve_payout,
    get_revenue_breakdown,
    get_revenue_summary,
    list_payout_queue,
    mark_payout_failed,
    mark_payout_paid,
    mark_payout_sent,
    reject_payout,
    send_payout_transfer,
)
from components.context import use_session
from components.format import format_date, format_money
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.kit import (
    Badge,
    Button,
    Chart,
    Column,
    DataTable,
    Dialog,
    Field,
    QueryView,
    Region,
    Select,
    ServerForm,
    StaffCard,
    StatCard,
    TabPanel,
    Tabs,
    TextArea,
    UserText,
    button_link,
    dialog_actions,
    form_error,
    hint,
    pager,
    param_href,
    pill,
    staff_screen,
    stat_group,
)
from components.staff_frame import StaffFrame, StaffSection, use_staff_permissions
from components.visit_money import MAX_AMOUNT, parse_amount
from models.dispute import DisputeQueueItem, DisputeQueueRead, DisputeStatus
from models.ledger import (
    MAX_TRANSFER_REFERENCE,
    PayoutRead,
    PayoutStatus,
    RevenueBreakdownRead,
    RevenueSummaryRead,
)
from models.staff import Permission

PATH = "/staff/revenue"
EXPORT_PATH = "/api/revenue/export.csv"
BREAKDOWN_EXPORT_PATH = "/api/revenue/breakdown.csv"
GRANULARITIES = (("day", "Daily"), ("week", "Weekly"), ("month", "Monthly"))
SPLITS = (("service_line", "By service line"), ("metro", "By metro"))
CHART_GROUPS = 8  # the chart shows the largest groups; the table lists them all
STATUS_LABELS = {
    PayoutStatus.pending: "Pending",
    PayoutStatus.approved: "Approved",
    PayoutStatus.in_transit: "In transit",
    PayoutStatus.paid: "Paid",
    PayoutStatus.rejected: "Rejected",
    PayoutStatus.failed: "Failed",
}
CHART_LABELS = 10  # at most this many period names under the chart (its text alternative names them all)
DONE = {
    "approve": "Payout approved",
    "sent": "Payout marked sent",
    "paid": "Payout marked paid",
    "reject": "Payout rejected",
    "failed": "Payout marked failed",
    "transfer": "Payout sent by Stripe transfer",
}


def granularity(params: dict[str, list[str]]) -> str:
    value = (params.get("by") or ["month"])[0]
    return value if value in dict(GRANULARITIES) else "month"


def split_of(params: dict[str, list[str]]) -> str:
    value = (params.get("split") or ["service_line"])[0]
    return value if value in dict(SPLITS) else "service_line"


def period_label(summary: RevenueSummaryRead, index: int) -> str:
    start = summary.rows[index].period
    if summary.granularity == "month":
        return start.strftime("%b %Y")
    return start.strftime("%b %-d")


@component
def RevenuePage() -> Component:
    return StaffFrame(StaffSection(_Revenue, slug="revenue"), active="revenue")


@component
def _Revenue() -> VdomDict:
    permissions = use_staff_permissions()
    return staff_screen(
        "Revenue Reports",
        _Summary(),
        _Breakdown(),
        _Queue()
        if Permission.process_payments in permissions
        else Region(
            "Payout requests",
            html.p("Processing payouts needs the process payments permission."),
            title_id="queue-title",
            class_name="staff-card",
        ),
        _Disputes() if Permission.process_payments in permissions else "",
        lead="What the marketplace earned, refunded and paid out, from the ledger; and the payout queue.",
        body_class="revenue",
    )


# ---- the summary --------------------------------------------------------------------------------------
@component
def _Summary() -> VdomDict:
    params = use_search_params()
    by = granularity(params)
    query = use_query(get_revenue_summary, granularity=by)
    return StaffCard(
        "Revenue summary",
        Tabs(
            GRANULARITIES,
            by,
            label="Period",
            href=param_href(PATH, params, "by"),
            id="revenue-by",
        ),
        TabPanel(
            by,
            QueryView(
                query, _summary_body, is_empty=lambda _summary: False, loading_label="Loading revenue…"
            ),
            id="revenue-by",
        ),
        title_id="revenue-title",
        head=(
            button_link(
                "Download CSV", f"{EXPORT_PATH}?granularity={by}", variant="outline", size="sm", download=""
            ),
        ),
        head_class="revenue-controls",
        class_name="revenue-summary",
    )


def _summary_body(summary: RevenueSummaryRead) -> VdomDict:
    t = summary.totals
    labels = [period_label(summary, i) for i in range(len(summary.rows))]
    columns = [
        Column("period", "Period", render=lambda r: format_date(r.period)),
        Column("gross", "Gross bookings", render=lambda r: format_money(r.gross), numeric=True),
        Column("fees", "Platform fees", render=lambda r: format_money(r.fees), numeric=True),
        Column("refunds", "Refunds", render=lambda r: format_money(r.refunds), numeric=True),
        Column("payouts", "Payouts", render=lambda r: format_money(r.payouts), numeric=True),
        Column("invoiced", "Invoices paid", render=lambda r: format_money(r.invoiced), numeric=True),
        Column("ads", "Ads delivered", render=lambda r: format_money(r.ads), numeric=True),
        Column("net", "Net", render=lambda r: format_money(r.net), numeric=True),
    ]
    return html.div(
        {"class_name": "revenue-body"},
        stat_group(
            StatCard("Gross bookings", format_money(t.gross), key="gross"),
            StatCard("Platform fees", format_money(t.fees), key="fees"),
            StatCard("Refunds", format_money(t.refunds), key="refunds"),
            StatCard("Payouts", format_money(t.payouts), key="payouts"),
            StatCard("Invoices paid", format_money(t.invoiced), key="invoiced"),
            StatCard(
                "Ads delivered", format_money(t.ads), hint="Ad spend served, paid ahead by card", key="ads"
            ),
            StatCard(
                "Net",
                format_money(t.net),
                hint="Fees minus fees refunded, plus invoices paid and ads delivered",
                key="net",
            ),
            label="Totals",
            tag="div",
        ),
        Chart(
            "Gross bookings and net revenue",
            [
                ("Gross bookings", [float(r.gross) for r in summary.rows]),
                ("Net", [float(r.net) for r in summary.rows]),
            ],
            labels=labels,
            kind="bar",
            y_title="USD",
            # Many periods: every n-th named under the axis, whole rather than cut to "J…".
            label_every=max(1, -(-len(labels) // CHART_LABELS)),
        )
        if summary.rows
        else "",
        DataTable(
            columns,
            list(reversed(summary.rows)),
            caption="Revenue by period, newest first",
            row_key=lambda r: r.period.isoformat(),
            page_size=100,
            empty="No money has moved yet.",
        ),
    )


# ---- by service line or metro --------------------------------------------------------------------------
@component
def _Breakdown() -> VdomDict:
    params = use_search_params()
    split = split_of(params)
    query = use_query(get_revenue_breakdown, split=split)
    return StaffCard(
        "Where revenue comes from",
        Tabs(
            SPLITS,
            split,
            label="Split",
            href=param_href(PATH, params, "split"),
            id="revenue-split",
        ),
        TabPanel(
            split,
            QueryView(query, _breakdown_body, is_empty=lambda _b: False, loading_label="Loading revenue…"),
            id="revenue-split",
        ),
        title_id="breakdown-title",
        head=(
            button_link(
                "Download CSV",
                f"{BREAKDOWN_EXPORT_PATH}?split={split}",
                variant="outline",
                size="sm",
                download="",
                **{"aria-label": f"Download CSV, revenue {dict(SPLITS)[split].lower()}"},
            ),
        ),
        head_class="revenue-controls",
        class_name="revenue-breakdown",
    )


def _breakdown_body(breakdown: RevenueBreakdownRead) -> VdomDict:
    noun = "Service line" if breakdown.split == "service_line" else "Metro (city of the visit)"
    top = breakdown.groups[:CHART_GROUPS]
    columns = [
        Column("label", noun),
        Column("gross", "Gross bookings", render=lambda g: format_money(g.gross), numeric=True),
        Column("fees", "Platform fees", render=lambda g: format_money(g.fees), numeric=True),
        Column("refunds", "Refunds", render=lambda g: format_money(g.refunds), numeric=True),
        Column("net", "Net", render=lambda g: format_money(g.net), numeric=True),
    ]
    return html.div(
        {"class_name": "revenue-body"},
        Chart(
            f"Gross bookings by {noun.split(' (')[0].lower()}",
            [("Gross bookings", [float(g.gross) for g in top])],
            labels=[g.label for g in top],
            kind="horizontal_bar",
            x_title="USD",
            height=max(160, 48 * len(top)),
        )
        if top
        else "",
        DataTable(
            columns,
            [*breakdown.groups, breakdown.totals] if breakdown.groups else [],
            caption=f"Revenue by {noun.lower()}, largest first; payouts are paid per provider and not split",
            row_key=lambda g: g.label,
            row_class=lambda g: "revenue-total" if g is breakdown.totals else None,
            page_size=50,
            empty="No visit has been completed yet.",
        ),
    )


# ---- the payout queue ---------------------------------------------------------------------------------
@component
def _Queue() -> VdomDict:
    session = use_session()
    query = use_query(list_payout_queue)
    problem, set_problem = use_state("")
    closing_state: State[tuple[str, PayoutRead] | None] = use_state(
        None
    )  # (kind, payout) for the reason dialog
    closing, set_closing = closing_state

    def done(kind: str) -> Callable[[Any], None]:
        def after(result: PayoutRead) -> None:
            set_problem(result.notice)  # approved, but the Stripe transfer was refused: said above the queue
            if result.notice:
                return
            waiting = kind == "approve" and result.status is PayoutStatus.pending
            sent = kind == "approve" and result.status is PayoutStatus.in_transit  # by Stripe transfer
            session.toaster.success(
                "First approval recorded" if waiting else DONE["transfer" if sent else kind],
                "A second approver is needed."
                if waiting
                else f"{result.provider_name}: {format_money(result.amount)}",
            )

        return after

    actions = {
        "approve": use_action(
            approve_payout, on_success=done("approve"), refetch=[query], on_error=set_problem
        ),
        "paid": use_action(mark_payout_paid, on_success=done("paid"), refetch=[query], on_error=set_problem),
        "transfer": use_action(
            send_payout_transfer, on_success=done("transfer"), refetch=[query], on_error=set_problem
        ),
    }
    busy = any(a.pending for a in actions.values())

    def step(kind: str, payout: PayoutRead) -> Callable[[], Any]:
        async def run() -> None:
            await actions[kind].run(payout_id=payout.id)

        return run

    return StaffCard(
        "Payout requests",
        form_error(problem),
        QueryView(
            query,
            lambda data: _queue_table(
                data[0], step, set_closing, busy, me=session.user.id if session.user else ""
            ),
            empty="No payout requests are waiting.",
            is_empty=lambda data: not data[0],
            loading_label="Loading payout requests…",
        ),
        _ReasonDialog(closing, query, on_close=lambda: set_closing(None), on_error=set_problem)
        if closing
        else "",
        title_id="queue-title",
        head=(pill(str(query.data[1])) if query.data else "",),
    )


# A request's next step (label, action) by status ("sent" asks for the bank transfer's reference), and the
# endings that ask for a reason (label, action, the statuses they apply to), in the order the buttons stand.
FORWARD = {
    PayoutStatus.pending: ("Approve", "approve"),
    PayoutStatus.approved: ("Mark sent", "sent"),
    PayoutStatus.in_transit: ("Mark paid", "paid"),
}
ENDINGS = (
    ("Reject", "reject", (PayoutStatus.pending, PayoutStatus.approved)),
    ("Mark failed", "failed", (PayoutStatus.approved, PayoutStatus.in_transit)),
)


def _status_cell(payout: PayoutRead) -> Any:
    badge = Badge(
        STATUS_LABELS[payout.status], tone="warning" if payout.status is PayoutStatus.pending else "info"
    )
    if payout.status is PayoutStatus.pending and payout.approvals_needed > 1:
        approvals = 1 if payout.first_approver_id else 0
        return html._(badge, html.span(f" {approvals} of 2 approvals"))
    return badge


def _queue_table(
    payouts: list[PayoutRead],
    step: Callable[[str, PayoutRead], Callable[[], Any]],
    ask_reason: Callable[[tuple[str, PayoutRead]], None],
    busy: bool,
    *,
    me: str,
) -> VdomDict:
    def buttons(p: PayoutRead) -> VdomDict:
        who = f"{p.provider_name} {format_money(p.amount)}"
        items: list[Any] = []
        if p.status is PayoutStatus.pending and p.first_approver_id and p.first_approver_id == me:
            # The service refuses a second approval by the first approver: the button is not offered.
            items.append(html.span({"class_name": "hint"}, "Waiting for a second approver"))
        elif p.status in FORWARD:
            # A provider paid through Stripe Connect: the approved payout goes by Stripe transfer.
            by_transfer = p.by_transfer and p.status is PayoutStatus.approved
            label, action = ("Send transfer", "transfer") if by_transfer else FORWARD[p.status]
            click = (lambda p=p: ask_reason(("sent", p))) if action == "sent" else step(action, p)
            items.append(Button(label, size="sm", on_click=click, disabled=busy, aria_label=f"{label} {who}"))
        for label, action, statuses in ENDINGS:
            if p.status in statuses:
                items.append(
                    Button(
                        label,
                        size="sm",
                        variant="outline",
                        on_click=lambda action=action: ask_reason((action, p)),
                        aria_label=f"{label} {who}",
                    )
                )
        return html.div({"class_name": "payout-actions"}, *items)

    columns = [
        Column("requested_at", "Requested", render=lambda p: format_date(p.requested_at)),
        Column("provider_name", "Provider"),
        Column("amount", "Amount", render=lambda p: format_money(p.amount), numeric=True),
        Column("status", "Status", render=_status_cell),
        Column("actions", "Actions", render=buttons),
    ]
    return DataTable(
        columns,
        payouts,
        caption="Open payout requests, oldest first",
        row_key=lambda p: p.id,
        empty="No payout requests are waiting.",
    )


@component
def _ReasonDialog(
    closing: tuple[str, PayoutRead],
    query: Query,
    on_close: Callable[[], None],
    on_error: Callable[[str], None],
) -> Any:
    session = use_session()
    kind, payout = closing
    sending = kind == "sent"
    form = use_form(reason="")
    steps: dict[str, Callable[..., Any]] = {
        "reject": reject_payout,
        "failed": mark_payout_failed,
        "sent": mark_payout_sent,
    }
    fn = steps[kind]

    def after(result: PayoutRead) -> None:
        on_error("")
        session.toaster.success(DONE[kind], f"{result.provider_name}: {format_money(result.amount)}")
        on_close()

    problem, set_problem = use_state("")
    # A refusal is said inside the dialog, which stays open with what was typed.
    action = use_action(fn, refetch=[query], on_success=after, on_error=set_problem)
    title = {"reject": "Reject payout", "failed": "Mark payout failed", "sent": "Mark payout sent"}[kind]

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        typed = str(form.values.get("reason", ""))
        await action.run(payout_id=payout.id, **({"reference": typed} if sending else {"reason": typed}))

    return Dialog(
        title,
        ServerForm(
            form_error(problem),
            Field(
                "Bank transfer reference" if sending else "Reason",
                "reason",
                form=form,
                id="payout-reason",
                required=True,
                max_length=MAX_TRANSFER_REFERENCE if sending else 500,
            ),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close),
                Button(
                    title, type="submit", variant="primary" if sending else "danger", pending=action.pending
                ),
            ),
            on_submit=submit,
            id="payout-reason-form",
        ),
        open=True,
        on_close=on_close,
        description=f"{payout.provider_name}, {format_money(payout.amount)}. "
        + (
            "The reference of the transfer you sent from the bank; the provider sees it."
            if sending
            else "The amount goes back to their available balance; they see the reason."
        ),
        id="payout-reason-dialog",
        busy=action.pending,
    )


# ---- reported problems (disputes) ------------------------------------------------------------------------
DISPUTE_TABS = (("open", "Open"), ("resolved", "Resolved"))
DISPUTE_STATUS = {
    DisputeStatus.open: ("Open", "warning"),
    DisputeStatus.refunded: ("Refunded", "success"),
    DisputeStatus.partially_refunded: ("Partly refunded", "success"),
    DisputeStatus.rejected: ("Rejected", "neutral"),
}
OUTCOMES = (("refund", "Refund in full"), ("partial_refund", "Refund in part"), ("reject", "Reject"))


def dispute_filter(params: dict[str, list[str]]) -> str:
    value = (params.get("disputes") or ["open"])[0]
    return value if value in dict(DISPUTE_TABS) else "open"


def dispute_page(params: dict[str, list[str]]) -> int:
    value = (params.get("dpage") or ["1"])[0]
    return int(value) if value.isdigit() and 0 < len(value) < 5 else 1


def _disputes_href(params: dict[str, list[str]], show: str, page: int = 1) -> str:
    return f"{PATH}?by={granularity(params)}&split={split_of(params)}&disputes={show}&dpage={page}#disputes-title"


@component
def _Disputes() -> VdomDict:
    params = use_search_params()
    show, page = dispute_filter(params), dispute_page(params)
    query = use_query(list_dispute_queue, show=show, page=page)
    resolving_state: State[DisputeQueueItem | None] = use_state(None)
    resolving, set_resolving = resolving_state

    def body(data: DisputeQueueRead) -> VdomDict:
        return html.div(
            _disputes_table(data.items, set_resolving),
            pager(
                "Reported problems pages",
                previous=_disputes_href(params, show, data.page - 1) if data.page > 1 else None,
                following=_disputes_href(params, show, data.page + 1) if data.page < data.pages else None,
                status=f"Page {data.page} of {data.pages}",
            )
            if data.pages > 1
            else "",
        )

    return StaffCard(
        "Reported problems",
        Tabs(
            DISPUTE_TABS,
            show,
            label="Reported problems",
            href=lambda key: _disputes_href(params, key),
            id="disputes",
        ),
        TabPanel(
            show,
            QueryView(
                query,
                body,
                empty="No open reported problems."
                if show == "open"
                else "No reported problem is resolved yet.",
                is_empty=lambda data: not data.items,
                loading_label="Loading reported problems…",
            ),
            id="disputes",
        ),
        _ResolveDialog(resolving, query, on_close=lambda: set_resolving(None), key=resolving.dispute.id)
        if resolving
        else "",
        title_id="disputes-title",
        head=(pill(str(query.data.total)) if query.data else "",),
        class_name="revenue-disputes",
    )


def _disputes_table(items: list[DisputeQueueItem], resolve: Callable[[DisputeQueueItem], None]) -> VdomDict:
    def status(item: DisputeQueueItem) -> Any:
        label, tone = DISPUTE_STATUS[item.dispute.status]
        badge = Badge(label, tone=tone)  # type: ignore[arg-type]
        if item.dispute.status is DisputeStatus.open:
            return badge
        refunded = f" {format_money(item.dispute.refunded)}" if item.dispute.refunded else ""
        note = (
            html._(html.br(), UserText(item.dispute.resolution_note)) if item.dispute.resolution_note else ""
        )
        return html._(badge, refunded, note)

    def problem(item: DisputeQueueItem) -> VdomDict:
        return html.div(
            html.strong(item.dispute.reason_label),
            UserText(item.dispute.details, tag="p", class_name="hint"),
        )

    def actions(item: DisputeQueueItem) -> Any:
        if item.dispute.status is not DisputeStatus.open:
            return ""
        return Button(
            "Resolve",
            size="sm",
            on_click=lambda: resolve(item),
            aria_label=f"Resolve the problem {item.patient_name} reported",
        )

    columns = [
        Column("opened_at", "Reported", render=lambda i: format_date(i.dispute.opened_at)),
        Column("patient_name", "Patient", render=lambda i: UserText(i.patient_name)),
        Column(
            "visit",
            "Visit",
            render=lambda i: html._(
                i.service_name, html.br(), f"{i.provider_name}, {format_date(i.visit_at)}"
            ),
        ),
        Column("problem", "Problem", render=problem),
        Column("status", "Status", render=status),
        Column("actions", "Actions", render=actions),
    ]
    return DataTable(
        columns,
        items,
        caption="Problems patients reported with their visits, open ones oldest first",
        row_key=lambda i: i.dispute.id,
        page_size=100,
        empty="No reported problems.",
    )


@component
def _ResolveDialog(item: DisputeQueueItem, query: Query, on_close: Callable[[], None]) -> Any:
    session = use_session()
    form = use_form(amount="", note="")
    outcome, set_outcome = use_state("refund")
    problem, set_problem = use_state("")

    def after(result: Any) -> None:
        session.toaster.success(
            "Reported problem resolved",
            f"{format_money(result.refunded)} refunded to {item.patient_name}"
            if result.refunded
            else "No refund made",
        )
        on_close()

    action = use_action(resolve_dispute, refetch=[query], on_success=after, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        amount = None
        if outcome == "partial_refund":
            try:
                amount = parse_amount(str(form.values.get("amount", "")))
            except ValidationFailed as refused:
                set_problem(refused.message)
                return
        await action.run(
            dispute_id=item.dispute.id, outcome=outcome, amount=amount, note=str(form.values.get("note", ""))
        )

    return Dialog(
        "Resolve reported problem",
        ServerForm(
            html.p(html.strong(item.dispute.reason_label), " ", UserText(item.dispute.details)),
            Select(
                "Outcome",
                "outcome",
                options=[
                    (key, f"{label} ({format_money(item.refundable)})" if key == "refund" else label)
                    for key, label in OUTCOMES
                ],
                default=outcome,
                on_change=set_outcome,
                id="dispute-outcome",
            ),
            Field(
                "Amount to refund",
                "amount",
                form=form,
                id="dispute-amount",
                required=True,
                max_length=MAX_AMOUNT,
                input_mode="decimal",
                hint=f"At most {format_money(item.refundable)}, what is left of this visit.",
            )
            if outcome == "partial_refund"
            else "",
            TextArea(
                "Note to the patient",
                "note",
                form=form,
                id="dispute-note",
                rows=3,
                required=outcome == "reject",
                max_length=MAX_NOTE,
                hint="Required to reject. The patient reads it; the provider is told the outcome only.",
            ),
            hint(
                "A refund is credited to the patient's wallet; the rest of the provider's earning is then released."
            ),
            form_error(problem),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=on_close, disabled=action.pending),
                Button("Resolve", type="submit", pending=action.pending, pending_label="Resolving…"),
            ),
            on_submit=submit,
            id="dispute-resolve-form",
        ),
        open=True,
        on_close=on_close,
        description=f"{item.patient_name}: {item.service_name} with {item.provider_name}, {format_date(item.visit_at)}",
        id="dispute-resolve-dialog",
        busy=action.pending,
    )
