"""The route table: every path the site answers, the screen behind it and its title.

Screens are named as "module:attribute" strings and imported on first visit (loaded on demand), so this
module imports no screen and the HTTP layer can use `match_screen` to answer 404 for anything else.

Access rules live here too: `rule` is applied once, by the screen view, before the screen loads (a denied
visitor never runs a screen's hooks). Every /dashboard, /staff and /admin route has one (a test checks).

`description` is the page's meta description (one sentence, at most 160 characters, `{brand}` for the
wordmark; pages/heads.py), the site's general sentence unless a screen sets its own. `head`, for a route with
an id or slug in its path, looks up the thing named (a listed provider, a service or category of the
catalog) and returns the title and description that name it, or None when it is not there: the HTTP layer
then answers 404, while the screen still renders its own not-found message.

`framed` says whether the screen sits in the public site frame (banner, top nav, footer): every /staff screen
has its own frame instead (components/staff_frame.py), so it is `framed=False`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from reactpy_router.resolvers import ReactPyResolver
from reactpy_router.types import Route

from components.guards import (
    Rule,
    admin_rule,
    appointments_rule,
    checkout_rule,
    dashboard_rule,
    staff_rule,
)
from pages.heads import SITE_DESCRIPTION, PageHead, provider_head, service_page_head


@dataclass(frozen=True)
class Screen:
    path: str  # reactpy-router syntax: "/services/{slug:slug}", "/dashboard/{rest:path}"
    target: str  # "pages.home:HomePage"
    title: str
    rule: Rule | None = None  # who may see it (components/guards.py); None = everyone
    framed: bool = True  # inside the public site frame; False for the staff portal's own frame
    description: str = SITE_DESCRIPTION  # the meta description; `{brand}` is the wordmark
    # `await head(session=…, **path_params)`: the title and description naming what the path names, or
    # None, which answers HTTP 404 (the screen says 'not found' itself).
    head: Callable[..., Awaitable[PageHead | None]] | None = None


ASSISTANT_DESCRIPTION = (
    "Pick the situation closest to yours and we'll point you to the right service. A simple guide: it "
    "doesn't diagnose and it isn't medical advice."
)
PRIVACY_DESCRIPTION = (
    "How {brand} collects, uses and protects your information, including health information."
)
TERMS_DESCRIPTION = "The rules for using {brand}, whether you're booking care or providing it."
FORGOT_DESCRIPTION = (
    "Enter the e-mail address of your {brand} account and we'll send you a link to choose a new password."
)
ENROLLMENT_DESCRIPTION = (
    "Five steps stand between a licensed provider and their first home visit: what each one asks for, so "
    "you can have it ready."
)

PUBLIC = (
    Screen(
        "/",
        "pages.home:HomePage",
        "Mobile healthcare at your door",
        description="Book blood draws, IV therapy, in-home nursing and at-home diagnostics with verified "
        "providers who come to your home or office.",
    ),
    Screen(
        "/about",
        "pages.about:AboutPage",
        "About us",
        description="{brand} connects patients with licensed providers who bring everyday healthcare to "
        "their home or office.",
    ),
    Screen(
        "/services",
        "pages.services:ServicesPage",
        "Services",
        description="Blood draws, IV therapy, nursing care and diagnostic tests at your home or office: "
        "what each service covers, its prices and how to prepare.",
    ),
    Screen(
        "/services/{slug:slug}",
        "pages.service_detail:ServiceDetailPage",
        "Service",
        description="What a home visit for this service covers, its price and how to prepare.",
        head=service_page_head,
    ),
    Screen(
        "/providers",
        "pages.providers:ProvidersPage",
        "Browse Providers",
        description="Nurses, phlebotomists, nurse practitioners and other licensed professionals who come "
        "to you, each verified before their first visit.",
    ),
    Screen(
        "/providers/{provider_id:str}",
        "pages.provider_profile:ProviderProfilePage",
        "Provider",
        description="A verified provider's services, prices, reviews and next available times.",
        head=provider_head,
    ),
    Screen(
        "/find-provider",
        "pages.find_provider:FindProviderPage",
        "Find a Provider",
        description="Search verified providers by service, ZIP code and date, and see when each one can "
        "come to you.",
    ),
    Screen(
        "/provider-of-month",
        "pages.featured_providers:FeaturedProvidersPage",
        "Featured Providers",
        description="The providers patients rate highest after their visits, from reviews of completed "
        "visits on {brand}.",
    ),
    Screen(
        "/become-provider",
        "pages.become_provider:BecomeProviderPage",
        "Join as Provider",
        description="Join {brand} as a licensed provider: set your own hours and service area, and get "
        "paid for the visits you already know how to do.",
    ),
    Screen(
        "/provider-faq",
        "pages.provider_faq:ProviderFaqPage",
        "Provider FAQ",
        description="What licensed providers ask before joining {brand}: eligibility, verification, "
        "scheduling and payment.",
    ),
    Screen(
        "/how-it-works",
        "pages.how_it_works:HowItWorksPage",
        "How It Works",
        description="Book licensed care in a few steps and a verified provider comes to you: what happens "
        "from choosing a service to getting your results.",
    ),
    Screen(
        "/corporate",
        "pages.corporate:CorporatePage",
        "Corporate Solutions",
        description="Flu shots, health screenings and blood draws at your workplace: licensed providers "
        "come to your office or event venue.",
    ),
    Screen(
        "/forum",
        "pages.forum:ForumPage",
        "Community Forum",
        description="Patients, caregivers and providers share experiences of care at home: preparing for a "
        "visit, recovering, caring for a family member.",
    ),
    Screen(
        "/healthcare-assistant",
        "pages.assistant:AssistantPage",
        "AI Assistant",
        description=ASSISTANT_DESCRIPTION,
    ),
    Screen(
        "/ai-assistant", "pages.assistant:AssistantPage", "AI Assistant", description=ASSISTANT_DESCRIPTION
    ),
    Screen(
        "/help-center",
        "pages.help_center:HelpCenterPage",
        "Help Center",
        description="Answers to common questions about booking, visits, payment and your {brand} account.",
    ),
    Screen(
        "/contact",
        "pages.contact:ContactPage",
        "Contact",
        description="Questions about a booking, a visit or your account? Contact the {brand} support team.",
    ),
    Screen(
        "/careers",
        "pages.careers:CareersPage",
        "Careers",
        description="Work with {brand}: we're building a simpler way to get licensed care at home.",
    ),
    Screen(
        "/service-requests",
        "pages.service_requests:ServiceRequestsPage",
        "Service Requests",
        description="Need care we don't list yet? Send a service request and we'll look for a licensed "
        "provider who can offer it near you.",
    ),
    Screen(
        "/ad-purchase",
        "pages.ad_purchase:AdPurchasePage",
        "Purchase Ad Space",
        description="Advertise on {brand}: reach people arranging care at home, and the providers who "
        "deliver it, with clearly labelled placements.",
    ),
    Screen(
        "/privacy-policy",
        "pages.legal:PrivacyPolicyPage",
        "Privacy Policy",
        description=PRIVACY_DESCRIPTION,
    ),
    Screen(
        "/terms-of-service",
        "pages.legal:TermsOfServicePage",
        "Terms of Service",
        description=TERMS_DESCRIPTION,
    ),
    Screen(
        "/appointments",
        "pages.appointments:AppointmentsPage",
        "My Appointments",
        rule=appointments_rule,
        description="Your upcoming and past visits: reschedule or cancel up to 24 hours ahead, and review "
        "your care.",
    ),
    Screen("/checkout", "pages.checkout:CheckoutPage", "Checkout", rule=checkout_rule),
    Screen("/orders/{number:str}", "pages.order:OrderPage", "Your order", rule=appointments_rule),
)

_SIGN_IN = "Sign in to {brand} to book visits, manage your appointments and reach support."
_SIGN_UP = "Create a {brand} account to book licensed care at your home or office."
ACCOUNT = (
    Screen("/login", "pages.sign_in:SignInPage", "Sign In", description=_SIGN_IN),
    Screen("/sign-in", "pages.sign_in:SignInPage", "Sign In", description=_SIGN_IN),
    Screen("/register", "pages.sign_up:SignUpPage", "Sign Up", description=_SIGN_UP),
    Screen("/sign-up", "pages.sign_up:SignUpPage", "Sign Up", description=_SIGN_UP),
    Screen("/signup", "pages.redirects:SignupRedirect", "Sign Up", description=_SIGN_UP),
    Screen(
        "/forgot-password",
        "pages.forgot_password:ForgotPasswordPage",
        "Reset your password",
        description=FORGOT_DESCRIPTION,
    ),
    Screen(
        "/reset-password",
        "pages.reset_password:ResetPasswordPage",
        "Choose a new password",
        description="Choose a new password for your {brand} account.",
    ),
    Screen("/auth-redirect", "pages.auth_redirect:AuthRedirectPage", "Signing you in"),
)

PORTALS = (
    Screen(
        "/provider-enrollment",
        "pages.provider_enrollment:ProviderEnrollmentPage",
        "Provider Enrollment",
        description=ENROLLMENT_DESCRIPTION,
    ),
    Screen(
        "/provider-enrollment/{rest:path}",
        "pages.provider_enrollment:ProviderEnrollmentPage",
        "Provider Enrollment",
        description=ENROLLMENT_DESCRIPTION,
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
