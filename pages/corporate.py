"""Corporate Solutions: on-site flu shots, health screenings and blood draws for employers at a corporate
venue — what's offered, how an event runs, how employee privacy is kept, and how to enquire."""

from __future__ import annotations

from reactpy import component, html

from app.settings import get_settings
from components.icons import icon
from components.ui import card, checklist, grid, mailto_href, page_header, section, steps

OFFERINGS = (
    ("syringe", "Flu shot clinics", "Seasonal flu vaccinations given on site by licensed nurses."),
    (
        "heart",
        "Health screenings",
        "Blood pressure, blood glucose and other point-of-care checks, with results given privately to each "
        "person.",
    ),
    (
        "droplet",
        "Blood draws",
        "Lab-ordered draws for wellness programs, collected at work and sent to the lab.",
    ),
    ("zap", "IV hydration", "Hydration for events and demanding workdays, each person screened by a nurse."),
)

EVENT_STEPS = (
    (
        "Tell us about your team",
        "Where you are, roughly how many people, which services and preferred dates.",
    ),
    ("We plan it with you", "We match licensed providers, agree a schedule and tell you what space we need."),
    (
        "Employees sign up",
        "Each person books their own time slot and completes any consent and health questions privately.",
    ),
    (
        "Care on the day",
        "Providers arrive with their supplies, give care, and leave the space as they found it.",
    ),
)

WHAT_WE_NEED = (
    "A private or screened-off area with a table and chairs",
    "Access to a power outlet and, ideally, a nearby sink",
    "A contact person on the day",
    "An estimate of how many people will take part",
)


@component
def CorporatePage() -> dict:
    support = get_settings().support_email
    return html._(
        page_header(
            "Care for your team, at work",
            "Bring flu shots, health screenings and blood draws to your workplace. Licensed providers come "
            "to "
            "your office or event venue, so your people don't lose half a day to a clinic visit.",
            eyebrow="Corporate Solutions",
        ),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in OFFERINGS),
                columns=4,
            ),
            title="What we offer on site",
        ),
        section(
            html.div(
                {"class_name": "split"},
                html.div(
                    html.h2({"class_name": "section-title"}, "How an on-site event works"),
                    steps(*EVENT_STEPS),
                ),
                html.div(
                    {"class_name": "detail-aside"},
                    html.div(
                        {"class_name": "card"},
                        html.h3({"class_name": "card-title"}, "What we need from you"),
                        checklist(*WHAT_WE_NEED),
                    ),
                    html.div(
                        {"class_name": "card"},
                        html.h3({"class_name": "card-title"}, "Your employees' privacy"),
                        html.p(
                            "Health information is handled in line with HIPAA. Each person's results go to "
                            "them, "
                            "not to their employer. Employers receive participation numbers only."
                        ),
                    ),
                ),
            ),
            muted=True,
        ),
        section(
            html.div(
                {"class_name": "contact-panel"},
                html.span({"class_name": "card-icon"}, icon("building", size=22)),
                html.div(
                    html.h2("Plan an event"),
                    html.p(
                        "Email us with your company name, location, approximate headcount, the services "
                        "you're "
                        "interested in and a few possible dates. We'll reply with options and next steps."
                    ),
                    html.a(
                        {
                            "class_name": "btn btn-primary",
                            "href": mailto_href(support, "Corporate on-site services enquiry"),
                        },
                        icon("mail", size=18),
                        "Email our team",
                    ),
                    html.p(
                        {"class_name": "hint"},
                        "Or write to ",
                        html.a({"href": f"mailto:{support}"}, support),
                        ".",
                    ),
                ),
            ),
        ),
    )
