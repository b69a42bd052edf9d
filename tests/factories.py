"""Test data for every layer: people (signed in, with a live identity session), providers, visits, help-desk
tickets, one unit of work per call, and the waits the race tests use.

`person()` makes a real account through the operator's service and a real identity session for it, so the
returned `actor` passes the same re-check a browser tab's Principal does; sign it out or demote it and the
services refuse it, as they would a real tab.

Every test that asks for `configured` has a database of its own, so the values here are fixed and readable
(ZIP 10001, a provider called Ada Nurse, Monday 7 January 2030): nothing needs to dodge another test's rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import event, func, select, text

from app import db as app_db
from app import events
from app.auth.common import RequestOrigin
from app.auth.sessions import load_user_row, start_session
from app.principal import SYSTEM, Principal
from app.services.accounts import create_account
from app.services.appointments import add_review
from app.services.catalog import ensure_reference_catalog
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from app.services.support import open_ticket
from models.account import AccountRead, Role
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    Transaction,
    TransactionType,
)
from models.catalog import Service, ServiceLocation
from models.staff import ROLE_GRANTS, Permission, StaffMember

PASSWORD = "correct-horse-1"
NY = "America/New_York"
ZIP = "10001"
EVERY_WEEKDAY = [Hours(day, 9 * 60, 17 * 60) for day in range(5)]
ALL_WEEK = [Hours(day, 0, 1440) for day in range(7)]
T = TypeVar("T")

Offers = Mapping[str, tuple[str, tuple[ServiceLocation, ...]]] | Sequence[ServiceOffer]
"""What a provider offers: `{slug: (price, places)}` (no places: everywhere allowed), or `ServiceOffer`s."""


# ---- people --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    actor: Principal
    account: AccountRead
    access_token: str = ""

    @property
    def id(self) -> str:
        return self.account.id

    @property
    def email(self) -> str:
        return self.account.email

    def __iter__(self):  # noqa: ANN204 - `actor, account = await person(...)`
        return iter((self.actor, self.account))


def unique_email(prefix: str = "person") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@medivisit.test"


async def _start_session(user_id: str) -> tuple[Principal, str]:
    async with app_db.unit_of_work() as session:
        user = await load_user_row(session, user_id)
        assert user is not None, f"no user {user_id}"
        started = await start_session(
            session=session, user=user, method="password", origin=RequestOrigin(ip="127.0.0.1")
        )
    return Principal.user(user_id=user_id, session_id=started.session_id), started.access_token


async def sign_in(user_id: str) -> Principal:
    """A new identity session for the user, as a signed-in Principal."""
    return (await _start_session(user_id))[0]


async def person(
    role: Role | str = Role.patient,
    name: str = "Test Person",
    *,
    email: str | None = None,
    extras: tuple[Permission, ...] = (),
    active: bool = True,
    staff_row: bool = True,
) -> Person:
    """A signed-in account of `role` (with its access token); staff roles get a staff row (with `extras` and
    `active`)."""
    role = Role(role)
    async with app_db.unit_of_work() as session:
        account = await create_account(
            session=session, email=email or unique_email(role.value), password=PASSWORD, role=role, name=name
        )
        if staff_row and (role in ROLE_GRANTS or extras or not active):
            session.add(
                StaffMember(user_id=account.id, extra_permissions=[p.value for p in extras], active=active)
            )
    actor, token = await _start_session(account.id)
    return Person(actor, account, token)


async def run(fn: Callable[..., Awaitable[T]], **kwargs: Any) -> T:
    """Call a service in one unit of work, as a screen's hook does."""
    async with app_db.unit_of_work() as session:
        return await fn(session=session, **kwargs)


