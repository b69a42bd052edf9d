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

`frame` is what surrounds the screen (components/screen.py): the public site's (banner, top nav, footer),
the dashboard's (sidebar and header, every /dashboard screen) or its own (every /staff screen brings
components/staff_frame.py).
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
    dashboard_admin_rule,
    dashboard_rule,
    enrollment_rule,
    staff_rule,
)
from components.screen import DASHBOARD_FRAME, OWN_FRAME, SITE_FRAME
from pages.heads import (
    SITE_DESCRIPTION,
    PageHead,
    career_posting_head,
    forum_category_head,
    forum_topic_head,
    provider_head,
    service_page_head,
)


@dataclass(frozen=True)
class Screen:
    path: str  # reactpy-router syntax: "/services/{slug:slug}", "/dashboard/{rest:path}"
    target: str  # "pages.home:HomePage"
    title: str
    rule: Rule | None = None  # who may see it (components/guards.py); None = everyone
    frame: str = SITE_FRAME  # SITE_FRAME, DASHBOARD_FRAME or OWN_FRAME (components/screen.py)
    description: str = SITE_DESCRIPTION  # the meta description; `{brand}` is the wordmark
    # `await head(session=…, **path_params)`: the title and description naming what the path names, or
    # None, which answers HTTP 404 (the screen says 'not found' itself).
    head: Callable[..., Awaitable[PageHead | None]] | None = None


ASSISTANT_DESCRIPTION = (
    "Ask a question and we'll point you to the right service, how to prepare and what it costs. It doesn't "
    "diagnose and it isn't medical advice."
)
PRIVACY_DESCRIPTION = (
    "How {brand} collects, uses and protects your information, including health information."
)
TERMS_DESCRIPTION = "The rules for using {brand}, whether you're booking care or providing it."
FORGOT_DESCRIPTION = (
    "Enter the e-mail address of your {brand} account and we'll send you a link to choose a new password."
)
ENROLLMENT_DESCRIPTION = (
    "Apply to provide care with {brand}: your details, licences, services and documents, saved as you go."
)


def _dashboard(path: str, target: str, title: str) -> Screen:
    """A /dashboard screen: signed-in users only, inside the dashboard's frame."""
    return Screen(path, target, title, rule=dashboard_rule, frame=DASHBOARD_FRAME)


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
        "/forum/new",
        "pages.forum_new_topic:ForumNewTopicPage",
        "Start a topic",
        description="Ask the {brand} community a question or share an experience of care at home.",
    ),
    Screen(
        "/forum/c/{slug:str}",
        "pages.forum:ForumCategoryPage",
        "Community Forum",
        description="Topics in one category of the {brand} Community Forum.",
        head=forum_category_head,
    ),
    Screen(
        "/forum/t/{topic_id:str}/{slug:str}",
        "pages.forum_topic:ForumTopicPage",
        "Community Forum",
        description="A conversation in the {brand} Community Forum. Not medical advice.",
        head=forum_topic_head,
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
        "/help-center/{slug:str}",
        "pages.help_center:HelpArticlePage",
        "Help Center",
        description="An answer from the {brand} Help Center.",
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
        "/careers/{slug:str}",
        "pages.careers:CareerPostingPage",
        "Careers",
        description="A job at {brand}: read the role and apply.",
        head=career_posting_head,
    ),
    Screen(
        "/service-requests",
        "pages.service_requests:ServiceRequestsPage",
        "Service Requests",
        description="Need care you can't book right now? Post a service request and licensed providers "
        "near you can offer a visit.",
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
    # No frame: a header with an account menu would be clickable for the moment between the browser
    # taking the new address and the next screen drawing, and the click would land on the old menu.
    Screen("/auth-redirect", "pages.auth_redirect:AuthRedirectPage", "Signing you in", frame=OWN_FRAME),
    Screen("/join-team", "pages.team_join:TeamJoinPage", "Join your organization"),
)

