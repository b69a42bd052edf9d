"""The disputes domain's words and limits."""

from __future__ import annotations

MAX_DETAILS = 2000
MAX_NOTE = 500
PAGE_SIZE = 20
MAX_PAGE = 1000

NO_VISIT = "No visit has this id."
NO_DISPUTE = "No reported problem has this id."
NOT_YOUR_VISIT = "Only the patient of this visit can report a problem with it."
NOT_COMPLETED = "A problem can be reported once the visit is completed."
NOT_PENDING = (
    "This visit's payment has already been settled with the provider, so a problem can no longer be "
    "reported here. Please contact support."
)
WINDOW_CLOSED = (
    "Problems can be reported within {hours} hours of a visit's completion; this visit's window has closed. "
    "Please contact support."
)
ALREADY_RESOLVED_FOR_PATIENT = (
    "We have already resolved the problem you reported with this visit; please contact support if something "
    "is still wrong."
)
ALREADY_OPEN = "You have already reported a problem with this visit; we're looking into it."
BAD_REASON = "Choose what went wrong from the list."
DETAILS_REQUIRED = "Please tell us what happened."
DETAILS_TOO_LONG = "Please keep the details to 2,000 characters or fewer."
ALREADY_RESOLVED = "This reported problem has already been resolved."
BAD_OUTCOME = "Choose a full refund, a partial refund or reject."
AMOUNT_REQUIRED = "Enter the amount of the partial refund."
NOTE_REQUIRED = "Please write a note for the patient saying why the report is rejected."
NOTE_TOO_LONG = "Please keep the note to 500 characters or fewer."
BAD_FILTER = "Show open or resolved reports."
