"""Icons (24×24 stroke icons in the style of Lucide) used across the frame and screens.

An icon is one element, `<span class="icon i-cart icon-18">`: its picture is a CSS mask painted in the text
colour, from `static/css/icons.css`, which `python -m components.icons` writes from `_PATHS` below (a unit
test keeps the two in step). Inline SVG trees were 47 % of the elements every tab kept on the server and
sent over its websocket; a mask costs one element and no bytes per use.
"""

from __future__ import annotations

from urllib.parse import quote

from reactpy import html
from reactpy.types import VdomDict

_PATHS: dict[str, tuple[str, ...]] = {
    "menu": ("M4 6h16", "M4 12h16", "M4 18h16"),
    "x": ("M18 6 6 18", "M6 6l12 12"),
    "chevron-down": ("m6 9 6 6 6-6",),
    "chevron-right": ("m9 18 6-6-6-6",),
    "arrow-left": ("M19 12H5", "m12 19-7-7 7-7"),
    "arrow-right": ("M5 12h14", "m12 5 7 7-7 7"),
    "home": ("M3 10.5 12 3l9 7.5", "M5 9.5V21h14V9.5", "M9.5 21v-6h5v6"),
    "search": ("M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Z", "m21 21-4.3-4.3"),
    "star": ("m12 2.5 2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5L2.5 9.4l6.6-.9Z",),
    "calendar": (
        "M8 2v4",
        "M16 2v4",
        "M3 10h18",
        "M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z",
    ),
    "cart": (
        "M3 3h2l2.4 12.2a2 2 0 0 0 2 1.8h8.7a2 2 0 0 0 2-1.6L21.5 8H6",
        "M9 21a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z",
        "M18 21a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z",
    ),
    "user": ("M20 21a8 8 0 0 0-16 0", "M12 13a5 5 0 1 0 0-10 5 5 0 0 0 0 10Z"),
    "sun": (
        "M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10Z",
        "M12 1v2",
        "M12 21v2",
        "m4.2 4.2 1.4 1.4",
        "m18.4 18.4 1.4 1.4",
        "M1 12h2",
        "M21 12h2",
        "m4.2 19.8 1.4-1.4",
        "m18.4 5.6 1.4-1.4",
    ),
    "moon": ("M21 12.8A9 9 0 1 1 11.2 3 7 7 0 0 0 21 12.8Z",),
    "monitor": ("M4 4h16v12H4Z", "M8 20h8", "M12 16v4"),
    "bug": (
        "M8 6a4 4 0 0 1 8 0",
        "M6 10h12v5a6 6 0 0 1-12 0Z",
        "M12 10v11",
        "M3 13h3",
        "M18 13h3",
        "M4 7l2.5 2",
        "M20 7l-2.5 2",
        "M4 20l2.5-2",
        "M20 20l-2.5-2",
    ),
    "zap": ("M13 2 3 14h9l-1 8 10-12h-9Z",),
    "droplet": ("M12 2.7 6.3 9a7.5 7.5 0 1 0 11.4 0Z",),
    "syringe": (
        "m18 2 4 4",
        "m17 7 3-3",
        "M19 9 8.7 19.3a2.4 2.4 0 0 1-3.4 0l-.6-.6a2.4 2.4 0 0 1 0-3.4L15 5",
        "m9 11 4 4",
        "m5 19-3 3",
        "m14 4 6 6",
    ),
    "stethoscope": (
        "M4.8 2.3A.3.3 0 1 0 5 2H4a2 2 0 0 0-2 2v5a6 6 0 0 0 12 0V4a2 2 0 0 0-2-2h-1",
        "M8 15v1a6 6 0 0 0 12 0v-4",
        "M20 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z",
    ),
    "flask": (
        "M9 3h6",
        "M10 3v6.5L4.6 18.4A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.4-2.6L14 9.5V3",
        "M7 15h10",
    ),
    "shield": ("M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10Z", "m9 12 2 2 4-4"),
    "clock": ("M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z", "M12 6v6l4 2"),
    "map-pin": ("M20 10c0 6-8 12-8 12s-8-6-8-12a8 8 0 0 1 16 0Z", "M12 13a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z"),
    "heart": (
        "M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7Z",
    ),
    "building": (
        "M6 22V4a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v18Z",
        "M6 12H4a2 2 0 0 0-2 2v8h4",
        "M18 9h2a2 2 0 0 1 2 2v11h-4",
        "M10 6h4",
        "M10 10h4",
        "M10 14h4",
        "M10 18h4",
    ),
    "message": ("M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Z",),
    "help": ("M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z", "M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3", "M12 17h.01"),
    "sparkles": (
        "M12 3 10.1 8.8 4.3 10.7l5.8 1.9L12 18.4l1.9-5.8 5.8-1.9-5.8-1.9Z",
        "M5 3v4",
        "M3 5h4",
        "M19 17v4",
        "M17 19h4",
    ),
    "bell": ("M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9", "M10.3 21a1.94 1.94 0 0 0 3.4 0"),
    "mail": ("M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z", "m22 6-10 7L2 6"),
    "phone": (
        "M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2Z",
    ),
    "check": ("M20 6 9 17l-5-5",),
    "alert": ("M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z", "M12 8v4", "M12 16h.01"),
    "briefcase": (
        "M4 7h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2Z",
        "M16 21V5a2 2 0 0 0-2-2h-4a2 2 0 0 0-2 2v16",
    ),
    "users": (
        "M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2",
        "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z",
        "M22 21v-2a4 4 0 0 0-3-3.9",
        "M16 3.1a4 4 0 0 1 0 7.8",
    ),
    "facebook": ("M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3Z",),
    "instagram": (
        "M17 2H7a5 5 0 0 0-5 5v10a5 5 0 0 0 5 5h10a5 5 0 0 0 5-5V7a5 5 0 0 0-5-5Z",
        "M16 11.4A4 4 0 1 1 12.6 8 4 4 0 0 1 16 11.4Z",
        "M17.5 6.5h.01",
    ),
    "linkedin": (
        "M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6Z",
        "M2 9h4v12H2Z",
        "M4 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z",
    ),
    "x-social": ("M4 4l16 16", "M20 4 4 20"),
    "dashboard": ("M3 3h7v9H3Z", "M14 3h7v5h-7Z", "M14 12h7v9h-7Z", "M3 16h7v5H3Z"),
    "lock": ("M5 11h14v10H5Z", "M8 11V7a4 4 0 0 1 8 0v4"),
    "log-out": ("M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4", "m16 17 5-5-5-5", "M21 12H9"),
    "log-in": ("M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4", "m10 17 5-5-5-5", "M15 12H3"),
    # staff portal sidebar and task list
    "chart": ("M3 3v18h18", "M7 16V11", "M12 16V7", "M17 16v-3"),
    "dollar": ("M12 2v20", "M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6"),
    "receipt": (  # Lucide's "receipt" (ISC)
        "M4 2v20l2-1 2 1 2-1 2 1 2-1 2 1 2-1 2 1V2l-2 1-2-1-2 1-2-1-2 1-2-1-2 1Z",
        "M16 8h-6a2 2 0 1 0 0 4h4a2 2 0 1 1 0 4H8",
        "M12 17.5v-11",
    ),
    "megaphone": ("m3 11 18-5v12L3 14v-3Z", "M11.6 16.8a3 3 0 1 1-5.8-1.6"),
    "file-check": (
        "M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8Z",
        "M14 2v6h6",
        "m9 15 2 2 4-4",
    ),
    "book": (
        "M4 19.5A2.5 2.5 0 0 1 6.5 17H20V2H6.5A2.5 2.5 0 0 0 4 4.5Z",
        "M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5",
    ),
    "settings": (
        "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z",
        "M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21"
        "a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0"
        " .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1"
        " 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0"
        " 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1"
        "a1.7 1.7 0 0 0-1.5 1Z",
    ),
    "user-plus": (
        "M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2",
        "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z",
        "M19 8v6",
        "M22 11h-6",
    ),
    "flag": ("M4 15s1-1 4-1 5 2 8 2 4-1 4-1V3s-1 1-4 1-5-2-8-2-4 1-4 1Z", "M4 22v-7"),
    "sidebar": ("M3 3h18v18H3Z", "M9 3v18"),
    "wallet": (
        "M19 7V4a1 1 0 0 0-1-1H5a2 2 0 0 0 0 4h15a1 1 0 0 1 1 1v4h-3a2 2 0 0 0 0 4h3a1 1 0 0 0 1-1v-2",
        "M3 5v14a2 2 0 0 0 2 2h15a1 1 0 0 0 1-1v-4",
    ),
    "edit": ("M12 20h9", "M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z"),
    "trash": (
        "M3 6h18",
        "M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6",
        "M10 11v6",
        "M14 11v6",
        "M9 6V4h6v2",
    ),
    "plus": ("M12 5v14", "M5 12h14"),
    "video": ("m22 8-6 4 6 4Z", "M2 6h14v12H2Z"),
    "package": (
        "m7.5 4.27 9 5.15",
        "M21 8a2 2 0 0 0-1-1.73l-7-4a2 2 0 0 0-2 0l-7 4A2 2 0 0 0 3 8v8a2 2 0 0 0 1 1.73l7 4a2 2 0 0 0 2 0l7-4A2 2 0 0 0 21 16Z",
        "m3.3 7 8.7 5 8.7-5",
        "M12 22V12",
    ),
    "truck": (
        "M14 18V6a2 2 0 0 0-2-2H4a2 2 0 0 0-2 2v11a1 1 0 0 0 1 1h2",
        "M15 18H9",
        "M19 18h2a1 1 0 0 0 1-1v-3.65a1 1 0 0 0-.22-.62l-3.48-4.35A1 1 0 0 0 17.52 8H14",
        "M17 20a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z",
        "M7 20a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z",
    ),
}


