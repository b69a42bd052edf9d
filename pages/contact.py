"""Contact: how to reach MediVisit support by email, how to report a problem with the website (the same
bug-report dialog as the footer's Report Bug button), and where other kinds of questions go."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from app.settings import get_settings
from components.context import use_session
from components.icons import icon
from components.kit import Button, card, grid, mailto_href, notice, public_page, section, titled_card

ELSEWHERE = (
    ("help", "Quick answers", "Booking, visits, payment and accounts.", "/help-center", "Help Center"),
    (
        "briefcase",
        "Providers",
        "Joining, verification, scheduling and payouts.",
        "/provider-faq",
        "Provider FAQ",
    ),
    (
        "building",
        "Employers",
        "On-site flu shots and screenings for your team.",
        "/corporate",
        "Corporate Solutions",
    ),
    (
        "search",
        "A service we don't list",
        "Ask us to find a provider for it.",
        "/service-requests",
        "Service Requests",
    ),
    ("sparkles", "Advertising", "Ad placements on MediVisit.", "/ad-purchase", "Purchase Ad Space"),
    ("users", "Jobs at MediVisit", "How to apply to join our team.", "/careers", "Careers"),
)


@component
def ContactPage() -> VdomDict:
    session = use_session()
    support = get_settings().support_email
    return public_page(
        "Contact us",
        section(
            notice(
                "For a medical emergency, call 911. Support can't give medical advice; for questions about "
                "your health, talk to your clinician or provider.",
                tone="warning",
            ),
            html.div(
                {"class_name": "grid grid-2 spaced-row"},
                titled_card(
                    "Email support",
                    html.p(
                        "For help with bookings, visits, payments or your account. Include the email "
                        "address on "
                        "your account and, if it's about a visit, its date. Please don't send test results "
                        "or "
                        "other medical details by email."
                    ),
                    html.a(
                        {"class_name": "btn btn-primary", "href": mailto_href(support, "Support request")},
                        icon("mail", size=18),
                        "Email support",
                    ),
                    html.p(
                        {"class_name": "hint contact-address"}, html.a({"href": f"mailto:{support}"}, support)
                    ),
                    icon_name="mail",
                    class_name="contact-card",
                ),
                titled_card(
                    "Report a problem with the website",
                    html.p(
                        "Something broken, confusing or not loading? Tell us what happened. You can also use "
                        "the Report Bug button at the bottom of every page."
                    ),
                    Button("Report a bug", variant="outline", icon="bug", on_click=session.bug_report.open),
                    icon_name="bug",
                    class_name="contact-card",
                ),
            ),
        ),
        section(
            grid(
                *(
                    card(
                        html.p(text),
                        html.span({"class_name": "card-more"}, label),
                        icon_name=name,
                        title=title,
                        href=href,
                    )
                    for name, title, text, href, label in ELSEWHERE
                ),
                columns=3,
            ),
            title="Other ways we can help",
            muted=True,
        ),
        lead="Questions about a booking, a visit or your account? Our support team is here to help.",
        eyebrow="Contact",
    )
