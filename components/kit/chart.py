"""`Chart`: a server-rendered SVG chart (pygal), embedded as an image so ReactPy never touches the SVG.

Why an <img> with a `data:image/svg+xml;base64,…` source: ReactPy's HTML-to-VDOM path lower-cases
attributes (`viewBox` → `viewbox`, which SVG ignores) and pygal's own <script> would be dropped or run;
inside an image the SVG is rendered by the browser as is and no script ever runs. pygal is told not to
reference its external tooltip script (`js=[]`), the XML declaration is left out, and the inline config
script and comments are stripped, so the output is small and the same for the same data.

Theming: CSS variables cannot reach into an image, so the chart is rendered twice, once with the light
palette and once with the dark one, and the app's theme attribute (`html[data-theme]`, set by
static/js/theme.js before first paint) shows one of them (static/css/app.css: `.chart-light` /
`.chart-dark`). Every series colour has ≥ 3:1 contrast and the text ≥ 4.5:1 on its theme's surface
(tests/ui/test_chart.py checks it).

Accessibility: the images are decorative (alt=""); the wrapper is `role="img"` with an `aria-label` that
states the data ("Visits per day. Visits: Mon 3, Tue 5."), or your own `description`.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import pygal
from pygal.style import Style
from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes, slug

Kind = Literal["bar", "line", "pie", "horizontal_bar", "stacked_bar"]
Number = float | int | None

_KINDS: dict[str, type] = {
    "bar": pygal.Bar,
    "line": pygal.Line,
    "pie": pygal.Pie,
    "horizontal_bar": pygal.HorizontalBar,
    "stacked_bar": pygal.StackedBar,
}

FONT = '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif'


@dataclass(frozen=True)
class Palette:
    """A theme's chart colours; `surface` is the background they are checked against."""

    surface: str
    text: str  # axis labels, legend (≥ 4.5:1 on surface)
    strong: str  # title, major guides
    grid: str  # guide lines (decorative)
    series: tuple[str, ...]  # ≥ 3:1 on surface


LIGHT = Palette(
    surface="#ffffff",
    text="#475569",
    strong="#0f172a",
    grid="#e2e8f0",
    series=("#0f766e", "#c2410c", "#6d28d9", "#be123c", "#1d4ed8", "#4d7c0f"),
)
DARK = Palette(
    surface="#111a2e",
    text="#a5b4c8",
    strong="#e2e8f0",
    grid="#24324a",
    series=("#2dd4bf", "#fb923c", "#a78bfa", "#fb7185", "#60a5fa", "#a3e635"),
)

