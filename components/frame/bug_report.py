"""The Report Bug dialog (SPEC §2, §5, §8): open to everyone, e-mail prefilled for a signed-in user."""

from __future__ import annotations

from reactpy import component, event, html, use_state
from reactpy.types import Component, State, VdomDict

from app.services.feedback import FIELDS_REQUIRED, submit_bug_report
from components.context import use_session
from components.forms import use_form
from components.hooks import use_action
from components.kit import Button, Dialog, Field, ServerForm, TextArea, dialog_actions, form_error

SUCCESS = "Bug report submitted successfully"


@component
def BugReportDialog() -> VdomDict | Component:
    session = use_session()
    is_open, set_open = use_state(False)
    session.bug_report.bind(set_open)
    if not is_open:
        return html._()
    return _BugReportForm(on_close=session.bug_report.close)


@component
def _BugReportForm(on_close) -> VdomDict:  # noqa: ANN001
    session = use_session()
    prefill = session.user.email if session.user else ""
    form = use_form(email=prefill, title="", description="")
    error_state: State[str | None] = use_state(None)
    error, set_error = error_state
    action = use_action(submit_bug_report, on_error=session.toaster.error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = {k: form.values.get(k, "") for k in ("email", "title", "description")}
        if not all(v.strip() for v in values.values()):
            set_error(FIELDS_REQUIRED)
            return
        set_error(None)
        result = await action.run(
            user_agent=session.user_agent,
            **values,
        )
        if result is not None:
            session.toaster.success(SUCCESS)
            form.reset(email=prefill, title="", description="")
            on_close()

    busy = action.pending
    return Dialog(
        "Report a Bug",
        ServerForm(
            Field(
                "Your email",
                "email",
                form=form,
                id="bug-email",
                type="email",
                autocomplete="email",
                max_length=320,
                placeholder="you@example.com",
            ),
            Field(
                "Issue title",
                "title",
                form=form,
                id="bug-title",
                max_length=200,
                placeholder="Short summary of the problem",
            ),
            TextArea(
                "Detailed description",
                "description",
                form=form,
                id="bug-description",
                rows=5,
                max_length=5000,
                placeholder="What happened? Steps to reproduce it help a lot.",
            ),
            form_error(error),
            dialog_actions(
                Button("Cancel", on_click=on_close, variant="ghost", disabled=busy),
                Button("Submit Report", type="submit", pending=busy, pending_label="Submitting..."),
            ),
            on_submit=submit,
        ),
        open=True,
        on_close=on_close,
        busy=busy,
        id="bug-report",
        description="Tell us what went wrong and what you expected. Our team reads every report.",
    )
