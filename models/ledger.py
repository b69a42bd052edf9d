"""The money ledger (issue 14): double-entry accounts, immutable postings in integer cents grouped in balanced
journal entries, each visit's money (`VisitCharge`) and providers' payout requests.

Accounts hold value, Formance-style: a posting's `amount` is what its account gains (negative: what it gives),
the postings of an entry sum to zero, and an account's balance is the sum of its postings. Nothing may go
below zero but the outside world (`world`: patients' and providers' banks, cash handed over at a visit).

| kind | owner | holds |
|---|---|---|
| world | — | the outside world (the only account allowed below zero) |
| patient_booked | patient | the value of the patient's booked visits not yet completed or cancelled: owed at the visit (pay at visit) or paid ahead (a gateway that collects at checkout); and what is still due of pay-at-visit visits completed without (full) payment |
| patient_credit | patient | wallet credit: refunds and goodwill adjustments the platform owes the patient |
| provider_pending | provider profile | earnings of completed visits inside the dispute window |
| provider_available | provider profile | earnings a provider may request a payout of |
| provider_payout | provider profile | money of an open payout request (requested, approved, in transit) |
| provider_receivable | provider profile | what the provider owes the platform: fees they collected in hand at pay-at-visit visits, netted against their card earnings when they request a payout |
| platform_fees | — | the platform's fees |
| platform_invoices | — | what the platform's invoices brought in (paid invoices: world → here) |
| store_sales | — | the price of store products delivered (and not returned), with their shipping |
| sales_tax | — | sales tax collected on store products delivered (and not returned), owed to the tax authorities |
| ad_prepaid | ad flight | an ad flight's budget paid by card and not yet delivered: owed to the advertiser until its views are served (then ad revenue) or refunded |
| ad_revenue | — | ad flights' delivered spend (paid by card) |

Balances, two ways (`app.services.ledger._journal.post` is the one place that writes postings):
- a person's account (patient_*, provider_*) keeps its balance in a `ledger_accounts` row, changed with the
  postings by one atomic `balance = balance + delta` UPDATE whose CHECK constraint refuses a balance below
  zero: reading it is one row, and concurrent writers of one account serialise on its row lock (the rows of
  one entry are locked in id order). These accounts are many and each is written rarely.
- the platform's accounts (world, platform_fees, store_sales, platform_invoices) have no row: their balance is the indexed sum of their
  postings. Every booking and completion touches them, so a kept balance would be one row every checkout in
  the country waits on. The world may be negative by definition; the fees account cannot go below zero
  because a fee is only ever reversed by refunding the visit it was collected for, at most its share
  (`ledger_visit_charges`' CHECK `refunded_fee <= fee`).
Postings and entries are never updated or deleted (triggers in migration 0023): a correction is a new entry.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from decimal import Decimal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import BigInteger, Boolean, CheckConstraint, Enum, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow


class AccountKind(enum.StrEnum):
    world = "world"
    patient_booked = "patient_booked"
    patient_credit = "patient_credit"
    provider_pending = "provider_pending"
    provider_available = "provider_available"
    provider_payout = "provider_payout"
    provider_receivable = "provider_receivable"
    platform_fees = "platform_fees"
    platform_invoices = "platform_invoices"
    store_sales = "store_sales"
    sales_tax = "sales_tax"
    ad_prepaid = "ad_prepaid"
    ad_revenue = "ad_revenue"


class EntryKind(enum.StrEnum):
    """Why money moved (one journal entry each)."""

    order_placed = "order_placed"  # world → patient_booked: a visit booked (owed, or paid ahead)
    booking_voided = "booking_voided"  # patient_booked → world: a cancelled visit nobody paid for yet
    visit_completed = "visit_completed"  # patient_booked → provider_pending + platform_fees (paid ahead)
    # Pay at visit: what the provider collected in person. patient_booked → world (the provider's price,
    # paid to them at the door) + provider_receivable (the platform's fee, in the provider's hands).
    collected_at_visit = "collected_at_visit"
    # A payout request nets the receivable against the provider's available earnings: provider_available
    # and provider_receivable −x, platform_fees and world +x.
    fee_netted = "fee_netted"
    earning_released = "earning_released"  # provider_pending → provider_available after the dispute window
    refund = "refund"  # patient_booked, or provider earning + platform fee → patient_credit
    payout_requested = "payout_requested"  # provider_available → provider_payout
    payout_returned = "payout_returned"  # provider_payout → provider_available (rejected or failed)
    payout_paid = "payout_paid"  # provider_payout → world
    credit_adjustment = "credit_adjustment"  # world → patient_credit: goodwill by staff
    invoice_paid = "invoice_paid"  # world → platform_invoices: an invoice's payment recorded by staff
    # The store (app/services/store); a return after delivery is a `refund` (store_sales + fees → credit).
    store_order_placed = "store_order_placed"  # world → patient_booked: products owed on delivery
    store_order_voided = "store_order_voided"  # patient_booked → world: canceled before shipping
    store_order_delivered = "store_order_delivered"  # patient_booked → store_sales + platform_fees
    # Paid by card at checkout (issue 29 item 4): world → store_sales + sales_tax + platform_fees.
    store_order_paid = "store_order_paid"
    # Wallet credit spent at checkout (issue 29 item 3, app/services/ledger `_credit_spend`).
    credit_spent = "credit_spent"  # patient_credit → patient_booked: part or all of an order paid by credit
    credit_returned = "credit_returned"  # patient_booked → patient_credit: that credit given back
    # Pay at visit: the credit part of a completed visit → provider_available (price) + platform_fees (fee).
    credit_settled = "credit_settled"
    # Ads paid by card (issue 29 item 5, app/services/ads `_billing`).
    ad_paid = "ad_paid"  # world → ad_prepaid: a flight's budget paid
    ad_delivered = "ad_delivered"  # ad_prepaid → ad_revenue: the views it served
    ad_refunded = "ad_refunded"  # ad_prepaid → world: its unspent budget back to the card


class DiscountFunding(enum.StrEnum):
    """Who pays for a sale's discount (the business setting `discount_funding`)."""

    platform = "platform"  # MediVisit: the provider earns their full price
    provider = "provider"  # the provider: their earning is the discounted price


