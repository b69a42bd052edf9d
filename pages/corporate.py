"""Corporate Solutions: on-site flu shots, health screenings and blood draws for employers at a corporate
venue — what's offered, how an event runs, how employee privacy is kept, and the enquiry form whose answers
become a lead for the corporate desk (app/services/corporate; checked by field, rate-limited)."""

from __future__ import annotations

from typing import Any

from reactpy import component, event, html, use_state
from reactpy.types import State, VdomDict

from app.services.corporate import enquiry_problems, offered_services, submit_enquiry
from app.settings import get_settings
from components.forms import use_form
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Checkbox,
    ErrorSummary,
    Field,
    QueryView,
    TextArea,
    card,
    checklist,
    dialog_actions,
    feature_grid,
    field_group,
    hint,
    public_page,
    section,
    split,
    steps,
)
from models.corporate import (
    MAX_COMPANY,
    MAX_CONTACT,
    MAX_DATES,
    MAX_LOCATION,
    MAX_MESSAGE,
    EnquiryCreate,
    LeadRead,
)

PREFIX = "enquiry"
# The form's fields in page order (the error summary lists mistakes in this order).
ORDER = (
    "company",
    "contact_name",
    "email",
    "phone",
    "site_count",
    "site_location",
    "headcount",
    "services",
    "dates_wanted",
    "message",
)

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
def CorporatePage() -> VdomDict:
    support = get_settings().support_email
    return public_page(
        "Care for your team, at work",
        section(
            feature_grid(OFFERINGS, columns=4),
            title="What we offer on site",
        ),
        section(
            split(
                steps(*EVENT_STEPS),
                title="How an on-site event works",
                aside=html.div(
                    {"class_name": "detail-aside"},
                    card(checklist(*WHAT_WE_NEED), title="What we need from you"),
                    card(
                        html.p(
                            "Health information is handled in line with HIPAA. Each person's results go to "
                            "them, "
                            "not to their employer. Employers receive participation numbers only."
                        ),
                        title="Your employees' privacy",
                    ),
                ),
            ),
            muted=True,
        ),
        section(
            html.div(
                {"class_name": "enquiry-layout"},
                html.div(
                    {"class_name": "enquiry-intro"},
                    html.span({"class_name": "card-icon"}, icon("building", size=22)),
                    html.h2({"id": "enquiry-title"}, "Plan an event"),
                    html.p(
                        "Tell us about your company, where and roughly how many people, the services you're "
                        "interested in and a few possible dates. Our corporate team replies within two "
                        "business days with options and next steps."
                    ),
                    hint("Prefer e-mail? Write to ", html.a({"href": f"mailto:{support}"}, support), "."),
                ),
                _EnquiryForm(),
            ),
            id="enquiry",
        ),
        lead="Bring flu shots, health screenings and blood draws to your workplace. Licensed providers come "
        "to "
        "your office or event venue, so your people don't lose half a day to a clinic visit.",
        eyebrow="Corporate Solutions",
    )


