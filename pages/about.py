"""About us: why MediVisit exists, what it believes, and how the marketplace serves patients, providers and
employers."""

from __future__ import annotations

from reactpy import component, html
from reactpy.types import VdomDict

from components.kit import (
    button_link,
    button_row,
    card,
    cta_band,
    feature_grid,
    link_list,
    public_page,
    section,
    split,
)

BELIEFS = (
    (
        "shield",
        "Safety comes first",
        "Every provider's identity, license and insurance is checked before their first visit.",
    ),
    ("check", "Clear prices", "You see what a visit costs, fees included, before you book."),
    ("clock", "Your time matters", "Care should fit around your day, not take it over."),
    (
        "heart",
        "Privacy by default",
        "Health information is handled in line with HIPAA and shared only for your care.",
    ),
)

AUDIENCES = (
    (
        "user",
        "Patients and families",
        "Book blood draws, IV therapy, nursing visits and at-home tests for yourself or someone you care "
        "for.",
        "/services",
    ),
    (
        "stethoscope",
        "Licensed providers",
        "See patients on your own schedule, in the area you choose, with booking and payment handled for "
        "you.",
        "/become-provider",
    ),
    (
        "building",
        "Employers",
        "Bring flu shots, screenings and blood draws to your workplace for your whole team.",
        "/corporate",
    ),
)


@component
def AboutPage() -> VdomDict:
    return public_page(
        "Care that comes to you",
        section(
            split(
                html.p(
                    "A routine blood draw or a dressing change shouldn't cost half a day: the drive, the "
                    "parking, the waiting room. For people recovering from surgery, living with a "
                    "chronic "
                    "condition, caring for a family member or simply working long hours, getting to a "
                    "clinic can be the hardest part of care."
                ),
                html.p(
                    "At the same time, many skilled nurses, phlebotomists and other licensed "
                    "professionals "
                    "want more control over when and where they work. MediVisit brings the two together: "
                    "patients book the care they need, and verified providers come to them."
                ),
                title="Why we started",
                main_class="prose",
                aside=card(
                    link_list(
                        (
                            ("Mobile phlebotomy", "/services#phlebotomy"),
                            ("IV therapy", "/services#iv-therapy"),
                            ("In-home nursing", "/services#nursing"),
                            ("At-home diagnostics", "/services#diagnostics"),
                            ("On-site care for employers", "/corporate"),
                        ),
                        class_name="card-list",
                    ),
                    title="What we offer",
                ),
            ),
        ),
        section(
            feature_grid(BELIEFS, columns=4),
            title="What we believe",
            muted=True,
        ),
        section(
            feature_grid(AUDIENCES, columns=3),
            title="Who MediVisit is for",
        ),
        section(
            cta_band(
                "Want to know more?",
                "Read how a visit works, or get in touch with our team.",
                button_row(
                    button_link("How it works", "/how-it-works", icon_name="arrow-right"),
                    button_link("Contact us", "/contact", variant="outline-light"),
                ),
            ),
        ),
        lead="MediVisit connects patients with licensed providers who bring everyday healthcare to their "
        "home or "
        "office.",
        eyebrow="About us",
    )
