"""What visitors tell us about the site: bug reports and unknown paths (the 404 tracker with suggestions).

Its public surface: the names below (`__all__`).
"""

from app.services.feedback._bug_reports import FIELDS_REQUIRED, SEND_FAILED, submit_bug_report
from app.services.feedback._not_found import record_unknown_path, suggest_page

__all__ = [
    "FIELDS_REQUIRED",
    "SEND_FAILED",
    "record_unknown_path",
    "submit_bug_report",
    "suggest_page",
]
