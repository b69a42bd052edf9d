"""Display pieces: `Badge` (a small coloured label), `StatCard` (a figure on a dashboard), `hint` (a muted
line that explains), and `UserText` /
`isolate` for text people wrote (names, ticket subjects and messages, reviews, bios, notes).

People's text is bidi-isolated, so a right-to-left override (U+202E) or a Hebrew or Arabic name cannot
reorder the words around it: `UserText` puts it in a `<bdi>` (or, for a block, an element with `dir="auto"`
and the `user-text` class, `unicode-bidi: isolate` in static/css/app.css); `isolate` wraps it in FSI … PDI
(U+2068 … U+2069) where it is part of a sentence shown as a plain string (a toast). Accessible names
(aria-label) are read, not laid out, so they keep the plain text.
"""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon as icon_svg
from components.kit._util import classes

Tone = Literal["neutral", "success", "warning", "danger", "info"]
TONES = ("neutral", "success", "warning", "danger", "info")


def Badge(  # noqa: N802 - a kit element, named like the components
    text: Any, *, tone: Tone | None = "neutral", icon: str | None = None, class_name: str | None = None
) -> VdomDict:
    """`span.badge.badge-{tone}`. The tone is never the only signal: the text says it (colour-blind
    users and screen readers read the word). `tone=None` leaves the tone class out, for a badge whose
    colours come from its own `class_name` (e.g. the help desk's ticket-status-* badges)."""
    if tone is not None and tone not in TONES:
        raise ValueError(f"unknown badge tone {tone!r}")
    return html.span(
        {"class_name": classes("badge", tone and f"badge-{tone}", class_name)},
        icon_svg(icon, size=12) if icon else "",
        text,
    )


FSI, PDI = "\u2068", "\u2069"  # first strong isolate, pop directional isolate


def isolate(text: str) -> str:
    """`text` as a bidi isolate inside a plain string: 'Visit with ⁨Pat Lee⁩ confirmed'."""
    return f"{FSI}{text}{PDI}" if text else text


def UserText(  # noqa: N802 - a kit element, named like the components
    text: Any, *, tag: str = "bdi", class_name: str | None = None, **attributes: Any
) -> VdomDict:
    """Text a person wrote, isolated from the text around it: `<bdi class="user-text">` inline, or another
    element (`tag="p"`, `"h2"`, …) with `dir="auto"` so its direction comes from its own first letters."""
    attrs = {**attributes, "class_name": classes("user-text", class_name)}
    if tag == "bdi":
        return html.bdi(attrs, text)
    return getattr(html, tag)({**attrs, "dir": "auto"}, text)


def StatCard(  # noqa: N802 - a kit element, named like the components
    label: str,
    value: Any,
    *,
    hint: Any = None,
    trend: float | None = None,
    icon: str | None = None,
    key: str | None = None,
) -> VdomDict:
    """A dashboard figure (staff/dashboard.py's `stat_card` markup): `article.stat-card` named by its
    label, the value, and a detail line (`hint`). `trend` colours the detail line: ≥ 0 up, < 0 down."""
    tone = None if trend is None else ("stat-up" if trend >= 0 else "stat-down")
    return html.article(
        {"class_name": "stat-card", "key": key or label, "aria-label": label},
        html.div(
            {"class_name": "stat-head"},
            html.h2({"class_name": "stat-label"}, label),
            html.span({"class_name": "stat-icon"}, icon_svg(icon, size=18)) if icon else "",
        ),
        html.p({"class_name": "stat-value"}, value),
        html.p({"class_name": classes("stat-detail", tone)}, hint) if hint is not None else "",
    )


def hint(*text: Any) -> VdomDict:
    """`p.hint`: a muted line that explains what is around it."""
    return html.p({"class_name": "hint"}, *text)
