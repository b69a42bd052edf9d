"""Choose a new password (/reset-password): where the recovery and invitation links land.

The identity service puts the link's session in the URL fragment, which never reaches a server;
static/js/auth.js posts it to /auth/session, which turns it into this browser's cookies, and reloads. The
signed-in user then chooses a password, posted to /auth/reset-password. Without a session (an expired or
used link) the screen says so and offers a new link; while auth.js is still reading the link it shows
'Checking your link…' instead (html[data-auth-busy], static/css/portal.css).
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.settings import get_settings
from components.account import (
    auth_card,
    auth_form,
    field,
    flash_message,
    form_alert,
    link_actions,
    password_hint,
    submit_button,
    use_flash,
)
from components.context import use_session


@component
def ResetPasswordPage() -> VdomDict:
    session = use_session()
    flash = use_flash("reset")
    if session.user is None:
        return html._(
            html.div(
                {"class_name": "auth-busy-only"},
                auth_card(icon_name="shield", title="Checking your link…", lead="One moment, please."),
            ),
            html.div(
                {"class_name": "auth-busy-hide"},
                auth_card(
                    link_actions(
                        ("Request a new link", "/forgot-password", "primary"),
                        ("Back to sign in", "/login", "outline"),
                    ),
                    icon_name="alert",
                    title="Link expired",
                    lead=flash_message(flash)
                    if flash
                    else "This password reset link is invalid or has expired.",
                ),
            ),
        )
    min_length = get_settings().password_min_length
    weak = flash is not None and flash.code == "weak_password"  # shown under the password field
    return auth_card(
        auth_form(
            "/auth/reset-password",
            session.csrf_token,
            html.input(
                {
                    "type": "hidden",
                    "name": "username",
                    "value": session.user.email,
                    "auto_complete": "username",
                }
            ),
            form_alert(None if weak else flash_message(flash)),
            field(
                "New password",
                name="password",
                type="password",
                auto_complete="new-password",
                required=True,
                min_length=min_length,
                hint=password_hint(min_length),
                error=flash_message(flash) if weak else None,
            ),
            field(
                "Confirm new password",
                name="confirm_password",
                type="password",
                auto_complete="new-password",
                required=True,
                min_length=min_length,
            ),
            submit_button("Save new password", "Saving…"),
        ),
        icon_name="lock",
        title="Choose a new password",
        lead=f"Signed in as {session.user.email}. Your new password replaces the old one and signs out "
        "your other devices.",
    )
