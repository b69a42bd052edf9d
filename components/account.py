"""Shared pieces of the account screens (sign in, sign up, password reset, settings) and the sign-out form.

The forms are plain HTML form posts to `/auth/*` (app/auth/browser.py): the browser submits them itself,
so no keystroke costs a server render, and the answer can set the HttpOnly session cookies. Each form
carries the CSRF token of the connection (`UiSession.csrf_token`). When a post fails, the next page
arrives with a flash note (error code and the typed values, never a password) that `use_flash` hands to
the screen it is meant for, once; `flash_message` turns it into words.
"""

from __future__ import annotations

from typing import Any

from reactpy import html, use_state
from reactpy.types import VdomDict

from app.auth.web import CSRF_FIELD, Flash, safe_redirect_path, with_redirect
from app.settings import get_settings
from components import browser
from components.context import ToastVariant, use_session
from components.icons import icon
from components.kit import form_error

GENERIC_FAILURE = "Something went wrong. Please try again."
INCORRECT_CREDENTIALS = "Incorrect email or password"

MESSAGES = {
    # errors shown on the forms
    "invalid_credentials": INCORRECT_CREDENTIALS,
    "email_not_confirmed": "Please confirm your email address first: open the link we sent you.",
    "user_banned": "This account is suspended. Please contact support.",
    "missing_fields": "Please fill in all fields",
    "user_already_exists": "An account with this email already exists. Sign in instead.",
    "email_exists": "An account with this email already exists. Sign in instead.",
    "signup_disabled": "Sign-ups are closed at the moment.",
    "mfa_expired": "Your sign-in timed out. Please sign in again.",
    "mfa_verification_failed": "That code didn't work. Check your authenticator app and try again.",
    "mfa_challenge_expired": "That code came too late. Please try again.",
    "mfa_ip_address_mismatch": "That code didn't work. Please try again.",
    "missing_code": "Enter the 6-digit code from your authenticator app.",
    "link_expired": "This password reset link is invalid or has expired.",
    "otp_expired": "This password reset link is invalid or has expired.",
    "password_mismatch": "The passwords don't match.",
    "same_password": "Your new password must be different from the old one.",
    "insufficient_aal": "Please sign in with your authenticator code first.",
    "unexpected": GENERIC_FAILURE,
    "oidc_failed": "We couldn't sign you in with your organization account. Please try again.",
    "oidc_unavailable": "Signing in with an organization account isn't available.",
    # notices after a successful post
    "confirm_email": "Check your email: we sent a confirmation link to {email}. Open it to finish signing up.",
    "waitlisted": "You're on the waitlist",
    "recovery_sent": "If an account exists for {email}, we sent it a link to choose a new password. "
    "The link works for 24 hours.",
    "confirmation_sent": "We sent a new confirmation link to {email}.",
    # toasts on the next page
    "logged_out": "Logged out successfully",
    "timed_out": "For your security you were signed out after a period of inactivity. Please sign in again.",
    "logout_failed": "There was a problem logging out. Please try again.",
    "password_updated": "Your password has been updated",
    "mfa_enabled": "Two-factor authentication is on",
    "mfa_disabled": "Two-factor authentication is off",
    "mfa_not_enabled": "Two-factor authentication is not on.",
}


def flash_message(flash: Flash | None) -> str | None:
    """The words for a flash note: 'Too many attempts. Try again in 42 seconds.', 'Incorrect email or
    password', a weak password's reasons, ..."""
    if flash is None:
        return None
    if flash.code == "rate_limited":
        seconds = int(flash.detail.get("retry_after") or 60)
        return f"Too many attempts. Try again in {seconds} second{'s' if seconds != 1 else ''}."
    if flash.code == "weak_password":
        return "Please choose a stronger password. " + str(flash.detail.get("message") or "")
    if flash.code == "validation_failed":
        message = str(flash.detail.get("message") or "")
        if "email" in message.lower():
            return "Please enter a valid email address."
        return message or GENERIC_FAILURE
    template = MESSAGES.get(flash.code)
    if template is None:
        return str(flash.detail.get("message") or GENERIC_FAILURE)
    return template.format(email=flash.values.get("email") or "your address")


def flash_toast(flash: Flash | None) -> tuple[str, ToastVariant] | None:
    """(title, variant) of a toast flash."""
    if flash is None:
        return None
    variant = flash.detail.get("variant")
    return flash_message(flash) or GENERIC_FAILURE, variant if variant in ("success", "error") else "default"


def use_flash(*kinds: str) -> Flash | None:
    """The flash note for this screen, taken once when the screen mounts."""
    session = use_session()
    flash, _ = use_state(lambda: session.flash.take(*kinds))
    return flash


# ---- layout ------------------------------------------------------------------------------------------
def help_foot() -> VdomDict:
    return html.p(
        {"class_name": "auth-foot"},
        "Questions? Visit the ",
        html.a({"href": "/help-center"}, "Help Center"),
        " or ",
        html.a({"href": "/contact"}, "contact us"),
        ".",
    )


