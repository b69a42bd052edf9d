"""Reset your password (/forgot-password): the e-mail address, posted to /auth/forgot-password.

The identity service e-mails a link to /reset-password (for an address with an account; the answer is the
same either way, so nobody learns who has one).
"""

from __future__ import annotations

from reactpy import component
from reactpy.types import VdomDict

from components.account import (
    auth_card,
    auth_form,
    field,
    flash_message,
    form_alert,
    form_notice,
    submit_button,
    use_flash,
)
from components.context import use_session
from components.kit import auth_switch


@component
def ForgotPasswordPage() -> VdomDict:
    session = use_session()
    flash = use_flash("forgot")
    sent = flash is not None and flash.code == "recovery_sent"
    email = flash.values.get("email", "") if flash else ""
    return auth_card(
        auth_form(
            "/auth/forgot-password",
            session.csrf_token,
            form_notice(flash_message(flash) if sent else None),
            form_alert(None if sent else flash_message(flash)),
            field("Email", name="email", type="email", value=email, auto_complete="email", required=True),
            submit_button("Send another link" if sent else "Send reset link", "Sending…"),
        ),
        auth_switch("Remembered it? ", label="Back to sign in", href="/login"),
        icon_name="shield",
        title="Reset your password",
        lead="Enter the e-mail address of your account and we'll send you a link to choose a new password.",
    )
