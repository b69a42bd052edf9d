"""Money (issue 14): a double-entry ledger in integer cents (`_journal`: accounts, balanced entries, the one
`post`), each visit's money from checkout to refund (`_visits`: subscribed to `OrderPlaced` and
`PaymentCaptured`, called by the visit lifecycle), what a provider collected in person at a pay-at-visit
visit (`_collections`), the dispute window (`_release`, a periodic job), payout requests (`_payouts`) and the reads the
wallet, provider-wallet, payout-queue and revenue screens need (`_reads`), and the PDF documents: a receipt
per order and a provider's monthly statement (`_documents`). See models/ledger.py for the
accounts and why balances live in their rows.

Its public surface: the names below (`__all__`).
"""

from app.services.ledger._breakdown import get_revenue_breakdown
from app.services.ledger._collections import record_visit_payment
from app.services.ledger._documents import (
    get_monthly_statement,
    list_statement_months,
    monthly_statement_pdf,
)
from app.services.ledger._journal import FEES, WORLD, InsufficientFunds, Leg, cents, dollars, move
from app.services.ledger._payout_transfers import send_payout_transfer
from app.services.ledger._payouts import (
    approve_payout,
    list_my_payouts,
    list_payout_queue,
    mark_payout_failed,
    mark_payout_paid,
    mark_payout_sent,
    reject_payout,
    request_payout,
)
from app.services.ledger._reads import (
    get_my_wallet,
    get_provider_balances,
    get_revenue_summary,
    list_my_wallet_history,
    list_provider_statement,
)
from app.services.ledger._rules import REFUND_NEEDS_EXCEPTION, REFUND_NOTICE_HOURS
from app.services.ledger._visits import (
    grant_wallet_credit,
    refund_visit,
    settle_cancelled_visit,
    split_fee,
)

__all__ = [
    "FEES",
    "InsufficientFunds",
    "Leg",
    "REFUND_NEEDS_EXCEPTION",
    "REFUND_NOTICE_HOURS",
    "WORLD",
    "approve_payout",
    "cents",
    "dollars",
    "get_monthly_statement",
    "get_my_wallet",
    "get_provider_balances",
    "get_revenue_breakdown",
    "get_revenue_summary",
    "grant_wallet_credit",
    "list_my_payouts",
    "list_my_wallet_history",
    "list_payout_queue",
    "list_provider_statement",
    "list_statement_months",
    "mark_payout_failed",
    "mark_payout_paid",
    "mark_payout_sent",
    "monthly_statement_pdf",
    "move",
    "record_visit_payment",
    "refund_visit",
    "reject_payout",
    "request_payout",
    "send_payout_transfer",
    "settle_cancelled_visit",
    "split_fee",
]
