"""Featured Providers (/provider-of-month): how providers are chosen to be featured each month, shown until
the first featured providers are announced in the visitor's area."""

from __future__ import annotations

from reactpy import component, html

from components.ui import card, grid, notice, page_header, section

CRITERIA = (
    ("star", "Patient ratings", "Consistently high ratings from patients after their visits."),
    ("clock", "Reliability", "On time, with few cancellations, visit after visit."),
    ("heart", "Care and communication", "Patients' comments about feeling listened to and well cared for."),
    ("shield", "Good standing", "Current license, insurance and verification, with no open safety concerns."),
)


@component
def FeaturedProvidersPage() -> dict:
    return html._(
        page_header(
            "Featured Providers",
            "Each month we feature providers whose patients rate them highest for care, reliability and "
            "communication.",
            eyebrow="Provider of the month",
        ),
        html.div(
            {"class_name": "container notice-strip"},
            notice(
                "Featured providers will be announced here once our provider directory opens in your area. "
                "Every provider you can book on MediVisit is verified, featured or not."
            ),
        ),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in CRITERIA),
                columns=4,
            ),
            html.p(
                {"class_name": "text-muted spaced-row"},
                "Featuring is based on patient feedback and visit records only. Providers can't pay to be "
                "featured; sponsored placements are always labelled as ads.",
            ),
            title="How providers are chosen",
        ),
        section(
            grid(
                card(
                    html.p("See how providers are verified and what their profiles show."),
                    icon_name="users",
                    title="Browse Providers",
                    href="/providers",
                ),
                card(
                    html.p("Learn what each service includes and how to prepare for your visit."),
                    icon_name="stethoscope",
                    title="Our services",
                    href="/services",
                ),
                card(
                    html.p("Licensed provider? Join MediVisit and set your own hours and service area."),
                    icon_name="briefcase",
                    title="Join as Provider",
                    href="/become-provider",
                ),
                columns=3,
            ),
            title="Meanwhile",
            muted=True,
        ),
    )
