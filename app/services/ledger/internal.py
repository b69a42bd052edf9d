"""The ledger domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.ledger._card_refunds import credit_failed_card_refund
from app.services.ledger._check import BREAKS_LISTED, LedgerBreak, LedgerCheck, check_ledger
from app.services.ledger._credit_spend import (
    credit_available,
    return_order_credit,
    spend_wallet_credit,
    wallet_credit,
)
from app.services.ledger._journal import post
from app.services.ledger._payout_transfers import settle_connected_payout
from app.services.ledger._reassign import follow_reassigned_visit, move_visit_charge
from app.services.ledger._refund_list import REFUNDED_TO, store_order_refunds, visit_refunds
from app.services.ledger._release import release_due_earnings
from app.services.ledger._visits import (
    paid_parts,
    post_booked_order,
    settle_completed_visit,
    settle_visit_completed,
    visit_payments,
)

__all__ = [
    "credit_available",
    "return_order_credit",
    "spend_wallet_credit",
    "wallet_credit",
    "BREAKS_LISTED",
    "LedgerBreak",
    "LedgerCheck",
    "check_ledger",
    "credit_failed_card_refund",
    "follow_reassigned_visit",
    "move_visit_charge",
    "post",
    "post_booked_order",
    "release_due_earnings",
    "settle_connected_payout",
    "settle_completed_visit",
    "settle_visit_completed",
    "paid_parts",
    "visit_payments",
    "REFUNDED_TO",
    "store_order_refunds",
    "visit_refunds",
]
