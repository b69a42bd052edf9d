"""Sign up (/register, /sign-up): accounts open in a later release, so an honest card with links, no form."""

from __future__ import annotations

from reactpy import component, html

from components.context import use_session
from components.icons import icon
from pages.sign_in import account_card


@component
def SignUpPage() -> dict:
    brand = use_session().brand_name
    return account_card(
        icon_name="user",
        title="Create your account",
        lead="Online accounts are opening soon; until then you can browse our services and see how "
        "a home visit works without one.",
        actions=(
            ("Browse services", "/services", "primary"),
            ("How it works", "/how-it-works", "outline"),
        ),
        extra=html.a(
            {"class_name": "auth-aside", "href": "/become-provider"},
            html.span({"class_name": "auth-aside-icon"}, icon("stethoscope", size=20)),
            html.span(
                {"class_name": "auth-aside-text"},
                html.strong("Are you a licensed provider?"),
                html.span(f"See how to join {brand} and take home visits."),
            ),
            icon("chevron-right", size=18, class_name="icon auth-aside-chevron"),
        ),
    )
