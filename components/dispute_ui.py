"""A patient's completed visit and its reported problem (issue 29, item 3), mounted by the visit card
(components/appointment_ui.py) for the patient only.

While the visit's earning is pending (inside the dispute window, not released, no open report) it offers
"Report a problem with this visit": a kit dialog (focus kept inside, given back to the button on close) with
the reason and the details. Once reported the card reads "Problem reported — we're looking into it", and
later the outcome staff decided. Every rule is app.services.disputes'; a refusal shows inside the dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.disputes import MAX_DETAILS, get_visit_dispute, report_visit_problem
from components.context import use_session
from components.format import format_money
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Badge,
    Button,
    Dialog,
    Select,
    ServerForm,
    TextArea,
    UserText,
    dialog_actions,
    form_error,
    hint,
)
from models.dispute import REASON_LABELS, DisputeRead, DisputeStatus, VisitDisputeRead

REPORT = "Report a problem with this visit"
LOOKING = "Problem reported — we're looking into it"
REASONS = [(reason.value, label) for reason, label in REASON_LABELS.items()]


def outcome_line(dispute: DisputeRead) -> VdomDict:
    """What the patient reads of their report: looking into it, or what was decided."""
    if dispute.status is DisputeStatus.open:
        return html.p(
            {"class_name": "appt-dispute"},
            Badge(LOOKING, tone="info"),
            " ",
            hint(f"You reported: {dispute.reason_label}."),
        )
    if dispute.status is DisputeStatus.rejected:
        words = "Problem reviewed — no refund"
    elif dispute.status is DisputeStatus.refunded:
        words = f"Problem resolved — {format_money(dispute.refunded)} refunded to your wallet"
    else:
        words = f"Problem resolved — {format_money(dispute.refunded)} partly refunded to your wallet"
    return html.p(
        {"class_name": "appt-dispute"},
        Badge(words, tone="success" if dispute.refunded > 0 else "neutral"),
        html._(" ", hint("Our note: ", UserText(dispute.resolution_note))) if dispute.resolution_note else "",
    )


@component
def VisitDispute(appointment_id: str, service_name: str) -> Any:
    """The reported problem of one completed visit of the signed-in patient, and the button to report one."""
    query = use_query(get_visit_dispute, appointment_id=appointment_id)
    opened, set_opened = use_state(False)
    found: VisitDisputeRead | None = query.data
    if found is None:
        return ""
    return html.div(
        {"class_name": "appt-dispute-box"},
        outcome_line(found.dispute) if found.dispute is not None else "",
        Button(REPORT, variant="ghost", size="sm", on_click=lambda: set_opened(True), key="report")
        if found.can_report
        else "",
        _ReportDialog(
            appointment_id, service_name, close=lambda: set_opened(False), refetch=query, key="dialog"
        )
        if opened
        else "",
    )


@component
def _ReportDialog(
    appointment_id: str,
    service_name: str,
    close: Callable[[], None],
    refetch: Any,
) -> VdomDict:
    session = use_session()
    form = use_form(reason="", details="")
    problem, set_problem = use_state("")

    def reported(_read: DisputeRead) -> None:
        session.toaster.success(LOOKING, "We'll tell you what we decide.")
        close()

    action = use_action(report_visit_problem, refetch=[refetch], on_success=reported, on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        await action.run(
            appointment_id=appointment_id,
            reason=str(form.values.get("reason", "")),
            details=str(form.values.get("details", "")),
        )

    return Dialog(
        REPORT,
        ServerForm(
            Select(
                "What went wrong?",
                "reason",
                options=REASONS,
                form=form,
                placeholder="Choose one",
                required=True,
                id="dispute-reason",
            ),
            TextArea(
                "What happened",
                "details",
                form=form,
                id="dispute-details",
                rows=5,
                required=True,
                max_length=MAX_DETAILS,
                hint="Only our payments team reads this; the provider is told the reason only.",
            ),
            hint("The provider's payment for this visit waits until we resolve your report."),
            form_error(problem),
            dialog_actions(
                Button("Cancel", variant="ghost", on_click=close, disabled=action.pending),
                Button("Send report", type="submit", pending=action.pending, pending_label="Sending…"),
            ),
            on_submit=submit,
            id="dispute-form",
        ),
        open=True,
        on_close=close,
        description=service_name,
        id="dispute-dialog",
        busy=action.pending,
        class_name="appt-modal",
    )
