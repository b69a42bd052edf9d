"""The account sections of /dashboard/settings (issue 12): signed-in devices, e-mail change, the saved
visit address, data export and account deletion. Each is a leaf component with its own queries, so an
action re-renders only its card.

A session signed out from another device is refused on this tab's next command (the services re-check the
Principal): the card then sends the browser to sign in (a full page load; the server no longer knows the
session), instead of showing the refusal as a toast.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from reactpy import component, event, html, use_state
from reactpy.types import VdomDict

from app.services.accounts import (
    SESSION_ENDED,
    cancel_account_deletion,
    cancel_email_change,
    get_account_status,
    get_saved_address,
    list_sessions,
    remove_address,
    request_account_deletion,
    request_email_change,
    save_address,
    sign_out_other_sessions,
    sign_out_session,
)
from components.browser import follow, native_link
from components.context import UiSession, use_session
from components.format import format_date, format_slot
from components.forms import use_form
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    Dialog,
    Field,
    QueryView,
    SettingsPanel,
    button_link,
    dialog_actions,
    facts,
    settings_actions,
    state_line,
    status_pill,
)
from models.account import AccountStatus, ActiveSession, AddressRead

SETTINGS_LOGIN = "/login?redirect=%2Fdashboard%2Fsettings"
EXPORT_HREF = "/api/account/export"


def _use_session_end(session: UiSession) -> tuple[Callable[[str], None], object]:
    """An `on_error` for actions: the session ended elsewhere → off to sign in; else the usual toast.
    Returns it and the element to render (the redirect once it happened)."""
    ended, set_ended = use_state(False)

    def on_error(message: str) -> None:
        if message == SESSION_ENDED:
            set_ended(True)
        else:
            session.toaster.error(message)

    return on_error, follow(SETTINGS_LOGIN, full_load=True) if ended else ""


# ---- signed-in devices ------------------------------------------------------------------------------
@component
def ActiveSessions() -> VdomDict:
    session = use_session()
    on_error, redirect = _use_session_end(session)
    sessions = use_query(list_sessions)
    end_one = use_action(sign_out_session, refetch=[sessions], on_error=on_error)
    end_others = use_action(sign_out_other_sessions, refetch=[sessions], on_error=on_error)

    async def sign_out_others() -> None:
        ended = await end_others.run()
        if ended is not None:
            session.toaster.success(
                f"Signed out {ended} other session{'s' if ended != 1 else ''}"
                if ended
                else "No other sessions"
            )

    def rows(found: list[ActiveSession]) -> VdomDict:
        return html.ul(
            {"class_name": "session-list"},
            *(_session_row(s, session, end_one) for s in found),
        )

    others = [s for s in sessions.data or [] if not s.current]
    return SettingsPanel(
        "Where you're signed in",
        redirect,
        QueryView(sessions, rows, loading_label="Loading your sessions…"),
        lead="Devices and browsers signed in to your account. Sign out any you don't recognise, then "
        "change your password.",
        actions=(
            Button(
                "Sign out everywhere else",
                on_click=sign_out_others,
                variant="outline",
                pending=end_others.pending,
                pending_label="Signing out…",
                disabled=sessions.data is not None and not others,
            ),
        ),
        title_id="settings-sessions",
        id="sessions",
    )


def _session_row(found: ActiveSession, session: UiSession, end_one) -> VdomDict:  # noqa: ANN001 - an Action
    async def sign_out() -> None:
        if await end_one.run(session_id=found.id) is not None:
            session.toaster.success("Session signed out")

    return html.li(
        {"key": found.id, "class_name": "session-row"},
        html.div(
            {"class_name": "session-what"},
            html.strong(found.device),
            status_pill("This device", on=True) if found.current else "",
            html.span(
                {"class_name": "session-meta"},
                f"{found.ip or 'Unknown address'} · last active {_when(found.last_seen_at, session.time_zone)}",
            ),
        ),
        ""
        if found.current
        else Button(
            "Sign out this session",
            on_click=sign_out,
            variant="ghost",
            size="sm",
            aria_label=f"Sign out {found.device}, last active {_when(found.last_seen_at, session.time_zone)}",
        ),
    )


def _when(moment: datetime, time_zone: str) -> str:
    return format_slot(moment, time_zone)


# ---- e-mail address ---------------------------------------------------------------------------------
@component
def EmailChange() -> VdomDict:
    session = use_session()
    on_error, redirect = _use_session_end(session)
    status = use_query(get_account_status)
    form = use_form(new_email="")
    start = use_action(request_email_change, refetch=[status], on_error=on_error)
    cancel = use_action(cancel_email_change, refetch=[status], on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        if await start.run(new_email=form.values.get("new_email", "")) is not None:
            form.reset(new_email="")
            session.toaster.success("Check both inboxes", "We sent a confirmation link to each address.")

    async def forget() -> None:
        if await cancel.run() is not None:
            session.toaster.success("E-mail change cancelled")

    def body(found: AccountStatus) -> VdomDict:
        pending = (
            html.div(
                {"class_name": "settings-pending", "role": "status"},
                state_line(
                    status_pill("Waiting"),
                    " Changing to ",
                    html.strong(found.pending_email),
                    ". Follow the links we sent to the new address and to your current one; until then "
                    "you keep signing in with ",
                    html.strong(found.email),
                    ".",
                ),
                settings_actions(
                    Button(
                        "Cancel e-mail change",
                        on_click=forget,
                        variant="outline",
                        pending=cancel.pending,
                        pending_label="Cancelling…",
                    )
                ),
            )
            if found.pending_email
            else ""
        )
        return html._(
            facts(("Current e-mail", found.email), class_name="settings-facts"),
            pending,
            html.form(
                {
                    "class_name": "form settings-form",
                    "on_submit": submit,
                    "aria-label": "Change e-mail address",
                },
                Field(
                    "New e-mail address",
                    "new_email",
                    form=form,
                    id="settings-new-email",
                    type="email",
                    autocomplete="email",
                    max_length=320,
                    required=True,
                ),
                settings_actions(
                    Button(
                        "Send confirmation links",
                        type="submit",
                        pending=start.pending,
                        pending_label="Sending…",
                    )
                ),
            ),
        )

    return SettingsPanel(
        "E-mail address",
        redirect,
        QueryView(status, body),
        lead="We send a link to the new address and one to your current address; the change happens once "
        "both are confirmed.",
        title_id="settings-email",
        id="email",
    )


# ---- saved address ----------------------------------------------------------------------------------
@component
def SavedAddressCard() -> VdomDict:
    address = use_query(get_saved_address)
    return SettingsPanel(
        "Visit address",
        QueryView(
            address,
            lambda found: _AddressForm(found, address.refetch),
            empty=_AddressForm(None, address.refetch),
        ),
        lead="Where providers come to you. You can still choose another address for each booking.",
        title_id="settings-address",
        id="address",
    )


@component
def _AddressForm(found: AddressRead | None, reload: Callable[[], None]) -> VdomDict:
    session = use_session()
    on_error, redirect = _use_session_end(session)
    form = use_form(
        address_line=found.address_line if found else "",
        city=found.city if found else "",
        state=found.state if found else "",
        zip_code=found.zip_code if found else "",
    )
    save = use_action(save_address, on_error=on_error)
    remove = use_action(remove_address, on_error=on_error)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = {name: form.values.get(name, "") for name in ("address_line", "city", "state", "zip_code")}
        if await save.run(**values) is not None:
            session.toaster.success("Address saved")
            reload()

    async def forget() -> None:
        await remove.run()
        session.toaster.success("Address removed")
        reload()

    return html.form(
        {"class_name": "form settings-form", "on_submit": submit, "aria-label": "Visit address"},
        redirect,
        Field(
            "Street address",
            "address_line",
            form=form,
            id="address-line",
            autocomplete="street-address",
            required=True,
        ),
        Field(
            "City",
            "city",
            form=form,
            id="address-city",
            autocomplete="address-level2",
            max_length=100,
            required=True,
        ),
        html.div(
            {"class_name": "settings-row"},
            Field(
                "State",
                "state",
                form=form,
                id="address-state",
                autocomplete="address-level1",
                max_length=2,
                required=True,
                hint="Two letters, e.g. NY",
            ),
            Field(
                "ZIP code",
                "zip_code",
                form=form,
                id="address-zip",
                autocomplete="postal-code",
                input_mode="numeric",
                max_length=10,
                required=True,
            ),
        ),
        settings_actions(
            Button("Save address", type="submit", pending=save.pending, pending_label="Saving…"),
            Button("Remove address", on_click=forget, variant="ghost") if found else "",
        ),
    )


# ---- your data --------------------------------------------------------------------------------------
def data_export_card() -> VdomDict:
    return SettingsPanel(
        "Your data",
        lead="A copy of your profile, address, orders and visits, support conversations, reviews and "
        "signed-in sessions, as one JSON file.",
        actions=(
            button_link(
                "Download my data (JSON)", EXPORT_HREF, variant="outline", download="", **native_link()
            ),
        ),
        title_id="settings-data",
        id="data",
    )


# ---- deletion ---------------------------------------------------------------------------------------
@component
def AccountDeletion() -> VdomDict:
    session = use_session()
    on_error, redirect = _use_session_end(session)
    status = use_query(get_account_status)
    asking, set_asking = use_state(False)
    form = use_form(confirm_email="")
    schedule = use_action(request_account_deletion, refetch=[status], on_error=on_error)
    cancel = use_action(cancel_account_deletion, refetch=[status], on_error=on_error)

    @event(prevent_default=True)
    async def confirm(_event: dict) -> None:
        done = await schedule.run(confirm_email=form.values.get("confirm_email", ""))
        if done is not None:
            set_asking(False)
            session.toaster.success("Account deletion scheduled", "Every other session was signed out.")

    async def keep() -> None:
        if await cancel.run() is not None:
            session.toaster.success("Deletion cancelled", "Your account stays.")

    def body(found: AccountStatus) -> VdomDict:
        if found.deletion_due_at is not None:
            return html.div(
                {"role": "status"},
                html.p(
                    {"class_name": "settings-text settings-warning"},
                    "Your account will be deleted on ",
                    html.strong(_date(found.deletion_due_at, session.time_zone)),
                    ". Until then you can cancel and keep everything.",
                ),
                settings_actions(
                    Button(
                        "Cancel deletion", on_click=keep, pending=cancel.pending, pending_label="Cancelling…"
                    )
                ),
            )
        return settings_actions(
            Button("Delete my account…", on_click=lambda: set_asking(True), variant="danger")
        )

    dialog = Dialog(
        "Delete your account?",
        html.form(
            {"class_name": "form", "on_submit": confirm, "aria-label": "Confirm account deletion"},
            Field(
                "Type your e-mail address to confirm",
                "confirm_email",
                form=form,
                id="delete-confirm-email",
                type="email",
                autocomplete="off",
                max_length=320,
                required=True,
            ),
            dialog_actions(
                Button("Keep my account", on_click=lambda: set_asking(False), variant="outline"),
                Button(
                    "Schedule deletion",
                    type="submit",
                    variant="danger",
                    pending=schedule.pending,
                    pending_label="Scheduling…",
                ),
            ),
        ),
        open=asking,
        on_close=lambda: set_asking(False),
        id="delete-account",
        class_name="account-dialog",
        busy=schedule.pending,
        description=(
            "Your account is deleted after a grace period, during which you can cancel. Your visits and "
            "payments stay in our records without your name, address or notes; everything else is removed."
        ),
    )
    return SettingsPanel(
        "Delete account", redirect, QueryView(status, body), dialog, title_id="settings-delete", id="delete"
    )


def _date(moment: datetime, time_zone: str) -> str:
    from zoneinfo import ZoneInfo

    return format_date(moment.astimezone(ZoneInfo(time_zone)))
