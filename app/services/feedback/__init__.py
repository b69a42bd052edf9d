"""What visitors tell us about the site: bug reports and unknown paths (the 404 tracker with suggestions).

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
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
