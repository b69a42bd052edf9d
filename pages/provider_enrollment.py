"""Provider enrollment (/provider-enrollment/*): the steps a provider will go through, as information.

Enrollment itself opens together with provider accounts in a later release; this page says what it will
ask for, so a provider can have it ready, and points to Join as Provider and the Provider FAQ.
"""

from __future__ import annotations

from reactpy import component, html

from components.icons import icon
from components.ui import button_link, notice, page_header, section

ENROLLMENT_STEPS = (
    (
        "shield",
        "Professional license",
        "Your active license or certification and its number, so we can verify it with the issuing board "
        "before your first visit.",
    ),
    (
        "check",
        "Background check",
        "Your consent to a background check. Enrollment completes once it has cleared.",
    ),
    (
        "map-pin",
        "Service area",
        "The ZIP codes you are willing to travel to for home and office visits.",
    ),
    (
        "calendar",
        "Availability",
        "The days and hours you can take visits. You set your own hours and can change them at any time.",
    ),
    (
        "briefcase",
        "Payout details",
        "The bank account your earnings for completed visits are paid into.",
    ),
)


@component
def ProviderEnrollmentPage() -> dict:
    return html._(
        page_header(
            "Provider Enrollment",
            "Five steps stand between a licensed provider and their first home visit. Here is what each one "
            "asks for, so you can have it ready.",
            eyebrow="For providers",
        ),
        section(
            notice("Online enrollment opens together with provider accounts in an upcoming release."),
            html.ol(
                {"class_name": "enroll-steps"},
                *(
                    html.li(
                        {"class_name": "enroll-step", "key": title},
                        html.span({"class_name": "enroll-step-number", "aria-hidden": "true"}, str(number)),
                        html.div(
                            {"class_name": "enroll-step-body"},
                            html.h2({"class_name": "enroll-step-title"}, icon(icon_name, size=20), title),
                            html.p(text),
                        ),
                    )
                    for number, (icon_name, title, text) in enumerate(ENROLLMENT_STEPS, start=1)
                ),
            ),
            html.div(
                {"class_name": "button-row"},
                button_link("Join as Provider", "/become-provider", icon_name="arrow-right"),
                button_link("Provider FAQ", "/provider-faq", variant="outline"),
            ),
        ),
    )