PORTALS = (
    Screen(
        "/provider-enrollment",
        "pages.provider_enrollment:ProviderEnrollmentPage",
        "Provider Enrollment",
        rule=enrollment_rule,
        description=ENROLLMENT_DESCRIPTION,
    ),
    Screen(
        "/provider-enrollment/{rest:path}",
        "pages.provider_enrollment:ProviderEnrollmentPage",
        "Provider Enrollment",
        rule=enrollment_rule,
        description=ENROLLMENT_DESCRIPTION,
    ),
    _dashboard("/dashboard", "pages.dashboard.home:DashboardPage", "Dashboard"),
    # Built sections, ahead of the catch-all (first match wins).
    _dashboard(
        "/dashboard/appointments", "pages.dashboard.appointments:DashboardAppointmentsPage", "Appointments"
    ),
    _dashboard("/dashboard/services", "pages.dashboard.provider_services:ProviderServicesPage", "Services"),
    _dashboard("/dashboard/profile", "pages.dashboard.profile:ProfilePage", "Profile"),
    _dashboard("/dashboard/settings", "pages.dashboard.settings:SettingsPage", "Settings"),
    _dashboard("/dashboard/support", "pages.dashboard.support:SupportPage", "Support"),
    _dashboard(
        "/dashboard/notifications", "pages.dashboard.notifications:NotificationsPage", "Notifications"
    ),
    _dashboard(
        "/dashboard/notification-settings",
        "pages.dashboard.notification_settings:NotificationSettingsPage",
        "Notification Settings",
    ),
    _dashboard(
        "/dashboard/payout-requests", "pages.dashboard.payout_requests:PayoutRequestsPage", "Payout Requests"
    ),
    _dashboard("/dashboard/wallet", "pages.dashboard.wallet:WalletPage", "Wallet"),
    _dashboard("/dashboard/store", "pages.dashboard.store:StorePage", "Store"),
    _dashboard("/dashboard/marketplace", "pages.dashboard.marketplace:MarketplacePage", "Marketplace"),
    _dashboard("/dashboard/jobs", "pages.dashboard.jobs:JobsPage", "Jobs"),
    _dashboard("/dashboard/ad-analytics", "pages.dashboard.ad_analytics:AdAnalyticsPage", "Ad Analytics"),
    _dashboard(
        "/dashboard/provider-wallet", "pages.dashboard.provider_wallet:ProviderWalletPage", "Provider Wallet"
    ),
    Screen(
        "/dashboard/automation",
        "pages.dashboard.automation:AutomationPage",
        "Automation",
        rule=dashboard_admin_rule,
        frame=DASHBOARD_FRAME,
    ),
    _dashboard("/dashboard/team", "pages.dashboard.team:TeamPage", "Team"),
    _dashboard("/dashboard/contracts", "pages.dashboard.contracts:ContractsPage", "Contracts"),
    _dashboard("/dashboard/ai-features", "pages.dashboard.ai_features:AiFeaturesPage", "AI Features"),
    _dashboard("/dashboard/{rest:path}", "pages.dashboard.home:DashboardPage", "Dashboard"),
    Screen("/staff", "staff.portal:StaffPortal", "Staff Portal", rule=staff_rule, frame=OWN_FRAME),
    Screen("/staff/helpdesk", "helpdesk.console:HelpDeskPage", "Help Desk", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/help-desk", "helpdesk.console:HelpDeskPage", "Help Desk", rule=staff_rule, frame=OWN_FRAME
    ),
    Screen("/staff/team", "staff.team:TeamPage", "Staff Management", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/onboarding",
        "staff.onboarding:OnboardingPage",
        "Provider Onboarding",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/providers",
        "staff.providers:ProvidersPage",
        "Provider Management",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/providers/{provider_id:str}",
        "staff.providers:ProviderPage",
        "Provider",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen("/staff/audit", "staff.audit:AuditPage", "Audit Log", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/verifications",
        "staff.verifications:VerificationsPage",
        "Verification Requests",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/documents",
        "staff.documents:DocumentsPage",
        "Document Approvals",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/notifications",
        "staff.notifications:StaffNotificationsPage",
        "Notifications",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/appointments",
        "staff.appointments:AppointmentsPage",
        "Appointments",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen("/staff/settings", "staff.settings:SettingsPage", "Settings", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/documentation",
        "staff.documentation:DocumentationPage",
        "Documentation",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/documentation/{slug:str}",
        "staff.documentation:ArticlePage",
        "Documentation",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/help-center",
        "staff.help_center:HelpCenterAdminPage",
        "Help Center",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen("/staff/careers", "staff.careers:CareersAdminPage", "Careers", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/careers/{slug:str}",
        "staff.careers:ApplicationsPage",
        "Applications",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/moderation",
        "staff.moderation:ModerationPage",
        "Content Moderation",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/revenue", "staff.revenue:RevenuePage", "Revenue Reports", rule=staff_rule, frame=OWN_FRAME
    ),
    # Invoices need create_invoices: StaffSection("invoices") checks it, as every staff section's permission.
    Screen("/staff/invoices", "staff.invoices:InvoicesPage", "Invoices", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/invoices/{number:str}",
        "staff.invoices:InvoicePage",
        "Invoice",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen("/staff/products", "staff.products:ProductsPage", "Products", rule=staff_rule, frame=OWN_FRAME),
    Screen("/staff/leads", "staff.leads:LeadsPage", "Corporate Leads", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/contracts", "staff.contracts:ContractsPage", "Contracts", rule=staff_rule, frame=OWN_FRAME
    ),
    Screen(
        "/staff/organizations",
        "staff.organizations:OrganizationsPage",
        "Organizations",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/store-orders",
        "staff.store_orders:StoreOrdersPage",
        "Store Orders",
        rule=staff_rule,
        frame=OWN_FRAME,
    ),
    Screen(
        "/staff/analytics", "staff.analytics:AnalyticsPage", "Analytics", rule=staff_rule, frame=OWN_FRAME
    ),
    Screen("/staff/ads", "staff.ads:AdsPage", "Advertisement Management", rule=staff_rule, frame=OWN_FRAME),
    Screen(
        "/staff/{rest:path}", "staff.portal:StaffPortal", "Staff Portal", rule=staff_rule, frame=OWN_FRAME
    ),
    Screen("/admin", "admin.overview:AdminPage", "Admin", rule=admin_rule),
    Screen("/admin/users", "admin.users:AdminUsersPage", "Users", rule=admin_rule),
    Screen("/admin/users/{user_id:str}", "admin.account:AdminUserPage", "Account", rule=admin_rule),
    Screen("/admin/outbox", "admin.outbox:AdminOutboxPage", "Mail outbox", rule=admin_rule),
    Screen("/admin/not-found", "admin.not_found:AdminNotFoundPage", "Unknown paths", rule=admin_rule),
    Screen("/admin/health", "admin.health:AdminHealthPage", "System health", rule=admin_rule),
)

# Matched only by paths nothing else matches; rendered with HTTP status 404.
NOT_FOUND = Screen("/{rest:any}", "pages.not_found:NotFoundPage", "Page Not Found")

SCREENS: tuple[Screen, ...] = (*PUBLIC, *ACCOUNT, *PORTALS)

# Only mounted when MEDIVISIT_TEST_BROKEN_SCREEN is set (the browser tests of the error screen).
TEST_SCREENS = (Screen("/__test__/broken", "tests.screens.broken:BrokenPage", "Broken"),)


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
