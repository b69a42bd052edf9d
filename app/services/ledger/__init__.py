"""Money (issue 14): a double-entry ledger in integer cents (`_journal`: accounts, balanced entries, the one
`post`), each visit's money from checkout to refund (`_visits`, wired into booking and the visit
lifecycle), the dispute window (`_release`, a periodic job), payout requests (`_payouts`) and the reads the
wallet, provider-wallet, payout-queue and revenue screens need (`_reads`), and the PDF documents: a receipt
per order and a provider's monthly statement (`_documents`). See models/ledger.py for the
accounts and why balances live in their rows.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_documents": (
        "get_monthly_statement",
        "get_order_receipt",
        "list_statement_months",
        "monthly_statement_pdf",
    ),
    "_breakdown": ("get_revenue_breakdown",),
    "_journal": (
        "FEES",
        "InsufficientFunds",
        "Leg",
        "WORLD",
        "cents",
        "dollars",
        "move",
        "post",
        "write_lock",
    ),
    "_payouts": (
        "approve_payout",
        "list_my_payouts",
        "list_payout_queue",
        "mark_payout_failed",
        "mark_payout_paid",
        "mark_payout_sent",
        "reject_payout",
        "request_payout",
    ),
    "_reads": (
        "get_my_wallet",
        "get_provider_balances",
        "get_revenue_summary",
        "list_my_wallet_history",
        "list_provider_statement",
    ),
    "_release": ("release_due_earnings",),
    "_rules": ("REFUND_NEEDS_EXCEPTION", "REFUND_NOTICE_HOURS"),
    "_reassign": ("move_visit_charge",),
    "_visits": (
        "grant_wallet_credit",
        "post_booked_order",
        "refund_visit",
        "settle_cancelled_visit",
        "settle_completed_visit",
        "split_fee",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
