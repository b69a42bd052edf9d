"""The typed domain events: what happened in a domain, for other domains to act on (app/events.py
publishes them; medivisit/subscribers.py says who listens).

Each is a frozen dataclass named by what happened. It carries ids and the few values its subscribers need
(amounts, times), never private text: a subscriber reads anything more through the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal


@dataclass(frozen=True)
class BookedVisit:
    """One visit of an order, as the ledger records it: whose time it is and its price."""

    appointment_id: str
    provider_id: str
    price: Decimal


@dataclass(frozen=True)
class OrderPlaced:
    """A patient booked an order whose money is settled at once: paid at the visit, or collected at
    checkout by a gateway that needs no confirmation (`paid_ahead`). An order that awaits a card payment is
    not placed in this sense until `PaymentCaptured`."""

    order_id: str
    patient_id: str
    visits: tuple[BookedVisit, ...]
    fee: Decimal
    paid_ahead: bool
    at: datetime


@dataclass(frozen=True)
class PaymentCaptured:
    """The card payment of an order awaiting payment came in (the processor's webhook, or the
    reconciliation job): its visits are booked and paid ahead."""

    order_id: str
    patient_id: str
    visits: tuple[BookedVisit, ...]
    fee: Decimal
    at: datetime


@dataclass(frozen=True)
class PaymentFailed:
    """The card payment of an order awaiting payment failed or expired: the order is cancelled and its
    visits released (`visit_ids`, with `provider_ids`). `confirmed_visit_ids`: those whose provider had
    already accepted them."""

    order_id: str
    order_number: str
    patient_id: str
    visit_ids: tuple[str, ...]
    provider_ids: tuple[str, ...]
    confirmed_visit_ids: tuple[str, ...]
    at: datetime


@dataclass(frozen=True)
class AppointmentConfirmed:
    """The provider (or staff) confirmed a pending visit."""

    appointment_id: str
    at: datetime


@dataclass(frozen=True)
class AppointmentRescheduled:
    """A visit moved to another time of the same provider, by `by` ("patient", or "staff" on the patient's
    behalf); it awaits the provider again."""

    appointment_id: str
    by: str
    at: datetime


@dataclass(frozen=True)
class AppointmentReassigned:
    """Staff gave a visit to another provider; it awaits the new provider's confirmation."""

    appointment_id: str
    from_provider_id: str
    to_provider_id: str
    at: datetime


@dataclass(frozen=True)
class AppointmentCancelled:
    """A visit was cancelled by `by` ("patient", "provider" or "staff"); its money is already settled."""

    appointment_id: str
    by: str
    at: datetime


@dataclass(frozen=True)
class AppointmentCompleted:
    """The provider completed a visit in progress: its money settles."""

    appointment_id: str
    at: datetime


@dataclass(frozen=True)
class VisitMoney:
    """Money of one visit that moved (in cents): what `PaymentCollected` and `RefundIssued` carry."""

    appointment_id: str
    order_id: str
    patient_id: str
    provider_id: str
    amount_cents: int
    at: datetime


@dataclass(frozen=True)
class PaymentCollected(VisitMoney):
    """A completed visit's money was collected (its price and its share of the order's fee)."""


@dataclass(frozen=True)
class RefundIssued(VisitMoney):
    """Money paid for a visit went back to the patient as wallet credit (a cancellation, or staff)."""


@dataclass(frozen=True)
class WalletCreditGranted:
    """Staff granted the patient wallet credit that refunds no visit (goodwill)."""

    patient_id: str
    amount_cents: int
    at: datetime