class CollectionMethod(enum.StrEnum):
    """How a pay-at-visit visit's money was collected in person."""

    card_reader = "card_reader"
    cash = "cash"
    other = "other"

    @property
    def label(self) -> str:
        return {"card_reader": "card reader", "cash": "cash", "other": "other"}[self.value]


MAX_TRANSFER_REFERENCE = 64


class PayoutStatus(enum.StrEnum):
    pending = "pending"  # requested, waiting for approval (or for its second approver)
    approved = "approved"
    in_transit = "in_transit"
    paid = "paid"
    rejected = "rejected"
    failed = "failed"


OPEN_PAYOUT = (PayoutStatus.pending, PayoutStatus.approved, PayoutStatus.in_transit)
_OPEN_PAYOUT_SQL = "status IN ('pending', 'approved', 'in_transit')"


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=24)


# Summed from postings, no row.
PLATFORM_KINDS = (
    AccountKind.world,
    AccountKind.platform_fees,
    AccountKind.store_sales,
    AccountKind.platform_invoices,
    AccountKind.sales_tax,
    AccountKind.ad_revenue,
)


class LedgerAccount(Base):
    """A person's account and its balance (the platform's accounts have no row: see the module's notes)."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        Index("ix_ledger_accounts_owner", "owner_id", "kind", unique=True),
    )

    # Derived from kind and owner ("provider_available:<provider id>", "platform_fees"), so a posting finds
    # its account without a look-up and the first posting creates it (an upsert).
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[AccountKind] = mapped_column(_enum(AccountKind))
    owner_id: Mapped[str] = mapped_column(String(36), default="")
    balance: Mapped[int] = mapped_column(BigInteger, default=0)  # cents
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class JournalEntry(Base):
    __tablename__ = "ledger_entries"
    __table_args__ = (
        Index("ix_ledger_entries_kind_created", "kind", "created_at"),
        Index("ix_ledger_entries_appointment", "appointment_id"),
        Index("ix_ledger_entries_payout", "payout_id"),
    )

    id: Mapped[str] = id_column()
    kind: Mapped[EntryKind] = mapped_column(_enum(EntryKind))
    description: Mapped[str] = mapped_column(String(200), default="")
    # What it belongs to (plain ids, no foreign keys: the journal outlives what it describes).
    order_id: Mapped[str | None] = mapped_column(String(36), default=None)
    appointment_id: Mapped[str | None] = mapped_column(String(36), default=None)
    payout_id: Mapped[str | None] = mapped_column(String(36), default=None)
    actor_id: Mapped[str | None] = mapped_column(String(36), default=None)
    reason: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Posting(Base):
    __tablename__ = "ledger_postings"
    __table_args__ = (
        Index("ix_ledger_postings_account_created", "account_id", "created_at"),
        Index("ix_ledger_postings_entry", "entry_id"),
        Index("ix_ledger_postings_kind_created", "account_kind", "created_at"),
        CheckConstraint("amount <> 0", name="amount_not_zero"),
    )

    id: Mapped[str] = id_column()
    entry_id: Mapped[str] = mapped_column(ForeignKey("ledger_entries.id", ondelete="RESTRICT"))
    # No foreign key: the platform's accounts have no row (the id says the kind and the owner).
    account_id: Mapped[str] = mapped_column(String(64))
    account_kind: Mapped[AccountKind] = mapped_column(_enum(AccountKind))
    amount: Mapped[int] = mapped_column(BigInteger)  # cents the account gains (negative: gives)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class VisitCharge(Base):
    """One visit's money: its price and its share of the order's platform fee (the fee split over the
    order's visits by price, so the shares add up to the order's fee to the cent), whether it was collected,
    refunded, and when its earning was released to the provider."""

    __tablename__ = "ledger_visit_charges"
    __table_args__ = (
        Index(
            "ix_ledger_visit_charges_release_due",
            "completed_at",
            sqlite_where=text("released_at IS NULL AND completed_at IS NOT NULL"),
            postgresql_where=text("released_at IS NULL AND completed_at IS NOT NULL"),
        ),
        Index("ix_ledger_visit_charges_provider", "provider_id", "completed_at"),
        Index("ix_ledger_visit_charges_order", "order_id"),
        CheckConstraint("refunded_earning <= price AND refunded_fee <= fee", name="refund_within_charge"),
    )

    appointment_id: Mapped[str] = mapped_column(
        ForeignKey("appointments.id", ondelete="CASCADE"), primary_key=True
    )
    order_id: Mapped[str] = mapped_column(String(36))
    patient_id: Mapped[str] = mapped_column(String(36))
    provider_id: Mapped[str] = mapped_column(String(36))
    price: Mapped[int] = mapped_column(BigInteger)  # cents
    fee: Mapped[int] = mapped_column(BigInteger)  # cents: this visit's share of the order's fee
    paid_ahead: Mapped[bool] = mapped_column(Boolean, default=False)  # collected at checkout
    voided_at: Mapped[datetime | None] = mapped_column(default=None)  # cancelled, nothing collected
    completed_at: Mapped[datetime | None] = mapped_column(default=None)  # collected; earning pending
    released_at: Mapped[datetime | None] = mapped_column(default=None)  # earning moved to available
    refunded_earning: Mapped[int] = mapped_column(BigInteger, default=0)  # cents of price refunded
    refunded_fee: Mapped[int] = mapped_column(BigInteger, default=0)  # cents of fee refunded
    # Pay at visit (never paid ahead): what the provider or payments staff recorded as collected in person,
    # in all (cents; the provider's price first, then the fee), and the latest collection's method, who
    # recorded it and when. Each collection is also its own `collected_at_visit` entry (its actor, time,
    # and method in its description). A completed charge with collected < price + fee is payment due.
    collected: Mapped[int] = mapped_column(BigInteger, default=0)
    collection_method: Mapped[str | None] = mapped_column(String(16), default=None)
    collected_by: Mapped[str | None] = mapped_column(String(36), default=None)
    collected_at: Mapped[datetime | None] = mapped_column(default=None)
    # The sale's discount on this visit (cents: its original price minus `price`) and who funds it, as the
    # business setting "Who pays for discounts" said when the order was booked (None: no discount).
    # Platform-funded: the provider earns price + discount and the platform's fee leg carries the discount;
    # provider-funded: the provider earns `price`. `refunded_discount` is the part of a platform-funded
    # discount refunds reversed from the provider's earning (in proportion to what was refunded).
    discount: Mapped[int] = mapped_column(BigInteger, default=0)
    discount_funded_by: Mapped[str | None] = mapped_column(String(16), default=None)
    refunded_discount: Mapped[int] = mapped_column(BigInteger, default=0)
    # Cents of this visit's price + fee paid from wallet credit at checkout (its share of the order's
    # `OrderCredit`, models/checkout_credit.py); the rest is paid by card or at the visit.
    credit: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @property
    def platform_discount(self) -> int:
        """Cents of the discount the platform funds (0 when there is none or the provider funds it)."""
        return self.discount if self.discount_funded_by == DiscountFunding.platform else 0


class PayoutRequest(Base):
    __tablename__ = "payout_requests"
    __table_args__ = (
        # One open request per provider at a time, in the database itself.
        Index(
            "ix_payout_requests_one_open",
            "provider_id",
            unique=True,
            sqlite_where=text(_OPEN_PAYOUT_SQL),
            postgresql_where=text(_OPEN_PAYOUT_SQL),
        ),
        Index("ix_payout_requests_status_requested", "status", "requested_at"),
        Index("ix_payout_requests_provider_requested", "provider_id", "requested_at"),
        CheckConstraint("amount > 0", name="amount_positive"),
    )

    id: Mapped[str] = id_column()
    provider_id: Mapped[str] = mapped_column(String(36))
    requested_by: Mapped[str] = mapped_column(String(36))
    amount: Mapped[int] = mapped_column(BigInteger)  # cents
    status: Mapped[PayoutStatus] = mapped_column(_enum(PayoutStatus), default=PayoutStatus.pending)
    approvals_needed: Mapped[int] = mapped_column(default=1)  # 2 above the threshold
    first_approver_id: Mapped[str | None] = mapped_column(String(36), default=None)
    second_approver_id: Mapped[str | None] = mapped_column(String(36), default=None)
    decided_by: Mapped[str | None] = mapped_column(
        String(36), default=None
    )  # who rejected, sent, paid, failed
    reason: Mapped[str] = mapped_column(String(500), default="")  # of the rejection or the failure
    transfer_reference: Mapped[str] = mapped_column(String(MAX_TRANSFER_REFERENCE), default="")  # the bank's
    # The Stripe transfer it was sent by (Stripe Connect), else None: sent by bank transfer, by staff.
    transfer_id: Mapped[str | None] = mapped_column(String(255), default=None, unique=True)
    transaction_id: Mapped[str | None] = mapped_column(String(36), default=None)  # its `payout` transaction
    requested_at: Mapped[datetime] = mapped_column(default=utcnow)
    approved_at: Mapped[datetime | None] = mapped_column(default=None)
    sent_at: Mapped[datetime | None] = mapped_column(default=None)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)  # paid, rejected or failed
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


# ---- read schemas ------------------------------------------------------------------------------
class WalletRead(BaseModel):
    """A patient's wallet: credit they may spend, and the value of their booked visits not yet completed
    (owed at the visit, or paid ahead)."""

    model_config = ConfigDict(frozen=True)

    credit: Decimal
    booked: Decimal


class WalletLineRead(BaseModel):
    """One movement of a patient's wallet credit."""

    model_config = ConfigDict(frozen=True)

    entry_id: str
    kind: EntryKind
    amount: Decimal  # credit gained (negative: spent)
    description: str
    order_id: str | None
    appointment_id: str | None
    created_at: datetime
    order_number: str | None = None  # its receipt's address (/api/orders/{number}/receipt.pdf)


class WalletPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[WalletLineRead]
    total: int
    page: int
    page_size: int


class ProviderBalancesRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    provider_id: str
    pending: Decimal  # inside the dispute window
    available: Decimal  # may be requested
    in_payout: Decimal  # in an open payout request
    paid_out: Decimal  # paid payouts, all time
    # Pay at visit: the platform's fees the provider collected in hand and still owes (netted against their
    # available earnings at their next payout request), and what was netted so far, all time.
    owed_to_platform: Decimal = Decimal("0.00")
    fees_netted: Decimal = Decimal("0.00")
    collected_at_visits: Decimal = Decimal("0.00")  # the provider's prices collected in person, all time


class StatementLineRead(BaseModel):
    """One completed visit in a provider's statement."""

    model_config = ConfigDict(frozen=True)

    appointment_id: str
    order_id: str
    starts_at: datetime
    completed_at: datetime
    service_name: str
    price: Decimal
    platform_fee: Decimal  # the visit's share of the order's fee (paid by the patient on top)
    refunded: Decimal  # of the provider's earning
    earning: Decimal  # price (plus a discount MediVisit funds) minus refunded
    # A sale's discount on the visit: its original price, the discount and who funded it ("platform" or
    # "provider"; None without a discount).
    original_price: Decimal | None = None
    discount: Decimal = Decimal("0.00")
    discount_funded_by: str | None = None
    discount_note: str = ""  # 'Flash sale −$42.00, funded by MediVisit' (or 'by you'); '' without a discount
    released_at: datetime | None
    releases_at: datetime | None  # when the dispute window ends (None once released)
    # Pay at visit: the earning was collected in person (no dispute window, never paid out by us).
    collected_in_person: bool = False
    collection_method: str | None = None  # a CollectionMethod's value, the latest collection's
    payment_due: Decimal = Decimal("0.00")  # still owed by the patient


