"""`public_page`: a public screen — its `page_header` band (eyebrow, h1, lead) and then its bands, one after
the other (`section`, `band`, `cta_band` …). The signed-in screens' counterpart is `portal_page` with its
`portal_header`; a public page has no wrapper of its own, so this is a fragment."""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components.kit.headers import page_header


def public_page(title: str, *bands: Any, lead: str | None = None, eyebrow: str | None = None) -> VdomDict:
    """The `page_header` (`title`, `lead`, `eyebrow`), then `bands`."""
    return html._(page_header(title, lead, eyebrow=eyebrow), *bands)
