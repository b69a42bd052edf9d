"""Small building blocks for screens: page header, section, cards, buttons-as-links, notices."""

from __future__ import annotations

from typing import Any

from reactpy import html

from app.services.catalog import flash_sale_running
from components import browser
from components.icons import icon


def page_title(title: str) -> dict:
    """Sets document.title (the browser module reads this marker); renders nothing visible."""
    return html.span({"hidden": True, **browser.page_title(title)})


def page_header(title: str, lead: str | None = None, *, eyebrow: str | None = None) -> dict:
    return html.section(
        {"class_name": "page-header"},
        html.div(
            {"class_name": "container"},
            html.p({"class_name": "eyebrow"}, eyebrow) if eyebrow else "",
            html.h1(title),
            html.p({"class_name": "lead"}, lead) if lead else "",
        ),
    )


def section(*children: Any, title: str | None = None, id: str | None = None, muted: bool = False) -> dict:
    attributes: dict[str, Any] = {"class_name": "section" + (" section-muted" if muted else "")}
    if id:
        attributes["id"] = id
    return html.section(
        attributes,
        html.div(
            {"class_name": "container"},
            html.h2({"class_name": "section-title"}, title) if title else "",
            *children,
        ),
    )


def card(
    *children: Any,
    icon_name: str | None = None,
    title: str | None = None,
    href: str | None = None,
    media: Any = None,
) -> dict:
    """A card; `media` (e.g. components.illustrations.illustration) goes first, above the icon and title."""
    body = [
        media if media is not None else "",
        html.span({"class_name": "card-icon"}, icon(icon_name, size=22)) if icon_name else "",
        html.h3({"class_name": "card-title"}, title) if title else "",
        *children,
    ]
    if href:
        return html.a({"class_name": "card card-link", "href": href}, *body)
    return html.div({"class_name": "card"}, *body)


def grid(*children: Any, columns: int = 3) -> dict:
    return html.div({"class_name": f"grid grid-{columns}"}, *children)


def button_link(label: str, href: str, *, variant: str = "primary", icon_name: str | None = None) -> dict:
    return html.a(
        {"class_name": f"btn btn-{variant}", "href": href},
        label,
        icon(icon_name, size=18) if icon_name else "",
    )


def notice(text: str, *, tone: str = "info") -> dict:
    return html.div(
        {"class_name": f"notice notice-{tone}", "role": "note"}, icon("alert", size=18), html.p(text)
    )


def checklist(*items: str) -> dict:
    return html.ul(
        {"class_name": "checklist"},
        *(html.li({"key": item}, icon("check", size=18), html.span(item)) for item in items),
    )


# ---- added for the content screens: FAQs, numbered steps, chips, mailto links ----


def faq_item(question: str, *answer: Any) -> dict:
    """One question and answer as a native <details>: opens and closes in the browser, no server round trip."""
    return html.details(
        {"class_name": "faq-item", "key": question},
        html.summary({"class_name": "faq-question"}, html.span(question), icon("chevron-down", size=18)),
        html.div({"class_name": "faq-answer"}, *answer),
    )


def faq_group(title: str, *items: dict, id: str | None = None, icon_name: str | None = None) -> dict:
    attributes: dict[str, Any] = {"class_name": "faq-group", "key": title}
    if id:
        attributes["id"] = id
    return html.div(
        attributes,
        html.h2(
            {"class_name": "faq-group-title"},
            html.span({"class_name": "faq-group-icon"}, icon(icon_name, size=18)) if icon_name else "",
            title,
        ),
        html.div({"class_name": "faq-list"}, *items),
    )


def steps(*items: tuple[str, str]) -> dict:
    """A numbered list of (title, text) steps."""
    return html.ol(
        {"class_name": "steps"},
        *(
            html.li(
                {"key": title, "class_name": "step"},
                html.span({"class_name": "step-number", "aria-hidden": "true"}, str(number)),
                html.div(html.h3({"class_name": "step-title"}, title), html.p(text)),
            )
            for number, (title, text) in enumerate(items, start=1)
        ),
    )


def chips(*labels: str) -> dict:
    return html.ul(
        {"class_name": "chips"}, *(html.li({"key": label, "class_name": "chip"}, label) for label in labels)
    )


def mailto_href(address: str, subject: str | None = None) -> str:
    from urllib.parse import quote

    return f"mailto:{address}" + (f"?subject={quote(subject)}" if subject else "")


def faq_layout(topics_label: str, topics: tuple[tuple[str, str, str], ...], *groups: Any) -> dict:
    """A topic index (slug, label, icon) beside FAQ groups whose ids are the slugs."""
    return html.div(
        {"class_name": "faq-layout"},
        html.nav(
            {"class_name": "faq-topics", "aria-label": topics_label},
            html.p({"class_name": "faq-topics-title"}, "Topics"),
            *(
                html.a(
                    {"key": slug, "href": f"#{slug}", "class_name": "faq-topic"}, icon(name, size=16), label
                )
                for slug, label, name in topics
            ),
        ),
        html.div({"class_name": "faq-groups"}, *groups),
    )


def coming_soon(*, feature: str, heading: str, status: str, links: tuple[tuple[str, str], ...]) -> dict:
    """The 'Feature Coming Soon' card of the dashboard and the staff portal; `links` are (label, href)."""
    return html.section(
        {"class_name": "container coming-soon"},
        html.div(
            {"class_name": "coming-soon-card"},
            html.span({"class_name": "coming-soon-icon"}, icon("clock", size=30)),
            html.p({"class_name": "eyebrow"}, feature),
            html.h1(heading),
            html.p({"class_name": "coming-soon-text"}, html.strong(feature), f" {status}."),
            html.div(
                {"class_name": "button-row"},
                *(
                    html.a(
                        {
                            "class_name": "btn btn-primary" if i == 0 else "btn btn-outline",
                            "href": href,
                            "key": href,
                        },
                        label,
                    )
                    for i, (label, href) in enumerate(links)
                ),
            ),
        ),
    )


def sale_callout(sale_text: str) -> dict | str:
    """The flash-sale note shown on IV-therapy content, only while the sale runs."""
    if not flash_sale_running():
        return ""
    return html.div(
        {"class_name": "sale-callout"},
        icon("zap", size=18),
        html.p(html.strong(sale_text), " The discount applies to IV therapy visits booked today."),
    )


def portal_header(title: Any, *extra: Any, eyebrow: Any = None, lead: Any = None) -> dict:
    """The header band of the signed-in screens (dashboard, settings, staff, admin)."""
    return html.section(
        {"class_name": "portal-header"},
        html.div(
            {"class_name": "container"},
            html.p({"class_name": "eyebrow"}, eyebrow) if eyebrow else "",
            html.h1(title),
            html.p({"class_name": "lead"}, lead) if lead else "",
            *extra,
        ),
    )
