"""Careers (issue 17, part 5): job postings HR (staff with manage_staff; owners have every permission) write
in Markdown and publish (`_postings`: draft, open, closed; every change audited); the applications anyone,
signed in or not, sends to an open posting, rate-limited, with a confirmation e-mail through the outbox
(`_applications`); the CVs, PDF or Word/ODT, type- and size-checked, staged when the browser uploads them
and downloaded only by HR, audited (`_files`). Applicants' personal data: every read of an application
checks manage_staff here, whatever the screen shows (`_access`).

Its public surface: the names below (`__all__`).
"""

from app.services.careers._access import can_manage_careers
from app.services.careers._applications import (
    apply_for_job,
    get_application,
    list_applications,
    next_statuses,
    update_application,
)
from app.services.careers._files import get_staged_cv, open_cv, stage_cv
from app.services.careers._postings import get_posting, list_open_postings, list_postings, save_posting
from app.services.shared.addresses import STATE_CODES

__all__ = [
    "STATE_CODES",
    "apply_for_job",
    "can_manage_careers",
    "get_application",
    "get_posting",
    "get_staged_cv",
    "list_applications",
    "list_open_postings",
    "list_postings",
    "next_statuses",
    "open_cv",
    "save_posting",
    "stage_cv",
    "update_application",
]
