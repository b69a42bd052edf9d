"""`back_link`: the way back to the list at the foot of a detail page (a job, a help article, a forum
topic): a paragraph holding one link, "← All open roles"."""

from __future__ import annotations

from reactpy import html
from reactpy.types import VdomDict


def back_link(label: str, href: str) -> VdomDict:
    """`p` > `a` to `href` reading "← `label`"."""
    return html.p(html.a({"href": href}, f"← {label}"))
