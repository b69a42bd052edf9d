"""Visit disputes (issue 29, item 3): "Report a problem with this visit" while the visit's earning is pending.

- `report_visit_problem`: the visit's patient, a completed visit inside the dispute window whose earning is not
  yet released, one report per visit, a reason from the fixed list and details (≤ 2,000 characters).
  While it is open the ledger's release job leaves the earning pending.
- `resolve_dispute`: payments staff (process_payments) refund in full or in part (the ledger's `refund_visit`
  in the same unit of work) or reject with a note; the next release run releases what is left once the
  window has passed.
- Reads: `get_visit_dispute` (the patient's visit card), `list_dispute_queue` (the staff queue on Revenue).
Both steps are audited and publish DisputeOpened / DisputeResolved; the notifications domain tells both sides.
"""

from app.services.disputes._commands import report_visit_problem, resolve_dispute
from app.services.disputes._reads import get_visit_dispute, list_dispute_queue
from app.services.disputes._rules import MAX_DETAILS, MAX_NOTE

__all__ = [
    "MAX_DETAILS",
    "MAX_NOTE",
    "get_visit_dispute",
    "list_dispute_queue",
    "report_visit_problem",
    "resolve_dispute",
]