_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL | re.IGNORECASE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CHART_ID = re.compile(r"chart-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _style(palette: Palette) -> Style:
    return Style(
        background="transparent",
        plot_background="transparent",
        foreground=palette.text,
        foreground_strong=palette.strong,
        foreground_subtle=palette.grid,
        guide_stroke_color=palette.grid,
        major_guide_stroke_color=palette.grid,
        guide_stroke_dasharray="0",
        major_guide_stroke_dasharray="0",
        colors=palette.series,
        font_family=FONT,
        label_font_size=13,
        major_label_font_size=13,
        legend_font_size=13,
        value_font_size=13,
        title_font_size=16,
        stroke_width="2.5",
        opacity="1",
        opacity_hover="1",
    )


@lru_cache(maxsize=64)  # pure: the same data gives the same SVG text
def render_svg(
    kind: str,
    series: tuple[tuple[str, tuple[Number, ...]], ...],
    labels: tuple[str, ...],
    palette: Palette,
    width: int,
    height: int,
    x_title: str | None,
    y_title: str | None,
    show_legend: bool,
    label_every: int | None = None,
    whole_numbers: bool = False,
) -> str:
    """The chart as a standalone SVG document (no XML declaration, no script, no comments)."""
    chart = _KINDS[kind](
        style=_style(palette),
        js=[],
        disable_xml_declaration=True,
        width=width,
        height=height,
        show_legend=show_legend,
        legend_at_bottom=True,
        x_title=x_title,
        y_title=y_title,
        print_zeroes=True,
        margin=12,
        # A horizontal bar's value axis runs along the short side: fewer, whole ticks instead of truncated ones.
        **({"max_scale": 6, "truncate_label": -1} if kind == "horizontal_bar" else {}),
        # Many periods: name every n-th under the axis, whole (the text alternative names them all).
        **(
            {"x_labels_major_every": label_every, "show_minor_x_labels": False, "truncate_label": -1}
            if label_every and label_every > 1
            else {}
        ),
    )
    if kind != "pie":
        chart.x_labels = list(labels)
        if whole_numbers:  # counts: whole ticks (never 0.1, 0.2 … of a visit)
            chart.y_labels = _whole_ticks(kind, series)
        for name, values in series:
            chart.add(name, list(values))
    else:  # a pie: one slice per label, from the first series
        values = series[0][1] if series else ()
        for label, value in zip(labels, values, strict=False):
            chart.add(label, value)
    svg = chart.render()
    svg = svg.decode() if isinstance(svg, bytes) else svg
    svg = _COMMENT.sub("", _SCRIPT.sub("", svg))
    return _CHART_ID.sub("chart-svg", svg)  # pygal's random id (and its CSS prefix): stable output


def _whole_ticks(kind: str, series: tuple[tuple[str, tuple[Number, ...]], ...]) -> list[int]:
    """About five whole-number ticks from 0 to the largest value (of a stack: the largest total)."""
    columns = zip(*(values for _name, values in series), strict=False)
    if kind == "stacked_bar":
        top = max((sum(v or 0 for v in column) for column in columns), default=0)
    else:
        top = max((v or 0 for _name, values in series for v in values), default=0)
    step = max(1, math.ceil(top / 5))
    return list(range(0, max(step, math.ceil(top / step) * step) + 1, step))


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def describe(
    title: str,
    series: Sequence[tuple[str, Sequence[Number]]],
    labels: Sequence[str],
    format_value: Callable[[Number], str] = lambda v: "no data" if v is None else f"{v:g}",
) -> str:
    """The text alternative: the title, then each series' values by label."""
    parts = [title.rstrip(".") + "."]
    for name, values in series:
        points = ", ".join(f"{label} {format_value(v)}" for label, v in zip(labels, values, strict=False))
        parts.append(f"{name}: {points}.")
    return " ".join(parts)


def Chart(  # noqa: N802 - a kit element, named like the components
    title: str,
    series: Sequence[tuple[str, Sequence[Number]]],
    *,
    labels: Sequence[str] = (),
    kind: Kind = "bar",
    description: str | None = None,
    show_title: bool = True,
    x_title: str | None = None,
    y_title: str | None = None,
    width: int = 640,
    height: int = 320,
    show_legend: bool | None = None,
    class_name: str | None = None,
    label_every: int | None = None,
    whole_numbers: bool = False,
) -> VdomDict:
    """A chart of `series` — (name, values) pairs, values aligned with `labels` (None = no data).

    `kind`: bar, line, horizontal_bar, stacked_bar or pie (a pie takes one slice per label from the first
    series). `title` is shown as the figure caption (unless `show_title=False`) and starts the text
    alternative; `description` replaces the generated one. The SVG scales to its container's width
    (`viewBox` kept; `width`/`height` set the aspect ratio). `label_every` n: only every n-th label is
    written under the axis (a long run of days), in full; `whole_numbers`: the value axis ticks whole
    numbers (counts)."""
    if kind not in _KINDS:
        raise ValueError(f"unknown chart kind {kind!r}")
    frozen = tuple((str(name), tuple(values)) for name, values in series)
    legend = show_legend if show_legend is not None else (kind == "pie" or len(frozen) > 1)
    args = (kind, frozen, tuple(str(label) for label in labels))
    rest = (width, height, x_title, y_title, legend, label_every, whole_numbers)
    label = description or describe(title, series, labels)
    caption_id = f"chart-{slug(title)}-title"
    return html.figure(
        {"class_name": classes("chart", class_name)},
        html.div(
            {"class_name": "chart-canvas", "role": "img", "aria-label": label},
            *(
                html.img(
                    {
                        "class_name": f"chart-img chart-{theme}",
                        "src": svg_data_uri(render_svg(*args, palette, *rest)),
                        "alt": "",
                        "width": width,
                        "height": height,
                        "key": theme,
                    }
                )
                for theme, palette in (("light", LIGHT), ("dark", DARK))
            ),
        ),
        html.figcaption({"class_name": "chart-title", "id": caption_id}, title) if show_title else "",
    )
