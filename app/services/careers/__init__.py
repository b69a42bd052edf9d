"""Careers (issue 17, part 5): job postings HR (staff with manage_staff; owners have every permission) write
in Markdown and publish (`_postings`: draft, open, closed; every change audited); the applications anyone,
signed in or not, sends to an open posting, rate-limited, with a confirmation e-mail through the outbox
(`_applications`); the CVs, PDF or Word/ODT, type- and size-checked, staged when the browser uploads them
and downloaded only by HR, audited (`_files`). Applicants' personal data: every read of an application
checks manage_staff here, whatever the screen shows (`_access`).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_access": ("can_manage_careers",),
    "_applications": (
        "apply_for_job",
        "get_application",
        "list_applications",
        "next_statuses",
        "update_application",
    ),
    "_files": ("get_staged_cv", "open_cv", "stage_cv"),
    "_postings": (
        "STATE_CODES",
        "get_posting",
        "list_open_postings",
        "list_postings",
        "save_posting",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
