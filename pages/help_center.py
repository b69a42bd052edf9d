"""Help Center: answers to common patient questions grouped by topic (booking, visits, payment, accounts,
providers) as native <details> disclosures, and 'Contact support': the support request form in the dashboard
(/dashboard/support?new=1), through sign-in for a signed-out visitor."""

from __future__ import annotations

from reactpy import component, html

from app.auth.web import with_redirect
from components.context import use_session
from components.ui import button_link, faq_group, faq_item, faq_layout, page_header, section

TOPICS = (
    ("booking", "Booking", "calendar"),
    ("visits", "Visits", "map-pin"),
    ("payment", "Payment", "cart"),
    ("accounts", "Accounts", "user"),
    ("providers", "Providers", "shield"),
)


def _booking() -> dict:
    return faq_group(
        "Booking",
        faq_item(
            "How do I book a visit?",
            html.p(
                "Choose a service, pick a verified provider who covers your address and a time that suits "
                "you, "
                "then confirm your booking. Start from ",
                html.a({"href": "/services"}, "our services"),
                " or ",
                html.a({"href": "/find-provider"}, "find a provider"),
                ".",
            ),
        ),
        faq_item(
            "Do I need a doctor's order?",
            html.p(
                "For most blood tests and lab work, yes: labs only run tests ordered by a licensed "
                "clinician. "
                "Some nursing care also needs orders. IV hydration and some screenings don't need an order, "
                "but "
                "you'll answer health questions before your visit.",
            ),
        ),
        faq_item(
            "Can I book for someone else?",
            html.p(
                "Yes. Enter the patient's name and the address where the visit will happen. The patient, or "
                "their parent or legal guardian, must be present and agree to care at the visit.",
            ),
        ),
        faq_item(
            "How do I reschedule or cancel?",
            html.p(
                "You can reschedule or cancel up to 24 hours before your visit from ",
                html.a({"href": "/appointments"}, "My Appointments"),
                ". Closer to the visit, contact your provider or our support team.",
            ),
        ),
        faq_item(
            "What if the service I need isn't listed?",
            html.p(
                "Send us a ",
                html.a({"href": "/service-requests"}, "service request"),
                " and we'll look for a provider near you who offers it.",
            ),
        ),
        id="booking",
        icon_name="calendar",
    )


def _visits() -> dict:
    return faq_group(
        "Visits",
        faq_item(
            "Where can visits happen?",
            html.p(
                "At home, at your office, at a provider's clinic space, by video for check-ins that need no "
                "hands-on care, or on site at a workplace or event for groups. Each service lists the places "
                "it's offered.",
            ),
        ),
        faq_item(
            "How do I prepare?",
            html.p(
                "Each service page lists what to do. In short: some blood tests need 8–12 hours of fasting; "
                "for IV therapy, eat a light meal and drink water beforehand; have your ID, lab order and "
                "medication list ready. ",
                html.a({"href": "/services"}, "See preparation by service"),
                ".",
            ),
        ),
        faq_item(
            "Who will come to my home?",
            html.p(
                "A licensed or certified provider whose credentials we have checked. You'll see their name "
                "and "
                "credentials when you book, and you can ask to see their ID when they arrive.",
            ),
        ),
        faq_item(
            "What if I'm running late or the provider is?",
            html.p(
                "Contact each other through your booking as early as you can. If a provider can't make your "
                "visit, we'll help you rebook.",
            ),
        ),
        faq_item(
            "Is MediVisit for emergencies?",
            html.p(
                html.strong("No."),
                " Visits are for planned, non-emergency care. If you think you may have a medical emergency, "
                "call 911 or go to the nearest emergency room.",
            ),
        ),
        id="visits",
        icon_name="map-pin",
    )


