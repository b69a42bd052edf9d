"""Links: `button_link` (a link that looks like a button) and `mailto_href`."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import quote

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import classes


def button_link(
    label: Any,
    href: str,
    *,
    variant: str = "primary",
    size: Literal["md", "sm"] = "md",
    icon_name: str | None = None,
    class_name: str | None = None,
    **attributes: Any,
) -> VdomDict:
    """`a.btn.btn-{variant}` (`btn-sm` when small): navigation that looks like a button, an icon after the
    label if given; other `attributes` (aria-label, key, download …) go on the link."""
    return html.a(
        {
            **attributes,
            "class_name": classes("btn", f"btn-{variant}", size == "sm" and "btn-sm", class_name),
            "href": href,
        },
        label,
        icon(icon_name, size=18) if icon_name else "",
    )


def mailto_href(address: str, subject: str | None = None) -> str:
    """A mailto: address, with the subject URL-encoded."""
    return f"mailto:{address}" + (f"?subject={quote(subject)}" if subject else "")
