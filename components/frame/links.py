"""The navigation data of SPEC §2: menus, mobile items, drawer items, bottom bar and footer columns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NavLink:
    label: str
    href: str
    description: str = ""
    icon: str = ""


SERVICES_MENU = (
    NavLink("All Healthcare Services", "/services", "Everything we bring to your door", "heart"),
    NavLink("Mobile Phlebotomy", "/services#phlebotomy", "Blood draws and lab collection at home", "droplet"),
    NavLink("IV Therapy", "/services#iv-therapy", "Hydration and vitamin infusions", "syringe"),
    NavLink("In-Home Nursing", "/services#nursing", "Skilled nursing visits and care", "stethoscope"),
    NavLink(
        "At-Home Diagnostics",
        "/services#diagnostics",
        "Tests and screenings without the waiting room",
        "flask",
    ),
)

PROVIDERS_MENU = (
    NavLink("Browse Providers", "/providers", "Licensed, verified professionals", "users"),
    NavLink("Find a Provider", "/find-provider", "Search by service, ZIP code and date", "search"),
    NavLink("Featured Providers", "/provider-of-month", "Providers patients rate highest", "star"),
    NavLink("Join as Provider", "/become-provider", "Grow your practice with MediVisit", "briefcase"),
)

PLAIN_LINKS = (
    NavLink("How It Works", "/how-it-works"),
    NavLink("Corporate", "/corporate"),
    NavLink("Help Center", "/help-center"),
    NavLink("AI Assistant", "/ai-assistant"),
)

MOBILE_MENU = (
    NavLink("Services", "/services", icon="heart"),
    NavLink("Find Providers", "/find-provider", icon="users"),
    NavLink("How It Works", "/how-it-works", icon="help"),
    NavLink("Corporate", "/corporate", icon="building"),
    NavLink("Forum", "/forum", icon="message"),
    NavLink("AI Assistant", "/ai-assistant", icon="sparkles"),
    NavLink("Featured Providers", "/provider-of-month", icon="star"),
    NavLink("Help Center", "/help-center", icon="help"),
    NavLink("Search", "/find-provider", icon="search"),
)
MOBILE_SIGNED_OUT = (NavLink("Log in", "/login"), NavLink("Sign Up", "/sign-up"))
MOBILE_SIGNED_IN = (NavLink("Dashboard", "/dashboard"), NavLink("My Appointments", "/appointments"))
BECOME_PROVIDER = NavLink("Become a Provider", "/become-provider")

DRAWER = (
    NavLink("Home", "/", icon="home"),
    NavLink("About", "/about", icon="heart"),
    NavLink("Services", "/services", icon="stethoscope"),
    NavLink("Providers", "/providers", icon="users"),
    NavLink("Contact", "/contact", icon="mail"),
)
DRAWER_SIGNED_IN = (NavLink("Dashboard", "/dashboard", icon="dashboard"),)
DRAWER_SIGNED_OUT = (NavLink("Sign In", "/login", icon="log-in"), NavLink("Sign Up", "/sign-up", icon="user"))

BOTTOM_BAR = (
    NavLink("Home", "/", icon="home"),
    NavLink("Find", "/services", icon="search"),
    NavLink("Featured", "/providers", icon="star"),
    NavLink("Bookings", "/appointments", icon="calendar"),
)

FOOTER_COLUMNS = (
    (
        "Services",
        (
            NavLink("All Services", "/services"),
            NavLink("Find Providers", "/services"),
            NavLink("Service Requests", "/service-requests"),
            NavLink("Corporate Solutions", "/corporate"),
            NavLink("How It Works", "/how-it-works"),
        ),
    ),
    (
        "Company",
        (
            NavLink("About Us", "/about"),
            NavLink("Careers", "/careers"),
            NavLink("Contact", "/contact"),
            NavLink("Advertise With Us", "/ad-purchase"),
        ),
    ),
    (
        "Support",
        (
            NavLink("Help Center", "/help-center"),
            NavLink("Provider FAQ", "/provider-faq"),
            NavLink("Become a Provider", "/become-provider"),
            NavLink("Privacy Policy", "/privacy-policy"),
            NavLink("Terms of Service", "/terms-of-service"),
        ),
    ),
)

SOCIAL = (
    NavLink("Facebook", "https://www.facebook.com/medivisit", icon="facebook"),
    NavLink("Instagram", "https://www.instagram.com/medivisit", icon="instagram"),
    NavLink("LinkedIn", "https://www.linkedin.com/company/medivisit", icon="linkedin"),
    NavLink("X", "https://x.com/medivisit", icon="x-social"),
)


def is_active(entry_href: str, pathname: str) -> bool:
    """Bottom-bar rule: the entry is active when the path equals or starts with its path ('/' only exactly)."""
    if entry_href == "/":
        return pathname == "/"
    return pathname == entry_href or pathname.startswith(entry_href.rstrip("/") + "/")
