"""Illustrations of the four service lines (static/img/services/<slug>.svg), for the home page's cards and the
headings of /services.

Each picture is two hand-written SVG files, one per theme (`<slug>.svg`, `<slug>-dark.svg`), shown as two
`<img>`s of which CSS displays the one matching `html[data-theme]` (static/css/pages.css, `.illus`). Both are
`loading="lazy"`, so the browser fetches only the one on display (a hidden lazy image is never fetched
until the theme shows it). They are decorative: `alt=""`, and their width and height are set so the page
does not move when they arrive. The tile behind them is CSS, in the theme's colours.
"""

from __future__ import annotations

from reactpy import html
from reactpy.types import VdomDict

SERVICE_ILLUSTRATIONS = ("phlebotomy", "iv-therapy", "nursing", "diagnostics")
WIDTH, HEIGHT = 240, 140  # every file's viewBox; the <img>s scale to their box keeping this ratio


def _image(src: str, theme: str) -> VdomDict:
    return html.img(
        {
            "class_name": f"illus-{theme}",
            "src": src,
            "alt": "",
            "width": str(WIDTH),
            "height": str(HEIGHT),
            "loading": "lazy",
            "decoding": "async",
        }
    )


def illustration(slug: str, *, class_name: str = "") -> VdomDict:
    """The picture of a service line (a slug of SERVICE_ILLUSTRATIONS) on its tile."""
    if slug not in SERVICE_ILLUSTRATIONS:
        raise ValueError(f"No illustration for {slug!r}")
    base = f"/static/img/services/{slug}"
    return html.span(
        {"class_name": f"illus {class_name}".strip()},
        _image(f"{base}.svg", "light"),
        _image(f"{base}-dark.svg", "dark"),
    )
