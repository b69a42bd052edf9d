"""Visits of the demo marketplace: orders, appointments, their transactions and the reviews of completed
visits, written the way checkout (`booking.place_order`) and a card payment (`payments`' webhook) leave them
at booking: every demo order was paid by card at checkout (paid ahead, the recommended mode), so its booking
and fee transactions are settled when it was placed. What happened next (completion, cancellation) is the
ledger's to record (`_money`), which also settles the order's status.

Everything is planned in memory from a seeded `random.Random` and placed relative to `now`: completed and
cancelled visits in the past, pending and confirmed ones UPCOMING days ahead, each inside its provider's
weekly hours (in the provider's time zone) and clear of the provider's other visits and travel buffer (the
database's no-overlap rule). Upcoming visits start UPCOMING[0] days ahead at the earliest, which keeps
today and the next few days open for people trying the demo (and for the browser tests that book them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from app import flags
from app.services.appointments import public_author_name
from app.services.booking import ORDER_ALPHABET
from app.services.catalog import price_for
from app.services.payments import GATEWAYS
from app.services.providers import Hours
from app.services.shared.fees import PLATFORM_FEE_PERCENT, platform_fee
from models.account import AccountRead
from models.base import Base, new_id
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    OrderStatus,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.catalog import Service, ServiceLocation, locations_of
from models.provider import Review

PAST = (3, 150)  # completed and cancelled visits: this many days ago
UPCOMING = (5, 14)  # pending and confirmed visits: this many days ahead
STEP = 30  # visits start on the half hour

COMMENTS = {
    5: (
        "On time, gentle and very professional.", "Found the vein on the first try. Highly recommend.",
        "Explained every step and made my mother feel at ease.", "Easy to book and arrived early.",
        "Wonderful with my kids; no tears this time.", "Quick, kind and thorough. Will book again.",
        "The IV was set up in minutes and I felt better the same afternoon.",
    ),
    4: (
        "Professional and friendly; arrived a few minutes late.", "Good visit, clear instructions afterwards.",
        "Very kind. The paperwork took a little while.", "Smooth draw, results came back quickly.",
    ),
    3: ("Fine visit, but the arrival window was long.", "Did the job; not very talkative."),
    2: ("Arrived 40 minutes late and seemed rushed.", "The draw took two attempts and left a bruise."),
    1: ("Missed the first appointment window and I had to reschedule.",),
}  # fmt: skip
# Demo orders were paid by card at booking (the card gateway's name and label on orders and receipts), whatever
# gateway the server is configured with now: that is seeded history, and paid ahead is the recommended mode.
CARD = GATEWAYS["stripe"]()
CANCEL_REASONS = ("Travelling that week.", "My doctor changed the lab order.", "Feeling better; not needed.")


@dataclass
class Seat:
    """A provider as the planner sees it: where and when they work, what they offer, what they booked."""

    id: str
    name: str
    time_zone: str
    city: str
    state: str
    zips: list[str]
    hours: list[Hours]
    offers: list[tuple[Service, Decimal, int]]  # service, own price, location mask
    busy: list[tuple[datetime, datetime]] = field(default_factory=list)


@dataclass(frozen=True)
class Patient:
    account: AccountRead
    street: str = ""
    zip_code: str = ""  # home ZIP ('' = any in the provider's area)


@dataclass
class Plan:
    """The rows to add, and what they add up to."""

    rows: list[Base] = field(default_factory=list)
    reviews: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)  # provider id → ratings
    counts: dict[str, int] = field(default_factory=dict)
    patients_busy: dict[str, list[tuple[datetime, datetime]]] = field(default_factory=dict)
    _numbers: set[str] = field(default_factory=set)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def _start(
    rng: random.Random,
    seat: Seat,
    day: date,
    minutes: int,
    buffer: timedelta,
    mine: list[tuple[datetime, datetime]],
) -> datetime | None:
    """A start time (UTC) on the provider's local `day` inside their hours, free for both the provider and
    the patient (whose visits are `mine`), or None."""
    spans = [h for h in seat.hours if h.weekday == day.weekday() and h.end_minute - h.start_minute >= minutes]
    if not spans:
        return None
    zone = ZoneInfo(seat.time_zone)
    span = rng.choice(spans)
    choices = list(range(span.start_minute, span.end_minute - minutes + 1, STEP))
    rng.shuffle(choices)
    for minute in choices[:6]:
        local = datetime.combine(day, time(minute // 60, minute % 60), zone)
        start = local.astimezone(UTC)
        end = start + timedelta(minutes=minutes) + buffer
        if all(end <= s or start >= e for s, e in (*seat.busy, *mine)):
            seat.busy.append((start, end))
            mine.append((start, end))
            return start
    return None


def _order_number(rng: random.Random, plan: Plan) -> str:
    while True:
        number = "MV-" + "".join(rng.choice(ORDER_ALPHABET) for _ in range(6))
        if number not in plan._numbers:
            plan._numbers.add(number)
            return number


def _place(mask: int) -> ServiceLocation:
    places = locations_of(mask)
    return ServiceLocation.home if ServiceLocation.home in places else places[0]


def book(
    plan: Plan,
    rng: random.Random,
    *,
    seat: Seat,
    patient: Patient,
    status: AppointmentStatus,
    now: datetime,
    categories: dict[str, str],
    services: tuple[str, ...] = (),
    avoid: tuple[str, ...] = (),
    rating: int | None = None,
) -> bool:
    """Plan one visit of `patient` with `seat` (a service among `services` if given, never one in `avoid`)
    in status `status` — completed and cancelled ones in the past, the others upcoming — with its order and
    transactions, and a review with `rating` stars (completed visits only). False if no time was free."""
    offers = [o for o in seat.offers if (not services or o[0].slug in services) and o[0].slug not in avoid]
    if not offers:
        return False
    service, own_price, mask = rng.choice(offers)
    past = status in (AppointmentStatus.completed, AppointmentStatus.cancelled)
    buffer = timedelta(minutes=flags.travel_buffer_minutes())
    today = now.astimezone(ZoneInfo(seat.time_zone)).date()
    starts_at = None
    for _attempt in range(12):
        offset = rng.randint(*PAST) if past else rng.randint(*UPCOMING)
        day = today + timedelta(days=-offset if past else offset)
        mine = plan.patients_busy.setdefault(patient.account.id, [])
        starts_at = _start(rng, seat, day, service.duration_minutes, buffer, mine)
        if starts_at is not None:
            break
    if starts_at is None:
        return False
    ends_at = starts_at + timedelta(minutes=service.duration_minutes)
    booked_at = min(starts_at - timedelta(days=rng.randint(1, 9), hours=rng.randint(0, 12)), now)
    price = price_for(category_slug=categories[service.id], price=own_price, at=booked_at)
    place = _place(mask)
    zip_code = patient.zip_code if patient.zip_code in seat.zips else rng.choice(seat.zips)
    addressed = place in (ServiceLocation.home, ServiceLocation.office, ServiceLocation.corporate_venue)
    street = patient.street or f"{rng.randint(10, 990)} {rng.choice(STREETS[seat.city])}"
    fee = platform_fee(price.charge)
    number = _order_number(rng, plan)
    settled = ends_at if status is AppointmentStatus.completed else None
    order = Order(
        id=new_id(),
        number=number,
        patient_id=patient.account.id,
        status=OrderStatus.pending,  # paid or cancelled once the ledger settles its visit
        subtotal=price.charge,
        platform_fee=fee,
        total=price.charge + fee,
        payment_method=CARD.name,
        created_at=booked_at,
        updated_at=settled or booked_at,
    )
    visit = Appointment(
        id=new_id(),
        order_id=order.id,
        patient_id=patient.account.id,
        provider_id=seat.id,
        service_id=service.id,
        status=status,
        starts_at=starts_at,
        ends_at=ends_at,
        busy_until=ends_at + buffer,
        location=place,
        address_line=street if addressed else "",
        city=seat.city if addressed else "",
        state=seat.state if addressed else "",
        zip_code="" if place is ServiceLocation.virtual else zip_code,
        price=price.charge,
        original_price=price.original,
        confirmed_at=booked_at + timedelta(hours=2)
        if status in (AppointmentStatus.confirmed, AppointmentStatus.completed)
        else None,
        started_at=starts_at if status is AppointmentStatus.completed else None,
        completed_at=settled,
        created_at=booked_at,
        updated_at=settled or booked_at,
    )
    if status is AppointmentStatus.cancelled:
        visit.cancelled_at = min(starts_at - timedelta(days=2), now)
        visit.cancelled_by, visit.cancel_reason = "patient", rng.choice(CANCEL_REASONS)
    description = f"{service.name} with {seat.name}"[:200]
    plan.rows += [order, visit]
    plan.rows += [
        Transaction(
            order_id=order.id,
            appointment_id=visit.id,
            user_id=patient.account.id,
            type=TransactionType.booking,
            status=TransactionStatus.completed,  # captured by card at checkout
            amount=price.charge,
            description=description,
            gateway=CARD.name,
            gateway_reference=number,
            created_at=booked_at,
            settled_at=booked_at,
        ),
        Transaction(
            order_id=order.id,
            user_id=patient.account.id,
            type=TransactionType.fee,
            status=TransactionStatus.completed,
            amount=fee,
            description=f"Platform fee ({PLATFORM_FEE_PERCENT}%)",
            gateway=CARD.name,
            gateway_reference=number,
            created_at=booked_at,
            settled_at=booked_at,
        ),
    ]
    plan.count(status.value)
    if rating is not None and status is AppointmentStatus.completed:
        plan.rows.append(
            Review(
                provider_id=seat.id,
                author_id=patient.account.id,
                author_name=public_author_name(patient.account),
                appointment_id=visit.id,
                visit_completed=True,
                rating=rating,
                comment=rng.choice(COMMENTS[rating]),
                created_at=min(ends_at + timedelta(hours=rng.randint(2, 40)), now),
            )
        )
        plan.reviews.setdefault(seat.id, []).append((rating, True))
        plan.count("review")
    return True


def random_rating(rng: random.Random) -> int:
    return rng.choices((5, 4, 3, 2, 1), weights=(58, 28, 8, 4, 2))[0]


def no_perfect_scores(plan: Plan, rng: random.Random) -> None:
    """A provider with three or more reviews, all five stars, gets one four-star review instead (real
    marketplaces rarely show a perfect score, and a perfect 5.00 would outrank everyone)."""
    by_provider: dict[str, list[Review]] = {}
    for row in plan.rows:
        if isinstance(row, Review):
            by_provider.setdefault(row.provider_id, []).append(row)
    for provider_id, reviews in by_provider.items():
        if len(reviews) >= 3 and all(r.rating == 5 for r in reviews):
            reviews[-1].rating, reviews[-1].comment = 4, rng.choice(COMMENTS[4])
            plan.reviews[provider_id] = [(r.rating, True) for r in reviews]


STREETS = {
    "New York": ("W 23rd St", "E 14th St", "Bleecker St", "Amsterdam Ave", "Lexington Ave", "Atlantic Ave"),
    "Chicago": ("N Clark St", "W Division St", "S Michigan Ave", "N Milwaukee Ave", "W Belmont Ave"),
    "Los Angeles": ("Sunset Blvd", "W 3rd St", "Wilshire Blvd", "Melrose Ave", "S Figueroa St"),
}
