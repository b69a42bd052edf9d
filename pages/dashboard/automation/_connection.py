"""The n8n connection card: the webhook URL, Test connection (SPEC §8's messages, shown in a status line
and a toast), Disconnect, and simulation mode."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict

from app.services.automation import connect_webhook, disconnect, set_simulation
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action
from components.icons import icon
from components.kit import Button, Checkbox, Field, Region, ServerForm, settings_actions, status_pill
from models.automation import IntegrationRead, TestResultRead

URL_HINT = (
    "The Production URL of your n8n Webhook node (POST), e.g. https://n8n.example.com/webhook/medivisit. "
    "Use the Test URL while n8n is listening for a test event."
)


def connection_pill(data: IntegrationRead) -> VdomDict:
    if data.connected and data.simulation:
        return status_pill("Connected · simulation", on=True, icon_name="check")
    if data.connected:
        return status_pill("Connected", on=True, icon_name="check")
    return status_pill("Not connected")


@component
def ConnectionCard(data: IntegrationRead, integration: Query[Any]) -> VdomDict:
    session = use_session()
    form = use_form(webhook_url=data.webhook_url)
    problem, set_problem = use_state("")
    result_state: State[TestResultRead | None] = use_state(None)
    result, set_result = result_state
    test = use_action(connect_webhook, refetch=[integration], on_error=set_problem)
    stop = use_action(disconnect, refetch=[integration])
    simulate = use_action(set_simulation, refetch=[integration])

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        done: TestResultRead | None = await test.run(
            webhook_url=str(form.values.get("webhook_url", ""))[:4096]
        )
        if done is None:
            return
        set_result(done)
        if done.outcome == "connected":
            session.toaster.success(done.message, done.detail)
        else:
            session.toaster.error(done.message, done.detail)

    async def disconnect_now() -> None:
        if await stop.run() is not None:
            session.toaster.success("Disconnected from n8n", "Events are no longer sent.")

    async def toggle_simulation(checked: bool) -> None:
        await simulate.run(enabled=checked)

    return Region(
        "n8n connection",
        html.p(
            {"class_name": "settings-text"},
            "Events are sent only while the connection is on: a URL is connected once it passes a test.",
        ),
        html.p(
            {"class_name": "automation-alert", "role": "note"}, icon("alert", size=16), data.disabled_reason
        )
        if data.disabled_reason
        else "",
        ServerForm(
            Field(
                "n8n webhook URL",
                "webhook_url",
                form=form,
                type="url",
                id="automation-url",
                hint=URL_HINT,
                error=problem or None,
                required=True,
                max_length=2048,
                autocomplete="off",
                placeholder="https://n8n.example.com/webhook/medivisit",
            ),
            settings_actions(
                Button(
                    "Test connection",
                    type="submit",
                    pending=test.pending,
                    pending_label="Testing…",
                    icon="zap",
                ),
                Button(
                    "Disconnect",
                    on_click=disconnect_now,
                    variant="outline",
                    pending=stop.pending,
                    pending_label="Disconnecting…",
                )
                if data.connected
                else "",
            ),
            on_submit=submit,
            class_name="automation-form",
        ),
        _result(result),
        html.div(
            {"class_name": "automation-simulation"},
            Checkbox(
                "Simulation mode",
                "simulation",
                default=data.simulation,
                on_change=toggle_simulation,
                id="automation-simulation",
                hint="For demos: no request is made; tests and events are logged as simulated.",
            ),
        ),
        title_id="automation-connection",
        class_name="settings-card",
        title_class="settings-title",
        head_class="automation-head",
        head=(connection_pill(data),),
    )


def _result(result: TestResultRead | None) -> VdomDict:
    if result is None:
        return html.div({"role": "status", "class_name": "automation-result-empty"})
    good = result.outcome == "connected"
    return html.div(
        {"role": "status", "class_name": f"automation-result {'is-ok' if good else 'is-bad'}"},
        icon("check" if good else "alert", size=18),
        html.div(
            html.strong(result.message), html.span({"class_name": "automation-result-detail"}, result.detail)
        ),
    )
