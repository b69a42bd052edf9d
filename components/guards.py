"""Screen-level access guards for the dashboard, staff portal and admin, and where to land after sign-in.

The rules are pure functions of the signed-in user (`CurrentUser | None`) so they can be unit-tested. The
route table (pages/routes.py) names each screen's rule and the screen view applies it once, through
`use_guard`, before the screen loads: when the rule denies, it shows the rule's error toast once (from an
effect, never on every render) and renders the redirect instead of the screen. Screens never guard
themselves.

These guards only decide what a screen shows. Permission checks on actions belong to the services
(`app/services`), which check the actor themselves: hiding a screen is not security.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote

from reactpy_router import navigate

from app.auth.web import safe_redirect_path
from components.context import CurrentUser, use_session
from components.effects import use_effect

__all__ = ["safe_redirect_path"]  # re-exported: the screens decide with it, the form posts check with it

STAFF_ROLES = frozenset({"management", "hr", "support", "owner"})
ADMIN_ROLES = frozenset({"owner", "admin"})
BACK_OFFICE_ROLES = frozenset({"management", "hr", "support"})  # land in the staff portal after sign-in

LOGIN_PATH = "/login"
ENROLLMENT_PATH = "/provider-enrollment"
ENROLLMENT_LOGIN = "/login?redirect=/provider-enrollment"
ENROLLMENT_LOGIN_MESSAGE = "Please sign in or create an account to apply as a provider"
DASHBOARD_LOGIN = "/login?redirect=/dashboard"
ADMIN_LOGIN = "/login?redirect=/admin"
DASHBOARD_LOGIN_MESSAGE = "Please log in to access the dashboard"
ACCESS_DENIED = "Access Denied"
STAFF_DENIED_DESCRIPTION = "You don't have permission to access the staff portal."
ADMIN_DENIED_DESCRIPTION = "You don't have permission to access the admin portal."
CHECKOUT_LOGIN = "/login?redirect=/checkout"
CHECKOUT_LOGIN_MESSAGE = "Please sign in to book your visits"
APPOINTMENTS_LOGIN = "/login?redirect=/appointments"
APPOINTMENTS_LOGIN_MESSAGE = "Please log in to see your appointments"


@dataclass(frozen=True)
class Denial:
    """Why a screen is refused: where to send the visitor, and the error toast to show (if any)."""

    to: str
    title: str | None = None
    description: str | None = None


Rule = Callable[[CurrentUser | None], Denial | None]


def dashboard_rule(user: CurrentUser | None) -> Denial | None:
    """The dashboard needs a signed-in user of any role (SPEC §6)."""
    if user is None:
        return Denial(DASHBOARD_LOGIN, DASHBOARD_LOGIN_MESSAGE)
    return None


def checkout_rule(user: CurrentUser | None) -> Denial | None:
    """Booking needs an account (the cart is kept while the visitor signs in)."""
    return Denial(CHECKOUT_LOGIN, CHECKOUT_LOGIN_MESSAGE) if user is None else None


def appointments_rule(user: CurrentUser | None) -> Denial | None:
    """My Appointments needs a signed-in user; signed-out visitors sign in and come back."""
    return Denial(APPOINTMENTS_LOGIN, APPOINTMENTS_LOGIN_MESSAGE) if user is None else None


def enrollment_rule(user: CurrentUser | None) -> Denial | None:
    """Provider enrollment: a signed-in account (of any role: a patient may apply); signed-out visitors sign in
    (or sign up from there) and come back."""
    return Denial(ENROLLMENT_LOGIN, ENROLLMENT_LOGIN_MESSAGE) if user is None else None


def staff_rule(user: CurrentUser | None) -> Denial | None:
    """The staff portal: management, hr, support and owner; signed-out visitors go to /login (SPEC §6)."""
    if user is None:
        return Denial(LOGIN_PATH)
    if user.role not in STAFF_ROLES:
        return Denial("/", ACCESS_DENIED, STAFF_DENIED_DESCRIPTION)
    return None


def admin_rule(user: CurrentUser | None) -> Denial | None:
    """The admin portal: owner or admin."""
    if user is None:
        return Denial(ADMIN_LOGIN)
    if user.role not in ADMIN_ROLES:
        return Denial("/", ACCESS_DENIED, ADMIN_DENIED_DESCRIPTION)
    return None


AUTOMATION_DENIED_DESCRIPTION = "Only owners and admins can manage automation."


def dashboard_admin_rule(user: CurrentUser | None) -> Denial | None:
    """A dashboard screen of the Administration group (Automation): owner, admin or master admin (SPEC §6);
    signed-out visitors sign in first, everybody else goes back to the dashboard."""
    if user is None:
        return Denial(DASHBOARD_LOGIN, DASHBOARD_LOGIN_MESSAGE)
    if user.role not in ADMIN_ROLES and not user.is_master_admin:
        return Denial("/dashboard", ACCESS_DENIED, AUTOMATION_DENIED_DESCRIPTION)
    return None


def use_guard(rule: Rule | None) -> object | None:
    """Apply `rule` to the signed-in user. Returns None when allowed, else the redirect element to render.
    The screen view calls it before rendering the screen as a separate component, so the screen's hooks
    never depend on the outcome."""
    session = use_session()
    denial = rule(session.user) if rule is not None else None

    @use_effect(dependencies=[])
    def announce() -> None:
        if denial is not None and denial.title:
            session.toaster.error(denial.title, denial.description)

    return None if denial is None else navigate(denial.to, replace=True)


# ---- after sign-in -------------------------------------------------------------------------------


def auth_redirect_target(redirect: str | None, user: CurrentUser | None) -> str:
    """Where /auth-redirect sends the visitor (SPEC §2): a safe same-site `redirect`, else by role."""
    safe = safe_redirect_path(redirect)
    if safe is not None:
        return safe
    if user is None:
        return LOGIN_PATH
    if user.role == "provider":
        return "/dashboard" if user.enrollment_complete else ENROLLMENT_PATH
    if user.provider_applicant and not user.enrollment_complete:
        return ENROLLMENT_PATH  # an open application (the applicant is a patient until approved)
    if user.role in BACK_OFFICE_ROLES:
        return "/staff"
    if user.role in ADMIN_ROLES:
        return "/admin"
    return "/dashboard"


# ---- naming the feature behind a portal path -----------------------------------------------------

_ACRONYMS = {"ai": "AI", "iv": "IV", "faq": "FAQ", "hr": "HR", "api": "API", "id": "ID"}
_MAX_NAME_LENGTH = 60


def feature_segment(pathname: str, prefix: str) -> str:
    """The first path segment after `prefix`: ('/dashboard/team/x', '/dashboard') → 'team'."""
    rest = pathname[len(prefix) :] if pathname.startswith(prefix) else ""
    return next((part for part in rest.split("/") if part), "")


def feature_name(segment: str) -> str:
    """A human name for a path segment: 'notification-settings' → 'Notification Settings'."""
    words = re.split(r"[-_\s]+", unquote(segment).strip())
    name = " ".join(
        _ACRONYMS.get(word.lower(), word[:1].upper() + word[1:].lower()) for word in words if word
    )
    if len(name) > _MAX_NAME_LENGTH:
        name = name[: _MAX_NAME_LENGTH - 1].rstrip() + "…"
    return name or "This feature"
