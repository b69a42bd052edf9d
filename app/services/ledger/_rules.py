"""The ledger's words and limits, and the one gate of its staff commands (process_payments)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.shared.staff_access import require_permission
from models.account import AccountRead
from models.staff import Permission

REFUND_NOTICE_HOURS = 24  # a paid visit cancelled at least this long before it starts is refunded in full
MAX_REASON = 500
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
RELEASE_BATCH = 500

NO_VISIT = "No visit has this id."
AWAITING_PAYMENT = (
    "This visit's order is waiting for its card payment: it can be changed once the payment is confirmed "
    "(if the payment fails, its visits are released)."
)
NOT_COMPLETED = "Only a completed visit can be refunded this way; cancelling a visit refunds it."
NOTHING_LEFT = "This visit has already been refunded in full."
REFUND_TOO_MUCH = "Refund between $0.01 and ${left} (what is left of this visit)."
REFUND_REASON_REQUIRED = "Please give the reason for the refund."
REFUND_NEEDS_EXCEPTION = (
    "This visit was paid and starts within 24 hours: it can be cancelled with a refund only by staff, "
    "as an exception with its reason."
)
REFUND_ALREADY_PAID_OUT = (
    "The provider's earning of this visit has already been paid out; it cannot be reversed here."
)
REFUND_IN_PERSON = (
    "The provider was paid for this visit in person and has not enough available earnings to take their "
    "share back from; refund less, or ask the provider to refund the patient."
)
NO_PROFILE = "Your account has no provider profile."
NO_PAYOUT = "No payout request has this id."
BELOW_MINIMUM = "The smallest payout is ${minimum}."
ABOVE_AVAILABLE = "You can request at most ${available}, your available balance."
NETTED_FIRST = " (${netted} of your earnings first settle the platform fees you collected at visits.)"
ONE_OPEN = "You already have a payout request in progress; wait until it is paid or closed."
REASON_REQUIRED = "Please give the reason."
REFERENCE_REQUIRED = "Enter the bank transfer's reference, so the provider can find the payment."
REFERENCE_TOO_LONG = "Keep the transfer reference under 65 characters."
SAME_APPROVER = "A payout of this size needs a second approver other than the first."
OWN_PAYOUT = "You cannot approve or handle a payout to yourself."
BAD_STEP = "This payout is {status}; it cannot be {action}."
BAD_GRANULARITY = "Choose day, week or month."
BAD_SPLIT = "Split revenue by service line or by metro."
BAD_RANGE = "The end of the period must be after its start."
CREDIT_TOO_SMALL = "Credit at least $0.01."
NO_PATIENT = "No account has this id."


async def require_payments_staff(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member holding process_payments; PermissionDenied for anyone else."""
    return await require_permission(session=session, actor=actor, permission=Permission.process_payments)
