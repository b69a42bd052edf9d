"""Questions and answers: `faq_item` (one native <details>), `faq_group` (a titled group) and `faq_layout`
(a topic index beside the groups)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon


def faq_item(question: str, *answer: Any) -> VdomDict:
    """One question and answer as a native <details>: opens and closes in the browser, no server round trip."""
    return html.details(
        {"class_name": "faq-item", "key": question},
        html.summary({"class_name": "faq-question"}, html.span(question), icon("chevron-down", size=18)),
        html.div({"class_name": "faq-answer"}, *answer),
    )


def faq_group(title: str, *items: VdomDict, id: str | None = None, icon_name: str | None = None) -> VdomDict:
    """A titled group of `faq_item`s; `id` is the target of the topic index's link."""
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


def faq_layout(topics_label: str, topics: tuple[tuple[str, str, str], ...], *groups: Any) -> VdomDict:
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
