"""Community Forum: what the forum is for, its guidelines, and that posting needs an account, with the Help
Center for quick answers."""

from __future__ import annotations

from reactpy import component, html

from components.context import use_session
from components.ui import button_link, card, grid, notice, page_header, section

GUIDELINES = (
    (
        "heart",
        "Be kind",
        "People come here with worries about their health or a loved one. Disagree respectfully and never "
        "mock, shame or harass anyone.",
    ),
    (
        "shield",
        "Protect privacy",
        "Don't post your full name, address, date of birth or test results, and never share details about "
        "someone else's health.",
    ),
    (
        "alert",
        "It's not medical advice",
        "Posts share experiences, not diagnoses. Talk to your clinician before changing any treatment. In an "
        "emergency, call 911.",
    ),
    (
        "briefcase",
        "Providers: be clear",
        "Say when you're posting as a provider, speak in general terms, and don't treat or advise individual "
        "patients in public threads.",
    ),
    (
        "x",
        "No spam or selling",
        "No advertising, referral links or product promotion. Sponsored content belongs in labelled ad "
        "spaces.",
    ),
    (
        "bug",
        "Report problems",
        "Report posts that break these rules. Moderators may edit or remove posts and suspend accounts that "
        "repeatedly break them.",
    ),
)


@component
def ForumPage() -> dict:
    signed_in = use_session().user is not None
    return html._(
        page_header(
            "Community Forum",
            "A place for patients, caregivers and providers to share experiences of care at home: preparing "
            "for "
            "a visit, recovering, caring for a family member.",
            eyebrow="Community",
        ),
        html.div(
            {"class_name": "container notice-strip"},
            notice(
                "Discussions are opening soon. Everyone will be able to read them; to start a discussion or "
                "reply, you'll need a MediVisit account."
                if not signed_in
                else "Discussions are opening soon. You're signed in, so you'll be able to post as soon as they do."
            ),
            html.div(
                {"class_name": "button-row spaced-row"},
                *(
                    (
                        button_link("Sign in", "/login", icon_name="log-in"),
                        button_link("Create an account", "/register", variant="outline"),
                    )
                    if not signed_in
                    else (button_link("Go to your dashboard", "/dashboard", icon_name="arrow-right"),)
                ),
            ),
        ),
        section(
            html.p(
                {"class_name": "section-intro"},
                "Everyone who posts agrees to these guidelines. They keep the forum safe and useful.",
            ),
            grid(
                *(card(html.p(text), icon_name=name, title=title) for name, title, text in GUIDELINES),
                columns=3,
            ),
            title="Community guidelines",
            muted=True,
        ),
        section(
            html.div(
                {"class_name": "cta-band"},
                html.div(
                    html.h2("Looking for a quick answer?"),
                    html.p("The Help Center covers booking, visits, payment and accounts."),
                ),
                button_link("Visit the Help Center", "/help-center", icon_name="arrow-right"),
            ),
        ),
    )
