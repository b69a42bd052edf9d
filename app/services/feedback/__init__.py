"""What visitors tell us about the site: bug reports and unknown paths (the 404 tracker with suggestions).

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.feedback._bug_reports import (
    FIELDS_REQUIRED,
    SEND_FAILED,
    submit_bug_report,
)
from app.services.feedback._not_found import (
    record_unknown_path,
    suggest_page,
)

__all__ = [
    "FIELDS_REQUIRED",
    "SEND_FAILED",
    "record_unknown_path",
    "submit_bug_report",
    "suggest_page",
]
