"""Signing and authentication: the Standard Webhooks signing secret (shown on request, rotated by an
owner with a day when both secrets sign) and the header n8n's Header Auth credential checks."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict

from app.services.automation import reveal_secret, rotate_secret, set_header_auth
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action
from components.kit import (
    Button,
    Dialog,
    Field,
    ServerForm,
    SettingsPanel,
    dialog_actions,
    facts,
    settings_actions,
)
from components.tickets import when
from models.automation import IntegrationRead, RevealedSecretRead

HEADER_SAVED = "Header Auth saved"
HEADER_REMOVED = "Header Auth removed"


@component
def SecurityCard(data: IntegrationRead, integration: Query[Any]) -> VdomDict:
    session = use_session()
    shown_state: State[RevealedSecretRead | None] = use_state(None)
    shown, set_shown = shown_state
    confirming, set_confirming = use_state(False)
    reveal = use_action(reveal_secret, refetch=[integration], on_success=set_shown)
    rotate = use_action(rotate_secret, refetch=[integration], on_success=set_shown)

    async def show() -> None:
        await reveal.run()

    async def rotate_now() -> None:
        done = await rotate.run()
        set_confirming(False)
        if done is not None:
            session.toaster.success("Signing secret rotated", "Paste the new secret into your receiver.")

    return SettingsPanel(
        "Signing and authentication",
        facts(("Signing secret", _secret(shown, data)), class_name="settings-facts"),
        settings_actions(
            Button(
                "Show secret",
                on_click=show,
                variant="outline",
                size="sm",
                pending=reveal.pending,
                pending_label="Loading…",
                icon="lock",
            )
            if shown is None
            else Button("Hide secret", on_click=lambda: set_shown(None), variant="outline", size="sm"),
            Button("Rotate secret…", on_click=lambda: set_confirming(True), variant="outline", size="sm")
            if data.can_rotate and data.has_secret
            else "",
        ),
        Dialog(
            "Rotate the signing secret?",
            html.p(
                "A new secret signs every request from now on. For 24 hours the old one signs them too, so "
                "your receiver keeps working while you switch it to the new one."
            ),
            open=confirming,
            on_close=lambda: set_confirming(False),
            busy=rotate.pending,
            id="automation-rotate",
            footer=dialog_actions(
                Button("Cancel", on_click=lambda: set_confirming(False), variant="outline"),
                Button(
                    "Rotate secret", on_click=rotate_now, pending=rotate.pending, pending_label="Rotating…"
                ),
            ),
        ),
        _HeaderAuth(data, integration),
        lead="Every request carries Standard Webhooks headers (webhook-id, webhook-timestamp, "
        "webhook-signature: HMAC-SHA256 with this secret), which a Code node or any Standard Webhooks "
        "library can verify.",
        title_id="automation-security",
    )


def _secret(shown: RevealedSecretRead | None, data: IntegrationRead) -> Any:
    if shown is not None:
        return html.code({"class_name": "totp-secret", "id": "automation-secret"}, shown.secret)
    if not data.has_secret:
        return html.span({"class_name": "settings-text"}, "Made at the first Test connection")
    note = (
        f" · the previous secret also signs until {when(data.rotating_until, 'UTC')} UTC"
        if data.rotating_until
        else ""
    )
    return html.span(html.code({"class_name": "totp-secret"}, data.secret_hint), note)


@component
def _HeaderAuth(data: IntegrationRead, integration: Query[Any]) -> VdomDict:
    session = use_session()
    form = use_form(header_name=data.header_name or "X-MediVisit-Token", header_token="")
    problem, set_problem = use_state("")
    save = use_action(set_header_auth, refetch=[integration], on_error=set_problem)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        set_problem("")
        done = await save.run(
            header_name=str(form.values.get("header_name", ""))[:200],
            header_token=str(form.values.get("header_token", ""))[:2000],
        )
        if done is not None:
            session.toaster.success(HEADER_SAVED)

    async def remove() -> None:
        if await save.run(header_name="", header_token="") is not None:
            session.toaster.success(HEADER_REMOVED)

    return ServerForm(
        html.h3({"class_name": "automation-subtitle"}, "Header Auth (optional)"),
        html.p(
            {"class_name": "settings-text"},
            "n8n's Webhook node can require a header (Authentication: Header Auth). Give the same name and "
            "value here; the value is stored encrypted and never shown again.",
        ),
        html.div(
            {"class_name": "settings-row"},
            Field(
                "Header name",
                "header_name",
                form=form,
                id="automation-header-name",
                max_length=64,
                autocomplete="off",
                error=problem or None,
            ),
            Field(
                "Header value",
                "header_token",
                form=form,
                type="password",
                id="automation-header-token",
                max_length=512,
                autocomplete="new-password",
                hint="Saved · leave blank to keep it" if data.has_header_token else None,
            ),
        ),
        settings_actions(
            Button(
                "Save header", type="submit", variant="outline", pending=save.pending, pending_label="Saving…"
            ),
            Button("Remove", on_click=remove, variant="ghost", disabled=save.pending)
            if data.has_header_token
            else "",
        ),
        on_submit=submit,
        class_name="automation-form automation-header",
    )