# ---- providers -----------------------------------------------------------------------------------
async def provider(
    name: str = "Ada Nurse",
    *,
    zip_codes: Sequence[str] = (ZIP,),
    offers: Offers | None = None,
    hours: Sequence[Hours] | None = EVERY_WEEKDAY,
    ratings: Sequence[int] = (),
    owner: Person | AccountRead | str | None = None,
    kind: str = "nurse",
    verified: bool = True,
    active: bool = True,
    time_zone: str = NY,
) -> str:
    """A provider profile (verified unless told otherwise) offering `offers` ({slug: (price, places)}, by
    default a routine blood draw at $79 in every place it is offered), serving `zip_codes`, working `hours`
    (None: no hours at all), with completed-visit `ratings`; `owner` links it to a (provider) account."""
    offers = {"routine-blood-draw": ("79", ())} if offers is None else offers
    if isinstance(offers, Mapping):
        offers = [ServiceOffer(slug, Decimal(price), places) for slug, (price, places) in offers.items()]
    first, _, last = name.partition(" ")
    owner_id = owner if isinstance(owner, str) or owner is None else owner.id
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        profile = await create_provider(
            session=session,
            actor=SYSTEM,
            user_id=owner_id,
            first_name=first,
            last_name=last or "Test",
            provider_type=kind,
            time_zone=time_zone,
            verified=verified,
            active=active,
        )
        if offers:
            await set_services(
                session=session,
                actor=SYSTEM,
                provider_id=profile.id,
                offers=list(offers),
            )
        if zip_codes:
            await set_service_area(
                session=session, actor=SYSTEM, provider_id=profile.id, zip_codes=list(zip_codes)
            )
        if hours is not None:
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=profile.id, hours=list(hours))
        for rating in ratings:
            await add_review(session=session, provider_id=profile.id, rating=rating, visit_completed=True)
    return profile.id


# ---- visits --------------------------------------------------------------------------------------
def _id(someone: Person | AccountRead | str) -> str:
    return someone if isinstance(someone, str) else someone.id


async def order(
    patient: Person | AccountRead | str,
    provider_id: str,
    *starts: datetime,
    status: AppointmentStatus = AppointmentStatus.pending,
    service: str = "routine-blood-draw",
    price: Decimal | str | None = None,
    minutes: int = 30,
    travel: int = 30,
    address: bool = True,
) -> tuple[str | None, list[str]]:
    """Visits (one per start) of `patient` with the provider, as checkout leaves them: one order, a booking
    transaction per visit and the platform fee. A `held` visit is a checkout in progress instead: no order,
    no money, and a hold that lapses at its start. Returns the order's id (None when held) and the visits'.
    The price is the service's catalog price unless given."""
    patient_id = _id(patient)
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        row = await session.scalar(select(Service).where(Service.slug == service))
        price = row.price if price is None else Decimal(price)
        held = status is AppointmentStatus.held
        placed = None
        if not held:
            subtotal = price * len(starts)
            fee = (subtotal * Decimal("0.05")).quantize(Decimal("0.01"))
            number = await session.scalar(select(func.count()).select_from(Order)) + 1
            placed = Order(
                number=f"MV-{number:06d}",
                patient_id=patient_id,
                subtotal=subtotal,
                platform_fee=fee,
                total=subtotal + fee,
                payment_method="pay_at_visit",
            )
            session.add(placed)
            await session.flush()
        ids = []
        for start in starts:
            visit_row = Appointment(
                order_id=placed.id if placed else None,
                patient_id=patient_id,
                provider_id=provider_id,
                service_id=row.id,
                status=status,
                starts_at=start,
                ends_at=start + timedelta(minutes=minutes),
                busy_until=start + timedelta(minutes=minutes + travel),
                hold_expires_at=start if held else None,
                location=ServiceLocation.home,
                price=price,
                original_price=price,
                **(
                    {
                        "address_line": "12 Main St",
                        "city": "New York",
                        "state": "NY",
                        "zip_code": ZIP,
                        "notes": "Gate code 1234",
                    }
                    if address
                    else {}
                ),
            )
            session.add(visit_row)
            await session.flush()
            ids.append(visit_row.id)
            if placed:
                session.add(
                    Transaction(
                        order_id=placed.id,
                        appointment_id=visit_row.id,
                        user_id=patient_id,
                        type=TransactionType.booking,
                        amount=price,
                    )
                )
        if placed:
            session.add(
                Transaction(
                    order_id=placed.id,
                    user_id=patient_id,
                    type=TransactionType.fee,
                    amount=placed.platform_fee,
                )
            )
    return (placed.id if placed else None), ids


