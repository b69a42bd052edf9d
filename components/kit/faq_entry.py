"""`faq_entry`: a question answered in paragraphs of text, the usual shape of an FAQ's `faq_item` (its
answer a paragraph or two, a link inside some of them)."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.faq import faq_item


def faq_entry(question: str, *paragraphs: str | tuple[Any, ...] | VdomDict) -> VdomDict:
    """`faq_item(question, …)` whose answer holds one `p` per paragraph: a string, or a tuple of its parts
    (text and links); an element (a list) goes in as it is."""
    return faq_item(
        question,
        *(
            paragraph
            if isinstance(paragraph, dict)
            else html.p(*(paragraph if isinstance(paragraph, tuple) else (paragraph,)))
            for paragraph in paragraphs
        ),
    )