class VisitPaymentRead(BaseModel):
    """A visit's money as the visit screens show it: what the patient pays for it (the price and its share of
    the order's fee), whether that was paid at booking, what was collected in person and what is still due."""

    model_config = ConfigDict(frozen=True)

    appointment_id: str
    paid_ahead: bool
    total: Decimal
    collected: Decimal
    due: Decimal  # of a visit not paid ahead and not cancelled: total − collected
    collection_method: str | None = None


class StatementPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: list[StatementLineRead]
    total: int
    page: int
    page_size: int


class MonthlyStatementRead(BaseModel):
    """A provider's month from the ledger (dollars). Available balance: opening + released − refunds
    reversed − fees netted − payouts requested + payouts returned = closing."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    provider_name: str
    month: str  # YYYY-MM
    opening_available: Decimal
    closing_available: Decimal
    earned: Decimal  # completed visits' earnings (into pending)
    released: Decimal  # pending → available after the dispute window
    refunds_reversed: Decimal  # earnings taken back by refunds (pending or available)
    payouts_requested: Decimal
    payouts_returned: Decimal
    payouts_paid: Decimal
    fees_netted: Decimal = Decimal("0.00")  # fees collected at pay-at-visit visits, netted at payouts


class PayoutRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    provider_id: str
    provider_name: str
    amount: Decimal
    status: PayoutStatus
    approvals_needed: int
    first_approver_id: str | None
    second_approver_id: str | None
    reason: str
    requested_at: datetime
    approved_at: datetime | None
    sent_at: datetime | None
    closed_at: datetime | None
    transfer_reference: str = ""  # the bank transfer's reference staff recorded when they sent it
    # Stripe Connect: staff send it by transfer to the provider's connected account (not "Mark sent").
    by_transfer: bool = False
    notice: str = ""  # what the step could not do (a transfer Stripe refused: the payout stays approved)


class RevenueRowRead(BaseModel):
    """One period of the revenue summary. gross: value of completed visits and of store orders delivered or
    paid by card (prices and fees); fees: fees earned at completion, delivery or a store order's card
    payment; refunds: given back to patients (wallet credit or to the card); payouts: paid to providers;
    invoiced: invoices paid to the platform; ads: ad flights' spend delivered (prepaid by card); net: what
    the platform kept (fees minus fees refunded, plus invoices paid and ads delivered)."""

    model_config = ConfigDict(frozen=True)

    period: date
    gross: Decimal
    fees: Decimal
    refunds: Decimal
    payouts: Decimal
    invoiced: Decimal
    ads: Decimal
    net: Decimal


class RevenueSummaryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    granularity: str
    rows: list[RevenueRowRead]  # oldest first
    totals: RevenueRowRead  # period: the first row's (or the start's)


class RevenueGroupRead(BaseModel):
    """One service line's or metro's revenue (or the totals): the summary's figures but payouts, which are
    paid to providers rather than per visit."""

    model_config = ConfigDict(frozen=True)

    label: str
    gross: Decimal
    fees: Decimal
    refunds: Decimal
    net: Decimal


class RevenueBreakdownRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    split: str  # service_line or metro
    groups: list[RevenueGroupRead]  # largest gross first
    totals: RevenueGroupRead
