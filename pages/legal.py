"""Legal: the Privacy Policy (/privacy-policy) and Terms of Service (/terms-of-service) of the MediVisit
marketplace, as plain-language sections with a table of contents."""

from __future__ import annotations

from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from app.settings import get_settings
from components.kit import band, bullets, link_list, notice

LAST_UPDATED = "Nov 21, 2026"
COMPANY = "MediVisit Medical Services, LLC"


def _legal_page(title: str, intro: str, sections: tuple[tuple[str, str, tuple[Any, ...]], ...]) -> VdomDict:
    return html._(
        html.section(
            {"class_name": "page-header"},
            html.div(
                {"class_name": "container"},
                html.p({"class_name": "eyebrow"}, "Legal"),
                html.h1(title),
                html.p({"class_name": "legal-updated"}, f"Last updated: {LAST_UPDATED}"),
                html.p({"class_name": "lead"}, intro),
            ),
        ),
        band(
            html.nav(
                {"class_name": "legal-toc", "aria-label": "On this page"},
                html.p({"class_name": "legal-toc-title"}, "On this page"),
                link_list(((heading, f"#{anchor}") for anchor, heading, _body in sections), numbered=True),
            ),
            html.article(
                {"class_name": "prose legal-body"},
                *(
                    html.section(
                        {"key": anchor, "id": anchor, "class_name": "legal-section"},
                        html.h2(f"{number}. {heading}"),
                        *(html.p(part) if isinstance(part, str) else part for part in body),
                    )
                    for number, (anchor, heading, body) in enumerate(sections, start=1)
                ),
                html.p(
                    {"class_name": "hint legal-links"},
                    "See also: ",
                    html.a({"href": "/privacy-policy"}, "Privacy Policy"),
                    " · ",
                    html.a({"href": "/terms-of-service"}, "Terms of Service"),
                    " · ",
                    html.a({"href": "/help-center"}, "Help Center"),
                ),
            ),
            container_class="legal-layout",
        ),
    )


def _contact_paragraph() -> VdomDict:
    support = get_settings().support_email
    return html.p(
        "Questions about this document, or requests about your information, can be sent to ",
        html.a({"href": f"mailto:{support}"}, support),
        ". Please don't include detailed medical information in your email.",
    )


def _privacy_sections() -> tuple[tuple[str, str, tuple[Any, ...]], ...]:
    return (
        (
            "who-we-are",
            "Who we are",
            (
                f"{COMPANY} (\u201cMediVisit\u201d, \u201cwe\u201d) runs an online marketplace that connects "
                "patients with independent, licensed healthcare providers who visit them at home, at work or "
                "at another place they choose. This policy explains what information we collect, how we use "
                "and share it, and the choices you have.",
            ),
        ),
        (
            "information-we-collect",
            "Information we collect",
            (
                "We collect information you give us, information created when you use MediVisit, and a "
                "limited amount of technical information:",
                bullets(
                    (
                        "Account details, such as your name, email address, phone number and password.",
                        "Booking details, such as the service, the address and time of your visit, and who the "
                        "visit is for.",
                        "Health information you provide for your care, such as answers to health screening "
                        "questions, lab orders and notes from your provider.",
                        "Payment details, which are handled by our payment processor. We don't store full card "
                        "numbers.",
                        "Messages you send to us or to providers, and reports you submit, such as bug reports.",
                        "Device and usage information, such as your browser type, pages visited and approximate "
                        "location from your IP address.",
                    )
                ),
                "If you are a provider, we also collect the information needed to verify you, such as your "
                "license details, identity documents, insurance and background-check results.",
            ),
        ),
        (
            "how-we-use",
            "How we use information",
            (
                bullets(
                    (
                        "To provide MediVisit: create your account, schedule visits, and connect you with "
                        "providers.",
                        "To verify providers' identities, licenses and insurance.",
                        "To process payments, refunds and provider payouts.",
                        "To answer support requests and send messages about your bookings.",
                        "To keep MediVisit safe, prevent fraud and enforce our terms.",
                        "To understand how MediVisit is used and improve it.",
                        "To meet legal, regulatory and record-keeping obligations.",
                    )
                ),
                html.strong(
                    "We do not sell your personal information, and we never use health information to "
                    "target advertising."
                ),
            ),
        ),
        (
            "hipaa",
            "Health information and HIPAA",
            (
                "Health information connected to your care is protected health information under the Health "
                "Insurance Portability and Accountability Act (HIPAA) when it is created or received by a "
                "covered healthcare provider or on its behalf. Where HIPAA applies, we and the providers on "
                "MediVisit handle that information as HIPAA requires, and you have the rights HIPAA gives "
                "you, "
                "including to see a copy of your records and to ask for corrections.",
                "Providers may give you their own notice of privacy practices. Where it applies, that notice "
                "also governs how they use your health information.",
            ),
        ),
        (
            "sharing",
            "How we share information",
            (
                bullets(
                    (
                        "With the provider you book, who receives what they need to give your care.",
                        "With laboratories that process samples collected at your visit.",
                        "With companies that help us run MediVisit, such as hosting, payment and email services, "
                        "under contracts that limit their use of it.",
                        "With an employer that arranges an on-site event, only as participation numbers, never "
                        "individual results.",
                        "When the law requires it, or to protect someone's safety.",
                        "As part of a merger, sale or similar transaction, subject to this policy.",
                    )
                ),
            ),
        ),
        (
            "cookies",
            "Cookies and browser storage",
            (
                "We use cookies and similar browser storage that MediVisit needs to work, such as keeping "
                "you "
                "signed in and remembering your light or dark theme and whether you closed a banner. You can "
                "clear them in your browser settings, but some features may then stop working.",
            ),
        ),
        (
            "retention-security",
            "Retention and security",
            (
                "We keep information for as long as your account is open and afterwards for as long as the "
                "law "
                "or medical record-keeping rules require. We use administrative, technical and physical "
                "safeguards to protect information. No system is completely secure, so we can't guarantee "
                "absolute security.",
            ),
        ),
        (
            "your-choices",
            "Your choices and rights",
            (
                "You can view and update your account details in your profile. You can ask us to give you a "
                "copy of your information, correct it or delete it, subject to legal exceptions. Depending "
                "on "
                "the state you live in, you may have additional privacy rights; we will honor them as the "
                "law "
                "requires. We won't treat you differently for exercising your rights.",
            ),
        ),
        (
            "children",
            "Children",
            (
                "MediVisit accounts are for adults. Care for a minor must be booked by a parent or legal "
                "guardian, who must be present at the visit. We don't knowingly collect information directly "
                "from children under 13.",
            ),
        ),
        (
            "changes",
            "Changes to this policy",
            (
                "We may update this policy. We'll change the date at the top, and if the changes are "
                "significant we'll tell you by email or on the site before they take effect.",
            ),
        ),
        ("contact", "Contact us", (_contact_paragraph(),)),
    )


