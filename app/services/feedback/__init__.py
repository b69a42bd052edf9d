"""What visitors tell us about the site: bug reports and unknown paths (the 404 tracker with suggestions).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_bug_reports": (
        "FIELDS_REQUIRED",
        "SEND_FAILED",
        "submit_bug_report",
    ),
    "_not_found": (
        "record_unknown_path",
        "suggest_page",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
