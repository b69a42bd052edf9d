"""Healthcare assistant (/ai-assistant, /healthcare-assistant): a rule-based "which service do I need?" guide
built from native <details> choices. It suggests a service; it does not diagnose and is not medical advice."""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from app.services.catalog import flash_sale_running
from components.catalog_copy import FLASH_SALE_TEXT
from components.icons import icon
from components.ui import button_link, notice, page_header, section


def _suggestion(title: str, href: str, *text: Any, link_label: str | None = None) -> dict:
    return html.div(
        {"class_name": "guide-answer"},
        html.p({"class_name": "guide-answer-label"}, "Suggested"),
        html.h3({"class_name": "guide-answer-title"}, title),
        *(
            html.p({"key": str(index)}, part) if isinstance(part, str) else part
            for index, part in enumerate(text)
            if part != ""
        ),
        button_link(link_label or f"See {title}", href, icon_name="arrow-right"),
    )


def _choice(icon_name: str, question: str, *body: Any) -> dict:
    return html.details(
        {"class_name": "guide-choice", "key": question},
        html.summary(
            {"class_name": "guide-question"},
            html.span({"class_name": "guide-icon"}, icon(icon_name, size=20)),
            html.span({"class_name": "guide-question-text"}, question),
            icon("chevron-down", size=18, class_name="icon guide-chevron"),
        ),
        html.div({"class_name": "guide-body"}, *body),
    )


def _blood_work() -> dict:
    return _choice(
        "droplet",
        "I need blood work",
        html.p({"class_name": "guide-follow-up"}, "Do you have a lab order from your clinician?"),
        _choice(
            "check",
            "Yes, I have a lab order",
            _suggestion(
                "Mobile Phlebotomy",
                "/services/phlebotomy",
                "A phlebotomist draws your blood at home or work and takes it to the lab on your order.",
                "If any of your tests need fasting (8–12 hours for some), book an early-morning visit.",
            ),
        ),
        _choice(
            "help",
            "No, I don't have one",
            _suggestion(
                "At-Home Diagnostics",
                "/services/diagnostics",
                "Most blood tests need an order from a licensed clinician, so ask yours for one first. Some "
                "screenings, such as a blood glucose check, can be done without one.",
            ),
        ),
    )


def _choices() -> tuple[dict, ...]:
    return (
        _blood_work(),
        _choice(
            "syringe",
            "I want IV hydration or a vitamin infusion",
            _suggestion(
                "IV Therapy",
                "/services/iv-therapy",
                "A registered nurse screens you, places the IV and stays for the whole infusion.",
                html.p({"key": "sale", "class_name": "guide-sale"}, icon("zap", size=16), FLASH_SALE_TEXT)
                if flash_sale_running()
                else "",
                html.p(
                    {"key": "warning", "class_name": "guide-caution"},
                    "If you're fainting, confused, can't keep fluids down or feel seriously unwell, get "
                    "urgent "
                    "care or call 911 instead.",
                ),
            ),
        ),
        _choice(
            "stethoscope",
            "I need care at home after surgery or a hospital stay",
            _suggestion(
                "In-Home Nursing",
                "/services/nursing",
                "Nurses check your recovery, change dressings and help you manage medications, following "
                "your "
                "discharge instructions or care plan.",
            ),
        ),
        _choice(
            "heart",
            "I need injections, a dressing change or help with medications",
            _suggestion(
                "In-Home Nursing",
                "/services/nursing",
                "A licensed nurse gives injections, cares for wounds and helps you or your family with "
                "medications, following your clinician's orders.",
            ),
        ),
        _choice(
            "flask",
            "I want a screening or test without going to a clinic",
            _suggestion(
                "At-Home Diagnostics",
                "/services/diagnostics",
                "A provider runs point-of-care checks or collects samples for the lab at your location.",
            ),
        ),
        _choice(
            "building",
            "I'm arranging flu shots or screenings for my team",
            _suggestion(
                "Corporate Solutions",
                "/corporate",
                "Licensed providers come to your workplace or event venue for flu shots, screenings and "
                "blood "
                "draws.",
            ),
        ),
        _choice(
            "search",
            "I need something that isn't listed here",
            _suggestion(
                "Service request",
                "/service-requests",
                "Tell us about the care you need and we'll look for a provider near you who offers it.",
                link_label="Make a service request",
            ),
        ),
        _choice(
            "briefcase",
            "I'm a licensed provider",
            _suggestion(
                "Join as Provider",
                "/become-provider",
                "Set your own hours and service area and see patients who need care at home.",
            ),
        ),
    )


@component
def AssistantPage() -> dict:
    return html._(
        page_header(
            "Which service do I need?",
            "Pick the situation closest to yours and we'll point you to the right service. This guide "
            "follows "
            "simple rules: it doesn't diagnose and it isn't medical advice.",
            eyebrow="Healthcare assistant",
        ),
        section(
            html.div(
                {"class_name": "guide"},
                notice(
                    "Not medical advice. If you think you may have a medical emergency, such as chest pain, "
                    "trouble breathing, signs of a stroke or severe bleeding, call 911 now.",
                    tone="warning",
                ),
                html.div({"class_name": "guide-choices"}, *_choices()),
                html.p(
                    {"class_name": "hint guide-footer"},
                    "Still not sure? Ask your clinician, read the ",
                    html.a({"href": "/help-center"}, "Help Center"),
                    " or ",
                    html.a({"href": "/contact"}, "contact us"),
                    ".",
                ),
            ),
        ),
    )