def auth_card(*children: Any, icon_name: str, title: str, lead: str | None = None) -> VdomDict:
    """The centred card of the account screens: icon, heading, a sentence, then the form or links."""
    return html.section(
        {"class_name": "auth-page"},
        html.div(
            {"class_name": "auth-card"},
            html.span({"class_name": "auth-icon"}, icon(icon_name, size=26)),
            html.h1({"class_name": "auth-title"}, title),
            html.p({"class_name": "auth-lead"}, lead) if lead else "",
            *children,
            help_foot(),
        ),
    )


def link_actions(*actions: tuple[str, str, str]) -> VdomDict:
    """Full-width link buttons: (label, href, variant)."""
    return html.div(
        {"class_name": "auth-actions"},
        *(
            html.a({"class_name": f"btn btn-{variant}", "href": href, "key": href}, label)
            for label, href, variant in actions
        ),
    )


def oidc_option(redirect: str | None) -> VdomDict | str:
    """'Continue with <OIDC_NAME>' when an external OpenID Connect provider is configured.

    A plain link (a full page load: the browser leaves for the provider and comes back to /auth/oidc/callback).
    """
    settings = get_settings()
    if not (settings.oidc_issuer and settings.oidc_client_id and settings.oidc_client_secret):
        return ""
    return html._(
        html.a(
            {"class_name": "btn btn-outline auth-oidc", "href": with_redirect("/auth/oidc", redirect)},
            icon("building", size=18),
            f"Continue with {settings.oidc_name}",
        ),
        html.p({"class_name": "auth-divider"}, html.span("or use your email")),
    )


# ---- forms ---------------------------------------------------------------------------------------------
def csrf_input(token: str) -> VdomDict:
    return html.input({"type": "hidden", "name": CSRF_FIELD, "value": token})


def auth_form(
    action: str, csrf_token: str, *children: Any, redirect: str | None = None, **attributes
) -> VdomDict:
    """A form the browser posts to `action` itself, with the CSRF token and the safe `redirect` to go on to."""
    safe = safe_redirect_path(redirect)
    return html.form(
        {
            "class_name": "form auth-form",
            "method": "post",
            "action": action,
            **browser.auth_form(),
            **attributes,
        },
        csrf_input(csrf_token),
        html.input({"type": "hidden", "name": "redirect", "value": safe}) if safe else "",
        *children,
    )


def field(
    label: str,
    *,
    name: str,
    type: str = "text",
    value: str = "",
    hint: str | None = None,
    error: str | None = None,
    **attrs,
) -> VdomDict:
    """A labelled input; `attrs` are extra input attributes (auto_complete, required, input_mode, ...).
    `error` is shown under it and marks it invalid (a refusal the server sent back for this field)."""
    field_id = attrs.pop("id", f"auth-{name.replace('_', '-')}")
    described = " ".join(
        part for part, shown in ((f"{field_id}-error", error), (f"{field_id}-hint", hint)) if shown
    )
    invalid = {"aria-invalid": "true"} if error else {}
    return html._(
        html.label({"html_for": field_id}, label),
        html.input(
            {
                "id": field_id,
                "name": name,
                "type": type,
                "default_value": value,
                **({"aria-describedby": described} if described else {}),
                **invalid,
                **attrs,
            }
        ),
        html.p({"class_name": "form-error field-error", "id": f"{field_id}-error", "role": "alert"}, error)
        if error
        else "",
        html.p({"class_name": "hint", "id": f"{field_id}-hint"}, hint) if hint else "",
    )


def password_hint(min_length: int) -> str:
    """What a new password needs (NIST SP 800-63B: length and not a common one; paste and managers welcome)."""
    return f"At least {min_length} characters, and not a common password. A password manager's is ideal."


def form_alert(message: str | None) -> VdomDict | str:
    return form_error(message)


def form_notice(message: str | None) -> VdomDict | str:
    return (
        html.p(
            {"class_name": "form-notice", "role": "status"},
            icon("check", size=18),
            html.span(message),
        )
        if message
        else ""
    )


def submit_button(label: str, busy_label: str, *, variant: str = "primary") -> VdomDict:
    """static/js/auth.js disables it and shows `busy_label` while the browser posts the form."""
    return html.button(
        {"class_name": f"btn btn-{variant} auth-submit", "type": "submit", **browser.busy_label(busy_label)},
        label,
    )


def logout_form(
    csrf_token: str, *, class_name: str = "nav-dropdown-item", role: str | None = "menuitem"
) -> VdomDict:
    """'Log out': a form post, so the answer can clear the HttpOnly cookies."""
    button: dict[str, Any] = {"class_name": class_name, "type": "submit"}
    if role:
        button["role"] = role
        button["tab_index"] = -1  # a menu item: reached with the arrow keys (static/js/app.js)
    return html.form(
        {"method": "post", "action": "/auth/logout", "class_name": "logout-form", **browser.auth_form()},
        csrf_input(csrf_token),
        html.button(button, "Log out"),
    )
