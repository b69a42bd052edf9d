"""Join as Provider: why licensed providers join MediVisit, who can join, what the application needs and how
it works, with the way into provider enrollment."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from components.context import use_session
from components.kit import (
    bullets,
    button_link,
    card,
    chips,
    cta_band,
    feature_grid,
    public_page,
    section,
    split,
    steps,
)

ENROLLMENT = "/provider-enrollment"
# Signed out: create an account (or sign in from there), then straight back to the application.
APPLY_SIGNED_OUT = "/sign-up?redirect=%2Fprovider-enrollment"

BENEFITS = (
    ("clock", "Your hours", "Set your weekly availability and accept the visits that fit it."),
    ("map-pin", "Your area", "Choose where you travel and the kinds of places you visit."),
    (
        "stethoscope",
        "Your services",
        "Offer the services you're licensed and trained for, at prices you set.",
    ),
    ("shield", "Less admin", "Booking, reminders, payments and records are handled in one place."),
)

ROLES = (
    "Registered Nurse (RN)",
    "LVN / LPN",
    "Nurse Practitioner (NP)",
    "Doctor",
    "Phlebotomist / Technician",
    "Medical Assistant",
    "CNA",
    "Pharmacist",
    "Therapist",
    "Mental Health Therapist",
    "Counselor",
    "Nutritionist",
    "Caregiver",
    "Wellness Coach",
    "Specialist",
)

REQUIREMENTS = (
    "A current, unrestricted license or certification for each service you offer, in the state where you'll "
    "practice",
    "A government-issued photo ID",
    "Professional liability insurance",
    "Consent to a background check",
    "Your NPI number, if you have one",
    "Current CPR / BLS certification for clinical services",
)

STEPS = (
    ("Create your account", "Sign up with your email (or sign in), and your application opens."),
    (
        "Complete enrollment",
        "Add your profile, licenses, insurance and the services you offer, and set your service area.",
    ),
    ("Get verified", "We check your identity, credentials and insurance and run a background check."),
    ("Start seeing patients", "Set your availability; patients in your area can then book you."),
)


@component
def BecomeProviderPage() -> VdomDict:
    apply_href = ENROLLMENT if use_session().user is not None else APPLY_SIGNED_OUT
    return public_page(
        "Bring your care to patients' doors",
        html.div(
            {"class_name": "container header-actions-row"},
            button_link("Apply now", apply_href, icon_name="arrow-right"),
            button_link("Provider FAQ", "/provider-faq", variant="outline"),
        ),
        section(
            feature_grid(BENEFITS, columns=4),
            title="Why providers join",
        ),
        section(
            split(
                chips(*ROLES),
                title="Who can join",
                lead="Licensed and certified professionals in healthcare, wellness and care. If your role "
                "isn't listed, apply anyway and tell us what you do.",
                aside=card(
                    bullets(REQUIREMENTS, class_name="card-list"),
                    title="What you'll need",
                ),
            ),
            muted=True,
        ),
        section(
            steps(*STEPS),
            title="How it works",
        ),
        section(
            cta_band(
                "Ready when you are",
                "Applying is free, and there is no fee to keep a profile on MediVisit.",
                button_link("Apply now", apply_href, icon_name="arrow-right"),
            ),
        ),
        lead="Join MediVisit as a licensed provider: set your own hours and service area, and get paid for "
        "the "
        "visits you already know how to do.",
        eyebrow="Join as Provider",
    )