@component
def _EnquiryForm() -> Any:
    services = use_query(offered_services)
    form = use_form(
        draft="corporate:enquiry",
        company="",
        contact_name="",
        email="",
        phone="",
        site_count="1",
        site_location="",
        headcount="",
        dates_wanted="",
        message="",
    )
    errors_state: State[dict[str, str]] = use_state({})
    errors, set_errors = errors_state
    attempt, set_attempt = use_state(0)
    sent_state: State[LeadRead | None] = use_state(None)
    sent, set_sent = sent_state

    def refused(message: str) -> None:
        set_errors({"": message})
        set_attempt(lambda n: n + 1)

    def accepted(lead: LeadRead) -> None:
        form.discard_draft()
        set_sent(lead)

    send = use_action(submit_enquiry, on_success=accepted, on_error=refused)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        values = form.values
        offered = [slug for slug, _name in services.data or []]
        data = EnquiryCreate(
            **{name: str(values.get(name, ""))[:4000] for name in ORDER if name != "services"},
            services=[slug for slug in offered if values.get(f"service-{slug}")],
        )
        problems = enquiry_problems(data, set(offered))
        set_attempt(lambda n: n + 1)
        set_errors(problems)
        if not problems:  # the service checks again and says the same words (shown in the summary)
            await send.run(data=data)

    if sent is not None:
        return html.div(
            {"class_name": "enquiry-card enquiry-sent", "role": "status", "tab_index": -1},
            html.h3("Thank you, we've got your enquiry"),
            html.p(
                f"Our corporate team will reach {sent.contact_name} at {sent.email} within two business "
                f"days about {sent.company}'s on-site event."
            ),
        )

    def field_id(name: str) -> str:
        if name == "services":
            first = (services.data or [("", "")])[0][0]
            return f"{PREFIX}-service-{first}"
        return f"{PREFIX}-{name}"

    lines = [(field_id(name) if name else None, errors[name]) for name in ("", *ORDER) if name in errors]
    e = errors.get
    return html.form(
        {
            "class_name": "form enquiry-card",
            "on_submit": submit,
            "no_validate": True,
            "aria-labelledby": "enquiry-title",
        },
        ErrorSummary(lines, attempt=attempt, id="enquiry-errors"),
        html.div(
            {"class_name": "enquiry-grid"},
            Field(
                "Company",
                "company",
                form=form,
                error=e("company"),
                required=True,
                max_length=MAX_COMPANY,
                autocomplete="organization",
                id_prefix=PREFIX,
            ),
            Field(
                "Your name",
                "contact_name",
                form=form,
                error=e("contact_name"),
                required=True,
                max_length=MAX_CONTACT,
                autocomplete="name",
                id_prefix=PREFIX,
            ),
            Field(
                "Work e-mail",
                "email",
                form=form,
                type="email",
                error=e("email"),
                required=True,
                max_length=320,
                autocomplete="email",
                id_prefix=PREFIX,
            ),
            Field(
                "Phone",
                "phone",
                form=form,
                type="tel",
                error=e("phone"),
                required=True,
                max_length=32,
                autocomplete="tel",
                id_prefix=PREFIX,
                hint="e.g. (212) 555-0100",
            ),
            Field(
                "Number of sites",
                "site_count",
                form=form,
                error=e("site_count"),
                required=True,
                max_length=4,
                input_mode="numeric",
                id_prefix=PREFIX,
            ),
            Field(
                "City or ZIP code",
                "site_location",
                form=form,
                error=e("site_location"),
                required=True,
                max_length=MAX_LOCATION,
                id_prefix=PREFIX,
                hint="Of your site, or your main site",
            ),
            Field(
                "Approximate headcount",
                "headcount",
                form=form,
                error=e("headcount"),
                required=True,
                max_length=8,
                input_mode="numeric",
                id_prefix=PREFIX,
                hint="People who may take part",
            ),
            Field(
                "Dates wanted",
                "dates_wanted",
                form=form,
                error=e("dates_wanted"),
                max_length=MAX_DATES,
                id_prefix=PREFIX,
                hint="e.g. any weekday in early December",
            ),
        ),
        QueryView(
            services,
            lambda offered: field_group(
                "Services wanted",
                html.div(
                    {"class_name": "enquiry-service-list"},
                    *[
                        Checkbox(name, f"service-{slug}", form=form, id_prefix=PREFIX, key=slug)
                        for slug, name in offered
                    ],
                ),
                error=e("services"),
                error_id=f"{PREFIX}-services-error",
                class_name="enquiry-services",
                invalid_class="has-error",
            ),
            loading_label="Loading services…",
        ),
        TextArea(
            "Message",
            "message",
            form=form,
            error=e("message"),
            rows=4,
            max_length=MAX_MESSAGE,
            id_prefix=PREFIX,
            hint="Anything else we should know (optional)",
        ),
        dialog_actions(
            Button("Send enquiry", type="submit", icon="mail", pending=send.pending, pending_label="Sending…")
        ),
    )
