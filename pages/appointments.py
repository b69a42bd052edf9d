"""My Appointments: where patients will see and manage their visits — upcoming and past visits, rescheduling
and cancelling, preparation reminders — with the way to sign in or book a first visit."""

from __future__ import annotations

from reactpy import component, html

from components.context import use_session
from components.icons import icon
from components.ui import button_link, card, grid, page_header, section

FEATURES = (
    ("calendar", "Upcoming visits", "The date, time, address and provider for each visit you've booked."),
    ("clock", "Reschedule or cancel", "Change or cancel a visit up to 24 hours before it starts."),
    ("check", "Get ready", "The preparation steps for each visit, such as fasting before some blood tests."),
    ("star", "Past visits", "Receipts for each visit, and a place to rate your care."),
)


@component
def AppointmentsPage() -> dict:
    user = use_session().user
    if user is None:
        status = html.div(
            {"class_name": "empty-state card"},
            html.span({"class_name": "empty-icon"}, icon("log-in", size=28)),
            html.p({"class_name": "empty-title"}, "Sign in to see your appointments"),
            html.p("Your visits are kept with your account, so you can manage them from any device."),
            html.div(
                {"class_name": "button-row centered-row"},
                button_link("Sign in", "/login", icon_name="arrow-right"),
                button_link("Browse services", "/services", variant="outline"),
            ),
        )
    else:
        status = html.div(
            {"class_name": "empty-state card"},
            html.span({"class_name": "empty-icon"}, icon("calendar", size=28)),
            html.p({"class_name": "empty-title"}, "Your visits will appear here"),
            html.p("Once you book a visit, you'll find its details, preparation steps and options here."),
            html.div(
                {"class_name": "button-row centered-row"},
                button_link("Browse services", "/services", icon_name="arrow-right"),
                button_link("Dashboard", "/dashboard", variant="outline"),
            ),
        )
    return html._(
        page_header(
            "My Appointments",
            "See your upcoming and past visits, get ready for each one, and change plans when you need to.",
            eyebrow="Bookings",
        ),
        section(status),
        section(
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in FEATURES),
                columns=4,
            ),
            html.p(
                {"class_name": "text-muted spaced-row"},
                "Need to change a visit within 24 hours of its start? Contact your provider or ",
                html.a({"href": "/contact"}, "our support team"),
                ".",
            ),
            title="Managing your visits",
            muted=True,
        ),
    )
