"""Browse Providers: how every MediVisit provider is verified and which kinds of providers patients will find,
while the provider directory opens area by area."""

from __future__ import annotations

from reactpy import component, html

from components.ui import button_link, card, chips, grid, notice, page_header, section, steps

VERIFICATION = (
    (
        "Identity",
        "Each provider confirms who they are with a government-issued photo ID before their profile goes "
        "live.",
    ),
    (
        "License or certification",
        "We check every license or certification with the board or body that issued it, for each service "
        "the provider offers.",
    ),
    ("Background check", "Providers consent to a background check before their first visit."),
    ("Insurance", "Providers carry professional liability insurance for the care they give."),
    (
        "Ongoing checks",
        "Licenses are re-checked when they renew, and patient feedback after each visit is reviewed.",
    ),
)

PROVIDER_TYPES = (
    "Registered Nurses",
    "LVNs / LPNs",
    "Nurse Practitioners",
    "Doctors",
    "Phlebotomists and Technicians",
    "Medical Assistants",
    "CNAs and Caregivers",
    "Pharmacists",
    "Therapists",
    "Nutritionists",
    "Wellness Coaches",
)

PROFILE = (
    ("shield", "Credentials", "License type and the state that issued it, shown on every profile."),
    (
        "stethoscope",
        "Services",
        "What the provider offers and where: home, office, clinic, virtual or on site.",
    ),
    ("map-pin", "Service area", "The neighborhoods and ZIP codes the provider travels to."),
    ("calendar", "Availability", "Open times you can book, kept up to date by the provider."),
)


@component
def ProvidersPage() -> dict:
    return html._(
        page_header(
            "Licensed providers who come to you",
            "Nurses, phlebotomists, nurse practitioners and other licensed professionals, each verified "
            "before "
            "their first visit.",
            eyebrow="Browse Providers",
        ),
        html.div(
            {"class_name": "container notice-strip"},
            notice(
                "Our provider directory is opening in your area soon. In the meantime, explore our services "
                "to "
                "see what each visit includes and how to prepare."
            ),
            html.div(
                {"class_name": "button-row spaced-row"},
                button_link("Browse services", "/services", icon_name="arrow-right"),
                button_link("How it works", "/how-it-works", variant="outline"),
            ),
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    html.h2({"class_name": "section-title"}, "How we verify every provider"),
                    html.p(
                        {"class_name": "text-muted"},
                        "No one sees patients through MediVisit until these checks are complete.",
                    ),
                    steps(*VERIFICATION),
                ),
                html.div(
                    {"class_name": "card"},
                    html.h3({"class_name": "card-title"}, "Who you'll find"),
                    html.p("Providers are licensed or certified for each service they offer."),
                    html.div({"class_name": "chips-spaced"}, chips(*PROVIDER_TYPES)),
                ),
            ),
            muted=True,
        ),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in PROFILE), columns=4
            ),
            title="What each profile shows",
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Are you a licensed provider?"),
                    html.p("Set your own hours and service area, and see patients who need care at home."),
                ),
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
            ),
        ),
    )
