"""Small building blocks for screens: page header, section, cards, buttons-as-links, notices."""

from __future__ import annotations

from typing import Any

from reactpy import html

from components.icons import icon


def page_title(title: str) -> dict:
    """Sets document.title (the browser module reads this marker); renders nothing visible."""
    return html.span({"hidden": True, "data-page-title": title})


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
        html.div({"class_name": "container"}, html.h2({"class_name": "section-title"}, title) if title else "", *children),
    )


def card(*children: Any, icon_name: str | None = None, title: str | None = None, href: str | None = None) -> dict:
    body = [
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
    return html.div({"class_name": f"notice notice-{tone}", "role": "note"}, icon("alert", size=18), html.p(text))


def checklist(*items: str) -> dict:
    return html.ul(
        {"class_name": "checklist"}, *(html.li({"key": item}, icon("check", size=18), html.span(item)) for item in items)
    )
