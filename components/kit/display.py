"""Display pieces: `Badge` (a small coloured label) and `StatCard` (a figure on a dashboard)."""

from __future__ import annotations

from typing import Any, Literal

from reactpy import html

from components.icons import icon as icon_svg
from components.kit._util import classes

Tone = Literal["neutral", "success", "warning", "danger", "info"]
TONES = ("neutral", "success", "warning", "danger", "info")


def Badge(  # noqa: N802 - a kit element, named like the components
    text: Any, *, tone: Tone | None = "neutral", icon: str | None = None, class_name: str | None = None
) -> dict:
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


def StatCard(  # noqa: N802 - a kit element, named like the components
    label: str,
    value: Any,
    *,
    hint: Any = None,
    trend: float | None = None,
    icon: str | None = None,
    key: str | None = None,
) -> dict:
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