# Icons drawn filled as well as outlined (a rating's stars).
_FILLED = {"star-filled": "star"}
SIZES = (12, 14, 15, 16, 18, 20, 22, 24, 26, 28, 30, 32)


def icon(name: str, *, size: int = 20, label: str | None = None, class_name: str = "icon") -> VdomDict:
    """An icon; decorative (aria-hidden) unless a label is given."""
    if name not in _PATHS and name not in _FILLED:
        raise KeyError(f"No icon called {name!r}")
    if size not in SIZES:
        raise ValueError(f"Icon size {size} is not one of {SIZES} (static/css/icons.css)")
    attributes: dict = {"class_name": f"{class_name} i-{name} icon-{size}"}
    if label:
        attributes |= {"role": "img", "aria-label": label}
    else:
        attributes["aria-hidden"] = "true"
    return html.span(attributes)


def _svg(paths: tuple[str, ...], *, filled: bool) -> str:
    fill = "black" if filled else "none"
    body = "".join(f"<path d='{d}'/>" for d in paths)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='{fill}' stroke='black' "
        f"stroke-width='2' stroke-linecap='round' stroke-linejoin='round'>{body}</svg>"
    )


def stylesheet() -> str:
    """static/css/icons.css: one mask per icon, and the sizes."""
    rules = [
        "/* Written by `python -m components.icons` from components/icons.py: do not edit by hand. */",
        ".icon { display: inline-block; flex: none; vertical-align: middle; background-color: currentColor;",
        "  -webkit-mask: var(--icon) center / contain no-repeat; mask: var(--icon) center / contain no-repeat; }",
        "@media (forced-colors: active) { .icon { background-color: CanvasText; } }",
    ]
    pictures = {name: _svg(paths, filled=False) for name, paths in _PATHS.items()}
    pictures |= {name: _svg(_PATHS[source], filled=True) for name, source in _FILLED.items()}
    for name, picture in pictures.items():
        data = quote(picture, safe=" =/:'")
        rules.append(f'.i-{name} {{ --icon: url("data:image/svg+xml,{data}"); }}')
    rules.extend(f".icon-{size} {{ width: {size}px; height: {size}px; }}" for size in SIZES)
    return "\n".join(rules) + "\n"


if __name__ == "__main__":
    print(stylesheet(), end="")
