"""/auth-redirect: where a visitor lands after signing in; forwards them on at once (SPEC §2).

The decision is `components.guards.auth_redirect_target`: the `redirect` query parameter when it is a safe
same-site path (never another site: that would be an open redirect), otherwise by role.
"""

from __future__ import annotations

from reactpy import component, html
from reactpy_router import navigate, use_search_params

from components.context import use_session
from components.guards import auth_redirect_target


@component
def AuthRedirectPage() -> dict:
    user = use_session().user
    redirect = (use_search_params().get("redirect") or [None])[0]
    target = auth_redirect_target(redirect, user)
    return html.section(
        {"class_name": "auth-page"},
        html.div(
            {"class_name": "auth-card auth-card-compact", "role": "status", "aria-live": "polite"},
            html.span({"class_name": "portal-spinner", "aria-hidden": "true"}),
            html.p({"class_name": "auth-lead"}, "Redirecting…"),
            html.p({"class_name": "hint"}, html.a({"href": target}, "Continue"), " if nothing happens."),
        ),
        navigate(target, replace=True),
    )
