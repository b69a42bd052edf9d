"""Reset your password (/forgot-password): there are no online accounts yet, so nothing to reset; no form."""

from __future__ import annotations

from reactpy import component

from pages.sign_in import account_card


@component
def ForgotPasswordPage() -> dict:
    return account_card(
        icon_name="shield",
        title="Reset your password",
        lead="Online accounts are opening soon, so there is no password to reset yet.",
        actions=(
            ("Browse services", "/services", "primary"),
            ("How it works", "/how-it-works", "outline"),
        ),
    )
