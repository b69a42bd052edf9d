"""Provider FAQ: questions licensed providers ask before joining — eligibility, verification, scheduling,
payments and compliance — as native <details> disclosures, with links to apply or contact us."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from components.kit import (
    bullets,
    button_link,
    button_row,
    cta_band,
    faq_entry,
    faq_group,
    faq_item,
    faq_layout,
    public_page,
    section,
)

TOPICS = (
    ("joining", "Joining", "briefcase"),
    ("verification", "Verification", "shield"),
    ("scheduling", "Scheduling and visits", "calendar"),
    ("payments", "Payments", "cart"),
    ("compliance", "Safety and compliance", "heart"),
)


def _joining() -> VdomDict:
    return faq_group(
        "Joining",
        faq_entry(
            "Who can join?",
            "Licensed and certified professionals who can practice independently or under supervision in "
            "their state: for example registered nurses, LVNs/LPNs, nurse practitioners, physicians, "
            "phlebotomists, medical assistants, CNAs, pharmacists and therapists.",
        ),
        faq_entry(
            "Does it cost anything to join?",
            "No. There is no fee to apply or to keep a profile on MediVisit.",
        ),
        faq_entry(
            "Can I keep my current job?",
            "Yes. Many providers see MediVisit patients around another role. You choose when you're "
            "available and which visits you accept. Check your current employer's policy on outside "
            "work.",
        ),
        faq_entry(
            "How do I apply?",
            (
                "Create an account, then complete provider enrollment: your profile, licenses, services and "
                "service area. ",
                html.a({"href": "/become-provider"}, "See what you'll need"),
                ".",
            ),
        ),
        id="joining",
        icon_name="briefcase",
    )


def _verification() -> VdomDict:
    return faq_group(
        "Verification",
        faq_item(
            "What do you check?",
            bullets(
                (
                    "Your identity, with a government-issued photo ID",
                    "Each license or certification, with the board or body that issued it",
                    "Professional liability insurance",
                    "A background check, with your consent",
                    "Your National Provider Identifier (NPI), if you have one",
                )
            ),
        ),
        faq_entry(
            "How long does verification take?",
            "It depends mostly on how quickly licensing boards and the background-check service respond. "
            "You can follow the status of each document in your enrollment dashboard.",
        ),
        faq_entry(
            "What happens when my license renews?",
            "Upload the renewed license before the old one expires. We re-check it, and you can't accept "
            "visits for a service while the license it needs is expired.",
        ),
        id="verification",
        icon_name="shield",
    )


def _scheduling() -> VdomDict:
    return faq_group(
        "Scheduling and visits",
        faq_entry(
            "Do I set my own hours?",
            "Yes. You set your weekly availability and can block out days whenever you need to.",
        ),
        faq_entry(
            "How do I choose where I work?",
            "You set a service area and choose the kinds of places you'll visit: homes, offices, your "
            "own "
            "clinic space, virtual visits, or corporate venues for group events.",
        ),
        faq_entry(
            "Who supplies equipment and supplies?",
            "You bring what your service needs, such as draw supplies, IV kits or dressings, unless the "
            "patient's clinician or lab has provided them. List what's included on each service you "
            "offer.",
        ),
        faq_entry(
            "What if I need to cancel a visit?",
            "Cancel as early as you can from your dashboard so the patient can rebook. Frequent late "
            "cancellations can limit the visits you're offered.",
        ),
        id="scheduling",
        icon_name="calendar",
    )


def _payments() -> VdomDict:
    return faq_group(
        "Payments",
        faq_entry(
            "Who sets my prices?",
            "You set the price of each service you offer. Patients see the price before they book, plus "
            "a "
            "platform fee of 5% of their subtotal that is added at checkout.",
        ),
        faq_entry(
            "How do I get paid?",
            "Payments for completed visits go to your provider wallet. You request payouts to your bank "
            "account from the dashboard and can see every booking, fee and payout there.",
        ),
        faq_entry(
            "Am I an employee?",
            "No. Providers use MediVisit as independent professionals and are responsible for their own "
            "taxes. Talk to a tax adviser about your situation.",
        ),
        id="payments",
        icon_name="cart",
    )


def _compliance() -> VdomDict:
    return faq_group(
        "Safety and compliance",
        faq_entry(
            "How is patient information handled?",
            "Patient information on MediVisit is protected in line with HIPAA. Use it only to provide "
            "care, "
            "keep it in the platform, and never share it outside the care team.",
        ),
        faq_entry(
            "What if I feel unsafe at a visit?",
            (
                "Leave, and call 911 if you are in danger. Then tell us through ",
                html.a({"href": "/contact"}, "support"),
                " so we can follow up. You never have to start or continue a visit you don't feel safe in.",
            ),
        ),
        faq_entry(
            "What if a patient needs emergency care during a visit?",
            "Follow your training and call 911. Stay with the patient if it's safe to, and report the "
            "incident to us afterwards.",
        ),
        id="compliance",
        icon_name="heart",
    )


@component
def ProviderFaqPage() -> VdomDict:
    return public_page(
        "Provider FAQ",
        section(
            faq_layout(
                "Provider FAQ topics",
                TOPICS,
                _joining(),
                _verification(),
                _scheduling(),
                _payments(),
                _compliance(),
            ),
        ),
        section(
            cta_band(
                "Ready to apply?",
                "See what you'll need and start your application, or ask us a question first.",
                button_row(
                    button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
                    button_link("Contact us", "/contact", variant="outline-light"),
                ),
            ),
        ),
        lead="What licensed providers ask us before joining: eligibility, verification, scheduling and "
        "payment.",
        eyebrow="For providers",
    )