def _payment() -> dict:
    return faq_group(
        "Payment",
        faq_item(
            "When will I see the price?",
            html.p(
                "Before you book. The service price, a platform fee of 5% of your subtotal and your total "
                "are "
                "shown at checkout before you pay.",
            ),
        ),
        faq_item(
            "Does insurance cover visits?",
            html.p(
                "Visits are paid directly. You'll get an itemized receipt you can submit to your insurer, "
                "HSA "
                "or FSA; whether they reimburse you depends on your plan. Lab fees are usually billed "
                "separately by the lab, which may bill your insurance.",
            ),
        ),
        faq_item(
            "How do discounts and sales work?",
            html.p(
                "Current offers appear in the banner at the top of the site, like today's 30% off IV "
                "therapies. "
                "Discounts are applied to eligible services at checkout.",
            ),
        ),
        faq_item(
            "How do refunds work?",
            html.p(
                "If you cancel at least 24 hours before your visit, or a provider cancels, you are not "
                "charged "
                "for the visit. For anything else, ",
                html.a({"href": "/contact"}, "contact support"),
                " and we'll look into it.",
            ),
        ),
        id="payment",
        icon_name="cart",
    )


def _accounts() -> dict:
    return faq_group(
        "Accounts",
        faq_item(
            "Do I need an account?",
            html.p(
                "You can browse services and read the help center without one. You need an account to book, "
                "see your appointments or post in the forum. ",
                html.a({"href": "/register"}, "Create an account"),
                ".",
            ),
        ),
        faq_item(
            "I forgot my password.",
            html.p(
                html.a({"href": "/forgot-password"}, "Reset your password"),
                " with the email you signed up with.",
            ),
        ),
        faq_item(
            "How do I update my details?",
            html.p(
                "Sign in and open ",
                html.a({"href": "/dashboard/profile"}, "your profile"),
                " to change your name, phone number or photo.",
            ),
        ),
        faq_item(
            "How is my health information protected?",
            html.p(
                "We handle health information in line with HIPAA and share it only with the providers caring "
                "for you and the labs that process your tests. Read our ",
                html.a({"href": "/privacy-policy"}, "privacy policy"),
                ".",
            ),
        ),
        faq_item(
            "How do I close my account?",
            html.p(
                html.a({"href": "/contact"}, "Contact support"),
                " from the email address on your account and we'll close it. Some records must be kept for a "
                "period required by law.",
            ),
        ),
        id="accounts",
        icon_name="user",
    )


def _providers() -> dict:
    return faq_group(
        "Providers",
        faq_item(
            "How are providers checked?",
            html.p(
                "Before their first visit we verify each provider's identity, their license or certification "
                "with the issuing board, and their liability insurance, and run a background check. ",
                html.a({"href": "/providers"}, "More on verification"),
                ".",
            ),
        ),
        faq_item(
            "Can I choose my provider?",
            html.p(
                "Yes. You choose from the providers who offer your service in your area, and you can book "
                "the "
                "same provider again for later visits when they're available.",
            ),
        ),
        faq_item(
            "How do I give feedback about a provider?",
            html.p(
                "After each visit you can rate it and leave a comment. For a safety concern, ",
                html.a({"href": "/contact"}, "contact support"),
                " straight away.",
            ),
        ),
        faq_item(
            "I'm a provider. Where do I start?",
            html.p(
                "See ",
                html.a({"href": "/become-provider"}, "Join as Provider"),
                " and the ",
                html.a({"href": "/provider-faq"}, "Provider FAQ"),
                ".",
            ),
        ),
        id="providers",
        icon_name="shield",
    )


SUPPORT_REQUEST = "/dashboard/support?new=1"


def contact_support_href(signed_in: bool) -> str:
    """The support request form, through sign-in for a signed-out visitor."""
    return SUPPORT_REQUEST if signed_in else with_redirect("/login", SUPPORT_REQUEST)


@component
def HelpCenterPage() -> dict:
    signed_in = use_session().user is not None
    return html._(
        page_header(
            "How can we help?",
            "Answers to common questions about booking, visits, payment and your account.",
            eyebrow="Help Center",
        ),
        section(
            faq_layout("Help topics", TOPICS, _booking(), _visits(), _payment(), _accounts(), _providers()),
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Still need help?"),
                    html.p(
                        "Send a support request and follow our team's answers in your dashboard. For problems "
                        "with the website, use Report Bug."
                    ),
                ),
                button_link("Contact support", contact_support_href(signed_in), icon_name="arrow-right"),
            ),
        ),
    )
