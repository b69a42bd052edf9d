"""The payments domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.payments._ad_payments import (
    expire_ad_checkouts,
    open_ad_payment,
    paid_ad_payment,
    refund_ad_payment,
    start_ad_checkout,
)
from app.services.payments._connect import payout_account_of, payout_accounts_of, transfer_payout
from app.services.payments._reconcile import reconcile_card_payments
from app.services.payments._refunds import card_refundable, send_card_refund, store_card_refundable

__all__ = [
    "expire_ad_checkouts",
    "open_ad_payment",
    "paid_ad_payment",
    "refund_ad_payment",
    "start_ad_checkout",
    "card_refundable",
    "payout_account_of",
    "payout_accounts_of",
    "reconcile_card_payments",
    "send_card_refund",
    "store_card_refundable",
    "transfer_payout",
]
