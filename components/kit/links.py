"""Links: `button_link` (a link that looks like a button) and `mailto_href`."""

from __future__ import annotations

from urllib.parse import quote

from reactpy import html

from components.icons import icon


def button_link(label: str, href: str, *, variant: str = "primary", icon_name: str | None = None) -> dict:
    """`a.btn.btn-{variant}`: navigation that looks like a button (an icon after the label, if given)."""
    return html.a(
        {"class_name": f"btn btn-{variant}", "href": href},
        label,
        icon(icon_name, size=18) if icon_name else "",
    )


def mailto_href(address: str, subject: str | None = None) -> str:
    """A mailto: address, with the subject URL-encoded."""
    return f"mailto:{address}" + (f"?subject={quote(subject)}" if subject else "")
