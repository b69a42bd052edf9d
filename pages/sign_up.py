"""Sign up (/register, /sign-up): name, e-mail and password, posted to /auth/register (app/auth/browser.py).

With auto-confirm the new account is signed in at once and goes on to /auth-redirect; otherwise the screen
says to open the confirmation link. With SIGNUPS=waitlist the same form puts the address on the waitlist.
A failure comes back here with its message and the typed name and e-mail kept.
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import navigate, use_search_params

from app import flags
from app.auth.web import with_redirect
from app.settings import get_settings
from components.account import (
    auth_card,
    auth_form,
    field,
    flash_message,
    form_alert,
    link_actions,
    oidc_option,
    password_hint,
    submit_button,
    use_flash,
)
from components.context import use_session
from components.icons import icon
from components.kit import auth_switch


@component
def SignUpPage() -> Component:
    session = use_session()
    redirect = next(iter(use_search_params().get("redirect") or []), None)
    if session.user is not None:
        return navigate(with_redirect("/auth-redirect", redirect), replace=True)
    return _SignUp(redirect)


@component
def _SignUp(redirect: str | None) -> VdomDict:
    session = use_session()
    flash = use_flash("register")
    values = flash.values if flash else {}
    if flash and flash.code == "confirm_email":
        return auth_card(
            link_actions(("Back to sign in", with_redirect("/login", redirect), "primary")),
            icon_name="mail",
            title="Check your email",
            lead=flash_message(flash),
        )
    if flash and flash.code == "waitlisted":
        return auth_card(
            link_actions(
                ("Browse services", "/services", "primary"), ("How it works", "/how-it-works", "outline")
            ),
            icon_name="check",
            title="You're on the waitlist",
            lead=f"Thanks! We'll e-mail {values.get('email') or 'you'} an invitation as soon as a place opens.",
        )
    waitlist = flags.signups_mode() == "waitlist"
    min_length = get_settings().password_min_length
    weak = flash is not None and flash.code == "weak_password"  # shown under the password field
    return auth_card(
        oidc_option(redirect),
        auth_form(
            "/auth/register",
            session.csrf_token,
            form_alert(None if weak else flash_message(flash)),
            field(
                "Full name", name="name", value=values.get("name", ""), auto_complete="name", max_length=200
            ),
            field(
                "Email",
                name="email",
                type="email",
                value=values.get("email", ""),
                auto_complete="email",
                required=True,
            ),
            ""
            if waitlist
            else field(
                "Password",
                name="password",
                type="password",
                auto_complete="new-password",
                required=True,
                min_length=min_length,
                hint=password_hint(min_length),
                error=flash_message(flash) if weak else None,
            ),
            submit_button(
                "Join the waitlist" if waitlist else "Create account",
                "Sending…" if waitlist else "Creating account…",
            ),
            redirect=redirect,
        ),
        auth_switch("Already have an account? ", label="Sign in", href=with_redirect("/login", redirect)),
        html.a(
            {"class_name": "auth-aside", "href": "/become-provider"},
            html.span({"class_name": "auth-aside-icon"}, icon("stethoscope", size=20)),
            html.span(
                {"class_name": "auth-aside-text"},
                html.strong("Are you a licensed provider?"),
                html.span(f"See how to join {session.brand_name} and take home visits."),
            ),
            icon("chevron-right", size=18, class_name="icon auth-aside-chevron"),
        ),
        icon_name="user",
        title="Join the waitlist" if waitlist else "Create your account",
        lead="Sign-ups open in waves: leave your e-mail and we'll invite you."
        if waitlist
        else "Book licensed providers who come to your home or office.",
    )
