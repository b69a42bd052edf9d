"""Settings (/dashboard/settings): the account, the password, two-factor authentication (TOTP), and the
account sections of pages/dashboard/account_sections.py (signed-in devices, e-mail change, visit address,
data export, deletion).

Starting an enrolment (QR code and secret) runs on this connection through
`app.services.two_factor.start_totp_setup`. Confirming the first code and turning the factor off are form
posts (/auth/mfa/enable, /auth/mfa/disable): both need a fresh code (aal2) and rotate the session's refresh
token, which only an HTTP answer can store in the browser's cookies.
"""

from __future__ import annotations

from urllib.parse import quote

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict

from app.services.accounts import get_two_factor, start_totp_setup
from components.account import auth_form, field, logout_form, submit_button
from components.context import use_session
from components.hooks import use_action, use_query
from components.kit import (
    Button,
    SettingsCard,
    SettingsPanel,
    button_link,
    dashboard_header,
    error_state,
    facts,
    loading_state,
    portal_body,
    portal_page,
    settings_actions,
    state_line,
    status_pill,
)
from models.account import TotpSetup
from pages.dashboard.account_sections import (
    AccountDeletion,
    ActiveSessions,
    EmailChange,
    SavedAddressCard,
    data_export_card,
)


@component
def SettingsPage() -> VdomDict:
    session = use_session()
    user = session.signed_in_user
    return portal_page(
        dashboard_header("Settings", lead="Your sign-in details and how your account is protected."),
        portal_body(
            SettingsPanel(
                "Account",
                facts(("Name", user.name), ("Email", user.email), class_name="settings-facts"),
                actions=(
                    button_link("Edit profile", "/dashboard/profile", variant="outline"),
                    button_link("Change password", "/reset-password", variant="outline"),
                ),
                title_id="settings-account",
            ),
            EmailChange(),
            _TwoFactor(),
            ActiveSessions(),
            SavedAddressCard(),
            data_export_card(),
            SettingsPanel(
                "Sign out",
                logout_form(session.csrf_token, class_name="btn btn-outline", role=None),
                lead="Sign out of this browser.",
                title_id="settings-signout",
            ),
            AccountDeletion(),
            class_name="settings-grid",
        ),
    )


@component
def _TwoFactor() -> VdomDict:
    session = use_session()
    status = use_query(get_two_factor)
    setup_state: State[TotpSetup | None] = use_state(None)
    setup, set_setup = setup_state
    start = use_action(start_totp_setup, on_success=set_setup)

    async def begin() -> None:
        await start.run()

    if status.error:
        body = error_state(status.error, status.refetch)
    elif status.loading and status.data is None:
        body = loading_state("Checking…")
    elif status.data is not None and status.data.enabled:
        body = html._(
            state_line(
                status_pill("On", on=True, icon_name="check"),
                " Signing in asks for a code from your authenticator app.",
            ),
            auth_form(
                "/auth/mfa/disable",
                session.csrf_token,
                field(
                    "Code to turn it off",
                    name="code",
                    auto_complete="one-time-code",
                    input_mode="numeric",
                    pattern="[0-9 ]*",
                    max_length=8,
                    required=True,
                    id="mfa-disable-code",
                ),
                submit_button("Turn off two-factor authentication", "Turning off…", variant="outline"),
                class_name="form settings-form",
                aria_label="Turn off two-factor authentication",
            ),
        )
    elif setup is not None:
        body = _enrolment(setup, session.csrf_token)
    else:
        body = html._(
            state_line(
                status_pill("Off"),
                " Add a code from an authenticator app (Google Authenticator, 1Password, Authy…) to every sign-in.",
            ),
            settings_actions(
                Button(
                    "Set up authenticator app",
                    on_click=begin,
                    pending=start.pending,
                    pending_label="Preparing…",
                )
            ),
        )
    return SettingsCard("Two-factor authentication", body, title_id="settings-mfa")


def _enrolment(setup: TotpSetup, csrf_token: str) -> VdomDict:
    return html.div(
        {"class_name": "totp-setup"},
        html.ol(
            {"class_name": "totp-steps"},
            html.li("Scan this QR code with your authenticator app."),
            html.li(
                "Or type this key into the app: ",
                html.code({"class_name": "totp-secret", "data-totp-secret": ""}, setup.secret),
            ),
            html.li("Enter the 6-digit code the app shows."),
        ),
        html.div(
            {"class_name": "totp-qr"},
            html.img(
                {
                    "src": "data:image/svg+xml;utf-8," + quote(setup.qr_code),
                    "alt": "QR code to add your account to an authenticator app",
                    "width": 180,
                    "height": 180,
                }
            ),
        ),
        auth_form(
            "/auth/mfa/enable",
            csrf_token,
            html.input({"type": "hidden", "name": "factor_id", "value": setup.factor_id}),
            field(
                "Authentication code",
                name="code",
                auto_complete="one-time-code",
                input_mode="numeric",
                pattern="[0-9 ]*",
                max_length=8,
                required=True,
                id="mfa-enable-code",
            ),
            submit_button("Verify and turn on", "Verifying…"),
            class_name="form settings-form",
            aria_label="Confirm two-factor authentication",
        ),
    )
