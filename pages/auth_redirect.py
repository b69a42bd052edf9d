"""/auth-redirect: where a visitor lands after signing in; forwards them on at once (SPEC §2).

The decision is `components.guards.auth_redirect_target`: the `redirect` query parameter when it is a safe
same-site path (never another site: that would be an open redirect), otherwise by role. A signed-in visitor
sees 'Authentication successful'; anyone else 'Authentication failed. Please try again.' and goes back to
/login after 1.5 s, a delay the browser keeps (`data-navigate-after`, static/js/app.js). The screen has no
site frame (pages/routes.py): only the card, in the page's main landmark.
"""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict
from reactpy_router import navigate, use_search_params

from app.auth.web import with_redirect
from components import browser
from components.context import use_session
from components.effects import use_effect
from components.guards import auth_redirect_target
from components.kit import hint

AUTH_SUCCESS = "Authentication successful"
AUTH_FAILED = "Authentication failed. Please try again."
FAILURE_DELAY_MS = 1500


@component
def AuthRedirectPage() -> VdomDict:
    session = use_session()
    user = session.user
    redirect = next(iter(use_search_params().get("redirect") or []), None)

    @use_effect(dependencies=[])
    def announce() -> None:
        if user is not None:
            session.toaster.success(AUTH_SUCCESS)
        else:
            session.toaster.error(AUTH_FAILED)

    if user is None:
        login = with_redirect("/login", redirect)
        return html.main(
            {"id": "main", "class_name": "auth-page auth-page-alone"},
            html.div(
                {"class_name": "auth-card auth-card-compact", "role": "status", "aria-live": "polite"},
                html.p({"class_name": "auth-lead"}, AUTH_FAILED),
                hint(html.a({"href": login, **browser.navigate_after(FAILURE_DELAY_MS)}, "Back to sign in")),
            ),
        )
    target = auth_redirect_target(redirect, user)
    return html.main(
        {"id": "main", "class_name": "auth-page auth-page-alone"},
        html.div(
            {"class_name": "auth-card auth-card-compact", "role": "status", "aria-live": "polite"},
            html.span({"class_name": "portal-spinner", "aria-hidden": "true"}),
            html.p({"class_name": "auth-lead"}, "Redirecting…"),
            hint(html.a({"href": target}, "Continue"), " if nothing happens."),
        ),
        navigate(target, replace=True),
    )
