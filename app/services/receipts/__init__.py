"""Receipts (issue 29, item 3): an order's receipt figures computed once (`get_receipt`: visits, credit lines
for cancelled visits and refunds, total, paid, refunded, due), the same figures as PDF
(`get_order_receipt`), and a visit's money for payments staff (`get_visit_money`: charged, refunds with
who and why, what is left to refund). Read from the order, its visits, the SPEC's transaction rows and the
ledger's refund entries through app.services.ledger's public helpers; a store order's receipt
(`get_store_order_receipt`, issue 29 item 4: its products, money lines and credit, `store_receipt`) from the
store's own read of the order; and what payments staff may refund for one patient (`list_refundables`, the
help desk's chooser). Nothing here writes but the audit of a download.
"""

from app.services.receipts._pdf import get_order_receipt
from app.services.receipts._refundables import list_refundables
from app.services.receipts._store import (
    NO_STORE_ORDER,
    StoreReceiptRead,
    get_store_order_receipt,
    store_receipt,
)
from app.services.receipts._totals import NO_ORDER, get_receipt
from app.services.receipts._visit_money import get_visit_money

__all__ = [
    "NO_ORDER",
    "NO_STORE_ORDER",
    "StoreReceiptRead",
    "get_order_receipt",
    "get_receipt",
    "get_store_order_receipt",
    "get_visit_money",
    "list_refundables",
    "store_receipt",
]
