"""How It Works: the path of a visit for patients (choose, book, prepare, visit, follow-up), what to expect on
the day, and short versions for providers and employers."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from components.kit import (
    button_link,
    button_row,
    card,
    checklist,
    feature_grid,
    notice,
    public_page,
    section,
    split,
    steps,
)

PATIENT_STEPS = (
    (
        "Choose a service",
        "Browse blood draws, IV therapy, in-home nursing and at-home diagnostics, and see what each "
        "includes.",
    ),
    ("Pick a provider and a time", "See verified providers who cover your address and their open times."),
    ("Book and pay", "Check the price, the 5% platform fee and your total before you confirm."),
    ("Get ready", "Follow the preparation steps for your service, such as fasting before some blood tests."),
    ("Your visit", "A licensed provider arrives at your home, office or chosen place and gives your care."),
    (
        "Results and follow-up",
        "Lab results go to the clinician who ordered them; rate your visit afterwards.",
    ),
)

ON_THE_DAY = (
    "Your provider's name and credentials are shown with your booking",
    "Ask to see their ID when they arrive",
    "Have your photo ID, lab order and medication list ready if your service needs them",
    "A clean, well-lit spot to sit, and a table for supplies",
    "You can ask questions or stop the visit at any time",
)

AUDIENCES = (
    (
        "briefcase",
        "For providers",
        "Apply, get verified, set your hours, services and service area, then accept visits from patients "
        "near you.",
        "/become-provider",
    ),
    (
        "building",
        "For employers",
        "Bring flu shots, screenings and blood draws on site for your team at a corporate venue.",
        "/corporate",
    ),
)


@component
def HowItWorksPage() -> VdomDict:
    return public_page(
        "How MediVisit works",
        section(
            html.div({"class_name": "steps-grid-wrap"}, steps(*PATIENT_STEPS)),
            title="For patients",
        ),
        section(
            split(
                checklist(*ON_THE_DAY),
                title="What to expect on the day",
                aside=card(
                    html.p(
                        "You can reschedule or cancel up to 24 hours before your visit from My Appointments. "
                        "Closer to the time, contact your provider or our support team."
                    ),
                    button_row(
                        button_link("My Appointments", "/appointments", variant="outline"),
                        button_link("Help Center", "/help-center", variant="outline"),
                    ),
                    title="Changing plans",
                ),
            ),
            muted=True,
        ),
        section(
            feature_grid(AUDIENCES, columns=2),
            title="Not a patient?",
        ),
        section(
            notice(
                "MediVisit is for planned, non-emergency care. If you think you may have a medical "
                "emergency, "
                "call 911.",
                tone="warning",
            ),
            html.div(
                {"class_name": "button-row spaced-row"},
                button_link("Browse services", "/services", icon_name="arrow-right"),
                button_link("Find a Provider", "/find-provider", variant="outline"),
            ),
        ),
        lead="Book licensed care in a few steps, and a verified provider comes to you. Here's what happens "
        "from "
        "choosing a service to getting your results.",
        eyebrow="How It Works",
    )
