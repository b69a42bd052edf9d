"""The route table: every path the site answers, the screen behind it and its title.

Screens are named as "module:attribute" strings and imported on first visit (loaded on demand), so this
module imports no screen and the HTTP layer can use `match_screen` to answer 404 for anything else.

Access rules live here too: `rule` is applied once, by the screen view, before the screen loads (a denied
visitor never runs a screen's hooks). Every /dashboard, /staff and /admin route has one (a test checks).

`exists` checks, for a route with an id or slug in its path, that the thing named is there (a listed
provider, a service or category of the catalog): the HTTP layer answers 404 when it is not, while the screen
still renders its own not-found message.

`framed` says whether the screen sits in the public site frame (banner, top nav, footer): every /staff screen
has its own frame instead (components/staff_frame.py), so it is `framed=False`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from reactpy_router.resolvers import ReactPyResolver
from reactpy_router.types import Route

from app.services.catalog import get_service_page
from app.services.errors import NotFound
from app.services.providers import get_provider
from components.guards import (
    Rule,
    admin_rule,
    appointments_rule,
    checkout_rule,
    dashboard_rule,
    staff_rule,
)


@dataclass(frozen=True)
class Screen:
    path: str  # reactpy-router syntax: "/services/{slug:slug}", "/dashboard/{rest:path}"
    target: str  # "pages.home:HomePage"
    title: str
    rule: Rule | None = None  # who may see it (components/guards.py); None = everyone
    framed: bool = True  # inside the public site frame; False for the staff portal's own frame
    # `await exists(session=…, **path_params)`: False answers HTTP 404 (the screen says 'not found' itself).
    exists: Callable[..., Awaitable[bool]] | None = None


async def service_page_exists(*, session: Any, slug: str) -> bool:
    """/services/<slug>: a category of the catalog or one of its active services."""
    return await get_service_page(session=session, slug=slug) is not None


async def provider_exists(*, session: Any, provider_id: str) -> bool:
    """/providers/<id>: a listed (verified, active) provider."""
    try:
        await get_provider(session=session, provider_id=provider_id)
    except NotFound:
        return False
    return True


PUBLIC = (
    Screen("/", "pages.home:HomePage", "Mobile healthcare at your door"),
    Screen("/about", "pages.about:AboutPage", "About us"),
    Screen("/services", "pages.services:ServicesPage", "Services"),
    Screen(
        "/services/{slug:slug}",
        "pages.service_detail:ServiceDetailPage",
        "Service",
        exists=service_page_exists,
    ),
    Screen("/providers", "pages.providers:ProvidersPage", "Browse Providers"),
    Screen(
        "/providers/{provider_id:str}",
        "pages.provider_profile:ProviderProfilePage",
        "Provider",
        exists=provider_exists,
    ),
    Screen("/find-provider", "pages.find_provider:FindProviderPage", "Find a Provider"),
    Screen("/provider-of-month", "pages.featured_providers:FeaturedProvidersPage", "Featured Providers"),
    Screen("/become-provider", "pages.become_provider:BecomeProviderPage", "Join as Provider"),
    Screen("/provider-faq", "pages.provider_faq:ProviderFaqPage", "Provider FAQ"),
    Screen("/how-it-works", "pages.how_it_works:HowItWorksPage", "How It Works"),
    Screen("/corporate", "pages.corporate:CorporatePage", "Corporate Solutions"),
    Screen("/forum", "pages.forum:ForumPage", "Community Forum"),
    Screen("/healthcare-assistant", "pages.assistant:AssistantPage", "AI Assistant"),
    Screen("/ai-assistant", "pages.assistant:AssistantPage", "AI Assistant"),
    Screen("/help-center", "pages.help_center:HelpCenterPage", "Help Center"),
    Screen("/contact", "pages.contact:ContactPage", "Contact"),
    Screen("/careers", "pages.careers:CareersPage", "Careers"),
    Screen("/service-requests", "pages.service_requests:ServiceRequestsPage", "Service Requests"),
    Screen("/ad-purchase", "pages.ad_purchase:AdPurchasePage", "Purchase Ad Space"),
    Screen("/privacy-policy", "pages.legal:PrivacyPolicyPage", "Privacy Policy"),
    Screen("/terms-of-service", "pages.legal:TermsOfServicePage", "Terms of Service"),
    Screen("/appointments", "pages.appointments:AppointmentsPage", "My Appointments", rule=appointments_rule),
    Screen("/checkout", "pages.checkout:CheckoutPage", "Checkout", rule=checkout_rule),
    Screen("/orders/{number:str}", "pages.order:OrderPage", "Your order", rule=appointments_rule),
)

ACCOUNT = (
    Screen("/login", "pages.sign_in:SignInPage", "Sign In"),
    Screen("/sign-in", "pages.sign_in:SignInPage", "Sign In"),
    Screen("/register", "pages.sign_up:SignUpPage", "Sign Up"),
    Screen("/sign-up", "pages.sign_up:SignUpPage", "Sign Up"),
    Screen("/signup", "pages.redirects:SignupRedirect", "Sign Up"),
    Screen("/forgot-password", "pages.forgot_password:ForgotPasswordPage", "Reset your password"),
    Screen("/reset-password", "pages.reset_password:ResetPasswordPage", "Choose a new password"),
    Screen("/auth-redirect", "pages.auth_redirect:AuthRedirectPage", "Signing you in"),
)

PORTALS = (
    Screen("/provider-enrollment", "pages.provider_enrollment:ProviderEnrollmentPage", "Provider Enrollment"),
    Screen(
        "/provider-enrollment/{rest:path}",
        "pages.provider_enrollment:ProviderEnrollmentPage",
        "Provider Enrollment",
    ),
    Screen("/dashboard", "pages.dashboard.home:DashboardPage", "Dashboard", rule=dashboard_rule),
    # Built sections, ahead of the catch-all (first match wins).
    Screen(
        "/dashboard/appointments",
        "pages.dashboard.appointments:DashboardAppointmentsPage",
        "Appointments",
        rule=dashboard_rule,
    ),
    Screen(
        "/dashboard/services",
        "pages.dashboard.provider_services:ProviderServicesPage",
        "Services",
        rule=dashboard_rule,
    ),
    Screen("/dashboard/profile", "pages.dashboard.profile:ProfilePage", "Profile", rule=dashboard_rule),
    Screen("/dashboard/settings", "pages.dashboard.settings:SettingsPage", "Settings", rule=dashboard_rule),
    Screen("/dashboard/support", "pages.dashboard.support:SupportPage", "Support", rule=dashboard_rule),
    Screen("/dashboard/{rest:path}", "pages.dashboard.home:DashboardPage", "Dashboard", rule=dashboard_rule),
    Screen("/staff", "staff.portal:StaffPortal", "Staff Portal", rule=staff_rule, framed=False),
    Screen("/staff/helpdesk", "helpdesk.console:HelpDeskPage", "Help Desk", rule=staff_rule, framed=False),
    Screen("/staff/help-desk", "helpdesk.console:HelpDeskPage", "Help Desk", rule=staff_rule, framed=False),
    Screen("/staff/team", "staff.team:TeamPage", "Staff Management", rule=staff_rule, framed=False),
    Screen("/staff/audit", "staff.audit:AuditPage", "Audit Log", rule=staff_rule, framed=False),
    Screen("/staff/{rest:path}", "staff.portal:StaffPortal", "Staff Portal", rule=staff_rule, framed=False),
    Screen("/admin", "pages.admin:AdminPage", "Admin", rule=admin_rule),
)

# Matched only by paths nothing else matches; rendered with HTTP status 404.
NOT_FOUND = Screen("/{rest:any}", "pages.not_found:NotFoundPage", "Page Not Found")

SCREENS: tuple[Screen, ...] = (*PUBLIC, *ACCOUNT, *PORTALS)

# Only mounted when MEDIVISIT_TEST_BROKEN_SCREEN is set (the browser tests of the error screen).
TEST_SCREENS = (Screen("/__test__/broken", "pages.test_broken:BrokenPage", "Broken"),)


def screens(*, with_test_screens: bool = False) -> tuple[Screen, ...]:
    return (*SCREENS, *TEST_SCREENS) if with_test_screens else SCREENS


_RESOLVERS = tuple((ReactPyResolver(Route(s.path, None, ())), s) for s in (*SCREENS, *TEST_SCREENS))


def match_screen(path: str, *, with_test_screens: bool = False) -> Screen | None:
    """The screen for a path, or None when the path is unknown (a 404). Same matching as the router."""
    matched = match_route(path, with_test_screens=with_test_screens)
    return matched[0] if matched else None


def match_route(path: str, *, with_test_screens: bool = False) -> tuple[Screen, dict[str, Any]] | None:
    """The screen for a path and the parameters its path names (`{"slug": "iv-therapy"}`), or None."""
    known = screens(with_test_screens=with_test_screens)
    for resolver, screen in _RESOLVERS:
        if screen in known and (found := resolver.resolve(path)):
            return screen, dict(found.params)
    return None
