"""Sign in (/login, /sign-in): accounts open in a later release, so an honest card with useful links, no form.

`account_card` is the shared layout of the three account screens (sign in, sign up, reset password).
A `redirect` query parameter may arrive here (from the dashboard guard); it is kept for the real sign-in
and deliberately shown nowhere.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from components.icons import icon


def account_card(
    *, icon_name: str, title: str, lead: str, actions: tuple[tuple[str, str, str], ...], extra: Any = ""
) -> dict:
    """A centred card: icon, heading, one sentence, link buttons (label, href, variant), an optional block."""
    return html.section(
        {"class_name": "auth-page"},
        html.div(
            {"class_name": "auth-card"},
            html.span({"class_name": "auth-icon"}, icon(icon_name, size=26)),
            html.h1({"class_name": "auth-title"}, title),
            html.p({"class_name": "auth-lead"}, lead),
            html.div(
                {"class_name": "auth-actions"},
                *(
                    html.a({"class_name": f"btn btn-{variant}", "href": href, "key": href}, label)
                    for label, href, variant in actions
                ),
            ),
            extra,
            html.p(
                {"class_name": "auth-foot"},
                "Questions? Visit the ",
                html.a({"href": "/help-center"}, "Help Center"),
                " or ",
                html.a({"href": "/contact"}, "contact us"),
                ".",
            ),
        ),
    )


@component
def SignInPage() -> dict:
    return account_card(
        icon_name="log-in",
        title="Sign in",
        lead="Online accounts are opening soon; until then you can browse our services and see how "
        "a home visit works without one.",
        actions=(
            ("Browse services", "/services", "primary"),
            ("How it works", "/how-it-works", "outline"),
        ),
    )
