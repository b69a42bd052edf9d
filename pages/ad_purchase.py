"""Purchase Ad Space: the ad placements MediVisit offers (SPEC §3 ad placements, in plain words), the standards
every ad must meet, and how to enquire by email."""

from __future__ import annotations

from reactpy import component, html

from app.settings import get_settings
from components.icons import icon
from components.ui import card, checklist, grid, mailto_href, page_header, section

# Grouped by where they appear; the placement codes are HOME, HOME_TOP, HOMEPAGE_FEATURED, SEARCH_RESULTS,
# CATEGORY_PAGE, SERVICES, SERVICES_TOP, SERVICES_MIDDLE, SERVICES_BOTTOM, SERVICE_DETAIL_PAGE,
# PROVIDER_PROFILE, CHECKOUT_PAGE, BOOKING_CONFIRMATION and MOBILE_APP_BANNER.
PLACEMENTS = (
    (
        "home",
        "Home page",
        (
            "A banner at the top of the home page",
            "A featured spot on the home page",
            "Standard home page ads",
        ),
    ),
    (
        "heart",
        "Services pages",
        (
            "Top, middle or bottom of the Services page",
            "General Services page ads",
            "Individual service pages, such as IV Therapy",
            "Service category pages",
        ),
    ),
    ("search", "Search results", ("Sponsored results in provider search, clearly labelled",)),
    ("user", "Provider profiles", ("Ads shown on provider profile pages",)),
    ("calendar", "Booking", ("The checkout page", "The booking confirmation page")),
    ("monitor", "Mobile", ("A banner shown to visitors on phones",)),
)

STANDARDS = (
    "Every ad is reviewed before it runs",
    "Ads are labelled as sponsored",
    "Health claims must be accurate and backed by evidence",
    "Services offered must be legal and properly licensed",
    "Patient health information is never used to target ads",
)

ENQUIRY = (
    "Your business and what you'd like to promote",
    "The placements you're interested in",
    "Preferred dates and the areas you want to reach",
)


@component
def AdPurchasePage() -> dict:
    support = get_settings().support_email
    return html._(
        page_header(
            "Advertise on MediVisit",
            "Reach people arranging care at home, and the providers who deliver it, with clearly labelled "
            "placements across the site.",
            eyebrow="Purchase Ad Space",
        ),
        section(
            grid(
                *(
                    card(
                        html.ul(
                            {"class_name": "card-list"}, *(html.li({"key": item}, item) for item in items)
                        ),
                        icon_name=name,
                        title=title,
                    )
                    for name, title, items in PLACEMENTS
                ),
                columns=3,
            ),
            title="Where ads appear",
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    html.h2({"class_name": "section-title"}, "Our ad standards"),
                    html.p(
                        {"class_name": "text-muted"},
                        "People come to MediVisit to make decisions about their health. Ads have to respect "
                        "that.",
                    ),
                    checklist(*STANDARDS),
                    html.p(
                        {"class_name": "hint"},
                        "We may decline any ad, and ads must follow applicable advertising law, including "
                        "FTC "
                        "rules on health claims.",
                    ),
                ),
                html.div(
                    {"class_name": "card"},
                    html.h3({"class_name": "card-title"}, "Enquire about ad space"),
                    html.p("Email us with:"),
                    html.ul({"class_name": "card-list"}, *(html.li({"key": item}, item) for item in ENQUIRY)),
                    html.p(
                        {"class_name": "spaced-row"},
                        "We'll reply with availability, pricing and the creative formats for each placement.",
                    ),
                    html.div(
                        {"class_name": "button-row"},
                        html.a(
                            {
                                "class_name": "btn btn-primary",
                                "href": mailto_href(support, "Ad space enquiry"),
                            },
                            icon("mail", size=18),
                            "Email an enquiry",
                        ),
                    ),
                ),
            ),
            muted=True,
        ),
    )