def _terms_sections() -> tuple[tuple[str, str, tuple[Any, ...]], ...]:
    return (
        (
            "agreement",
            "Agreement to these terms",
            (
                f"These terms are an agreement between you and {COMPANY} (\u201cMediVisit\u201d, \u201cwe\u201d). "
                "By using the MediVisit website or services, you agree to them. If you don't agree, please "
                "don't use MediVisit.",
            ),
        ),
        (
            "marketplace",
            "What MediVisit is",
            (
                "MediVisit is a marketplace that connects patients with independent, licensed healthcare "
                "providers. Providers are responsible for the care they give and for their professional "
                "judgment. We verify providers' credentials, but we don't practice medicine or direct how "
                "providers deliver care.",
                "Nothing on the MediVisit website, including the help center, the service guide and the "
                "forum, "
                "is medical advice. Talk to a qualified clinician about your health.",
            ),
        ),
        (
            "emergencies",
            "Not for emergencies",
            (
                notice(
                    "MediVisit is for planned, non-emergency care. If you think you may have a medical "
                    "emergency, call 911 or go to the nearest emergency room.",
                    tone="warning",
                ),
            ),
        ),
        (
            "accounts",
            "Eligibility and accounts",
            (
                "You must be at least 18 to create an account. Keep your account information accurate and "
                "your "
                "password private; you are responsible for activity on your account. A parent or legal "
                "guardian may book care for a minor and must be present at the visit.",
            ),
        ),
        (
            "bookings",
            "Bookings, prices and payment",
            (
                "Prices are shown before you book. At checkout we add a platform fee of 5% of your subtotal "
                "and "
                "show your total before you pay. By confirming a booking, you authorize us to charge your "
                "payment method for that total. Lab fees are usually billed separately by the lab.",
                "Promotions, such as flash sales, apply only to the services and time period stated and "
                "can't "
                "be combined unless we say so.",
            ),
        ),
        (
            "cancellations",
            "Cancellations and rescheduling",
            (
                "You can reschedule or cancel a visit up to 24 hours before it starts. Later changes, and "
                "visits "
                "missed without notice, may be charged as described when you book. A provider may decline or "
                "stop a visit if it isn't safe or appropriate to continue, and if a provider cancels, you "
                "won't "
                "be charged for that visit.",
            ),
        ),
        (
            "providers",
            "Provider responsibilities",
            (
                "Providers must hold and maintain every license, certification and insurance their services "
                "require, follow the laws and professional standards that apply to them, and keep patient "
                "information confidential. Providers use MediVisit as independent professionals, not as our "
                "employees.",
            ),
        ),
        (
            "acceptable-use",
            "Acceptable use",
            (
                "Don't use MediVisit to break the law, give false information, harass anyone, post other "
                "people's private information, interfere with the site or collect data from it by automated "
                "means. Posts in the forum must follow the community guidelines.",
            ),
        ),
        (
            "content",
            "Content you post",
            (
                "You keep ownership of reviews, posts and other content you submit. You give us permission "
                "to "
                "display it on MediVisit and to remove it if it breaks these terms or our guidelines.",
            ),
        ),
        (
            "disclaimers",
            "Disclaimers and limitation of liability",
            (
                "To the extent the law allows, MediVisit is provided \u201cas is\u201d, without warranties "
                "of any "
                "kind, and we are not liable for indirect or consequential losses arising from your use of "
                "it. "
                "Nothing in these terms limits rights you have under law that can't be limited by contract.",
            ),
        ),
        (
            "changes",
            "Changes and ending these terms",
            (
                "We may update these terms; we'll change the date at the top and tell you about significant "
                "changes before they take effect. You can stop using MediVisit and close your account at any "
                "time. We may suspend or close accounts that break these terms.",
            ),
        ),
        ("contact", "Contact us", (_contact_paragraph(),)),
    )


@component
def PrivacyPolicyPage() -> VdomDict:
    return _legal_page(
        "Privacy Policy",
        "How MediVisit collects, uses and protects your information, including health information.",
        _privacy_sections(),
    )


@component
def TermsOfServicePage() -> VdomDict:
    return _legal_page(
        "Terms of Service",
        "The rules for using MediVisit, whether you're booking care or providing it.",
        _terms_sections(),
    )
