"""Sign in (/login, /sign-in): e-mail and password (Tab goes Email, Password, Sign in; "Forgot password?"
comes after the button), then the authenticator code for a user with two-factor
authentication on (`?step=mfa`). The forms post to /auth/login and /auth/mfa (app/auth/browser.py).

A failed attempt comes back here with its message and the typed e-mail kept. The `redirect` query parameter
(from the dashboard guard) is carried through to /auth-redirect. Someone already signed in goes straight
to /auth-redirect.
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import navigate, use_search_params

from app.auth.web import with_redirect
from components.account import (
    auth_card,
    auth_form,
    field,
    flash_message,
    form_alert,
    form_notice,
    oidc_option,
    submit_button,
    use_flash,
)
from components.context import use_session
from components.kit import auth_switch, hint

NOTICES = frozenset({"confirmation_sent"})


@component
def SignInPage() -> Component:
    session = use_session()
    params = use_search_params()
    redirect = next(iter(params.get("redirect") or []), None)
    step = (params.get("step") or [""])[0]
    if session.user is not None:
        return navigate(with_redirect("/auth-redirect", redirect), replace=True)
    if step == "mfa":
        return _SecondFactor(redirect)
    return _PasswordSignIn(redirect)


@component
def _PasswordSignIn(redirect: str | None) -> VdomDict:
    session = use_session()
    flash = use_flash("login")
    email = flash.values.get("email", "") if flash else ""
    notice = flash_message(flash) if flash and flash.code in NOTICES else None
    error = flash_message(flash) if flash and flash.code not in NOTICES else None
    return auth_card(
        oidc_option(redirect),
        auth_form(
            "/auth/login",
            session.csrf_token,
            form_notice(notice),
            form_alert(error),
            field("Email", name="email", type="email", value=email, auto_complete="email", required=True),
            field(
                "Password", name="password", type="password", auto_complete="current-password", required=True
            ),
            submit_button("Sign in", "Signing in…"),
            # After the button: the Tab order is Email, Password, Sign in (nothing in between).
            html.p(
                {"class_name": "auth-forgot"},
                html.a({"href": "/forgot-password", "class_name": "auth-small-link"}, "Forgot password?"),
            ),
            redirect=redirect,
        ),
        _resend_confirmation(session.csrf_token, email, redirect)
        if flash and flash.code == "email_not_confirmed"
        else "",
        auth_switch(
            "New to ",
            session.brand_name,
            "? ",
            label="Create an account",
            href=with_redirect("/register", redirect),
        ),
        icon_name="log-in",
        title="Sign in",
        lead="Sign in to book visits and manage your appointments.",
    )


def _resend_confirmation(csrf_token: str, email: str, redirect: str | None) -> VdomDict:
    return auth_form(
        "/auth/resend-confirmation",
        csrf_token,
        html.input({"type": "hidden", "name": "email", "value": email}),
        hint("Didn't get the e-mail, or did the link expire?"),
        submit_button("Resend confirmation email", "Sending…", variant="outline"),
        redirect=redirect,
        class_name="form auth-form auth-secondary-form",
        aria_label="Resend confirmation email",
    )


@component
def _SecondFactor(redirect: str | None) -> VdomDict:
    session = use_session()
    flash = use_flash("mfa")
    return auth_card(
        auth_form(
            "/auth/mfa",
            session.csrf_token,
            form_alert(flash_message(flash)),
            field(
                "Authentication code",
                name="code",
                value="",
                auto_complete="one-time-code",
                input_mode="numeric",
                pattern="[0-9 ]*",
                max_length=8,
                required=True,
                auto_focus=True,
                hint="Open your authenticator app and enter the 6-digit code it shows for your account.",
            ),
            submit_button("Verify", "Verifying…"),
            redirect=redirect,
        ),
        auth_switch(
            "Not you? ", label="Sign in with another account", href=with_redirect("/login", redirect)
        ),
        icon_name="lock",
        title="Two-factor authentication",
        lead="Your account is protected with an authenticator app.",
    )