async def visit(
    patient: Person | AccountRead | str,
    provider_id: str,
    start: datetime,
    status: AppointmentStatus = AppointmentStatus.pending,
    **kw: Any,
) -> str:
    """One visit in an order of its own (see `order`); returns the visit's id."""
    _order, (visit_id,) = await order(patient, provider_id, start, status=status, **kw)
    return visit_id


# ---- help desk -----------------------------------------------------------------------------------
async def new_ticket(
    customer: Person,
    subject: str = "Charged twice",
    description: str = "Please help.",
    *,
    category: str = "billing",
    **kw: Any,
):  # noqa: ANN201 - a TicketRead
    """A help-desk ticket opened by `customer`."""
    return await run(
        open_ticket, actor=customer.actor, category=category, subject=subject, description=description, **kw
    )


# ---- waiting without sleeping --------------------------------------------------------------------
async def settle(queue: asyncio.Queue, topic: str, seconds: float = 10) -> list[dict]:
    """Everything delivered to `queue` so far: publishes a sentinel on `topic` (one of the queue's) in a
    unit of work of its own and returns what arrived before it. Events reach a process's subscribers in
    commit order (after commit on SQLite; through the one LISTEN connection on PostgreSQL), so once the
    sentinel is here every event committed before it is too."""
    mark = uuid.uuid4().hex
    async with app_db.unit_of_work() as session:
        await events.publish_on_commit(session, topic, {"sentinel": mark})
    found = []
    while True:
        payload = await asyncio.wait_for(queue.get(), seconds)
        if payload.get("sentinel") == mark:
            return found
        found.append(payload)


@contextlib.asynccontextmanager
async def blocked_writers(
    table: str, deadline: float = 10
) -> AsyncIterator[Callable[[int], Awaitable[None]]]:
    """Wait until `count` other transactions are stuck behind a transaction the test holds open, each on
    its first write of `table` (or, on PostgreSQL, on the row lock a service takes before that write).

    - PostgreSQL: polls `pg_stat_activity` for backends of this test's database waiting on a lock
      (`wait_event_type = 'Lock'`).
    - SQLite: one writer at a time, so a write issued while the test's transaction holds the write lock
      cannot finish before that transaction ends; a `before_cursor_execute` listener notes each connection
      that issues an INSERT, UPDATE or DELETE of `table` and wakes the waiter.

    Fails after `deadline` seconds, saying what the database was doing, instead of waiting forever."""
    engine = app_db.get_database().engine
    write = re.compile(rf"^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+{re.escape(table)}\b", re.IGNORECASE)
    writers: set[int] = set()
    changed = asyncio.Event()

    def issued(conn, _cursor, sql: str, *_args) -> None:  # noqa: ANN001 - SQLAlchemy's event signature
        if write.match(sql):
            writers.add(id(conn.connection.dbapi_connection))
            changed.set()

    async def postgres(query: str) -> list:
        async with engine.connect() as conn:
            return [tuple(row) for row in await conn.execute(text(query))]

    async def waiting(count: int) -> None:
        ends = time.monotonic() + deadline
        while True:
            if engine.dialect.name == "postgresql":
                [(blocked,)] = await postgres(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            else:
                blocked = len(writers)
            if blocked >= count:
                return
            left = ends - time.monotonic()
            if left <= 0:
                doing = (
                    await postgres(
                        "SELECT state, wait_event_type, wait_event, query FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                    if engine.dialect.name == "postgresql"
                    else "no write of the table was issued"
                )
                raise AssertionError(f"{blocked} of {count} transactions blocked after {deadline} s: {doing}")
            changed.clear()
            with contextlib.suppress(TimeoutError):  # PostgreSQL: poll every 20 ms; SQLite: woken at once
                await asyncio.wait_for(changed.wait(), min(left, 0.02))

    event.listen(engine.sync_engine, "before_cursor_execute", issued)
    try:
        yield waiting
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", issued)
