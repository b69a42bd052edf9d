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
import struct
import time
import uuid
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

from sqlalchemy import event, func, select, text

from app import db as app_db
from app import events, storage
from app.auth.common import RequestOrigin
from app.auth.sessions import load_user_row, start_session
from app.principal import SYSTEM, Principal
from app.services.accounts.internal import create_account
from app.services.appointments.internal import add_review
from app.services.catalog.internal import ensure_reference_catalog
from app.services.enrollment import zip_state
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from app.services.providers.internal import add_profile_license
from app.services.support import open_ticket
from models.account import AccountRead, Role
from models.booking import (
    Appointment,
    AppointmentRead,
    AppointmentStatus,
    Order,
    OrderRead,
    OrderStatus,
    Transaction,
    TransactionType,
)
from models.catalog import Service, ServiceLocation
from models.enrollment import (
    ApplicationEvent,
    ApplicationStatus,
    CredentialDocument,
    DocumentKind,
    DocumentStatus,
    EventKind,
    ProviderApplication,
    ProviderLicense,
)
from models.provider import ProviderType
from models.staff import ROLE_GRANTS, Permission, StaffMember

PASSWORD = "correct-horse-1"
NY = "America/New_York"
ZIP = "10001"
EVERY_WEEKDAY = [Hours(day, 9 * 60, 17 * 60) for day in range(5)]
ALL_WEEK = [Hours(day, 0, 1440) for day in range(7)]
LICENSED_UNTIL = date(2035, 12, 31)  # after every date the tests book
T = TypeVar("T")

Offers = Mapping[str, tuple[str, tuple[ServiceLocation, ...]]] | Sequence[ServiceOffer]
"""What a provider offers: `{slug: (price, places)}` (no places: everywhere allowed), or `ServiceOffer`s."""
ServiceCall = tuple[Callable[..., Awaitable[object]], dict[str, Any]]
"""A service and its keyword arguments besides the session and the actor, as the permission tests list them."""


def present(value: T | None) -> T:
    """`value`, which the test knows is there (a row it made, a lookup that must find it); None fails here."""
    assert value is not None, "expected a value, found None"
    return value


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
    licenses: Sequence[tuple[str, date]] | None = None,
) -> str:
    """A provider profile (verified unless told otherwise) offering `offers` ({slug: (price, places)}, by
    default a routine blood draw at $79 in every place it is offered), serving `zip_codes`, working `hours`
    (None: no hours at all), with completed-visit `ratings`; `owner` links it to a (provider) account.
    `licenses`: (state, expiry) of each licence; by default one RN licence in each of the ZIP codes' states,
    valid until LICENSED_UNTIL (the licence-state rule: without one the provider takes no visits there)."""
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
        if licenses is None:
            licenses = [
                (state, LICENSED_UNTIL) for state in sorted({zip_state(z) or "" for z in zip_codes} - {""})
            ]
        for n, (state, expires_on) in enumerate(licenses):
            await add_profile_license(
                session,
                provider_id=profile.id,
                license_type="RN",
                state=state,
                number=f"RN-{n}{profile.id[:6]}",
                expires_on=expires_on,
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


# ---- applications, licences and credential documents (provider enrollment) -------------------------
async def bare_application(
    applicant: Person | AccountRead | str,
    *,
    status: ApplicationStatus = ApplicationStatus.draft,
    name: str = "Ada Nurse",
    kind: ProviderType | None = ProviderType.nurse,
    step: int = 1,
    at: datetime | None = None,
    provider_id: str | None = None,
) -> str:
    """An application row of `applicant` with only its basics (no licences, documents or offers), last changed
    (and in its status since) `at` (default now); `application` builds a whole one."""
    at = at or datetime.now(UTC)
    first, _, last = name.partition(" ")
    async with app_db.unit_of_work() as session:
        row = ProviderApplication(
            user_id=_id(applicant),
            status=status,
            step=step,
            first_name=first,
            last_name=last,
            provider_type=kind,
            created_at=at,
            updated_at=at,
            status_changed_at=at,
            provider_id=provider_id,
        )
        session.add(row)
        await session.flush()
        session.add(
            ApplicationEvent(application_id=row.id, kind=EventKind.created, actor_id=_id(applicant), at=at)
        )
        return row.id


async def credential_document(
    provider_id: str,
    *,
    kind: DocumentKind = DocumentKind.cpr_bls,
    expires_on: date | None = None,
    status: DocumentStatus = DocumentStatus.approved,
    application_id: str | None = None,
) -> str:
    """A credential document of the provider (no file stored: the rows only), on its application (an
    approved one is made, with an account of its own, when the provider has none)."""
    if application_id is None:
        async with app_db.unit_of_work() as session:
            application_id = await session.scalar(
                select(ProviderApplication.id).where(ProviderApplication.provider_id == provider_id)
            )
    if application_id is None:
        applicant = await person(Role.provider, "Ada Nurse")
        application_id = await bare_application(
            applicant, status=ApplicationStatus.approved, provider_id=provider_id
        )
    async with app_db.unit_of_work() as session:
        row = CredentialDocument(
            application_id=application_id,
            provider_id=provider_id,
            kind=kind,
            filename=f"{kind.value}.pdf",
            content_type="application/pdf",
            size=1024,
            storage_key=f"test/{uuid.uuid4().hex}",
            expires_on=expires_on,
            status=status,
        )
        session.add(row)
        await session.flush()
        return row.id


async def license_in(session: Any, provider_id: str, state: str = "NY") -> str:
    """Inside a unit of work of the caller's: an RN licence of `state` valid until LICENSED_UNTIL (the
    licence-state rule), for tests that build providers with the services themselves."""
    return await add_profile_license(
        session,
        provider_id=provider_id,
        license_type="RN",
        state=state,
        number=f"RN-{uuid.uuid4().hex[:8]}",
        expires_on=LICENSED_UNTIL,
    )


async def license_for(provider_id: str, state: str = "NY", expires_on: date = LICENSED_UNTIL) -> str:
    """Record one more licence on the provider's profile (the listing is re-synced)."""
    async with app_db.unit_of_work() as session:
        return await add_profile_license(
            session,
            provider_id=provider_id,
            license_type="RN",
            state=state,
            number=f"RN-{uuid.uuid4().hex[:8]}",
            expires_on=expires_on,
        )


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


def appointment_read(
    status: AppointmentStatus = AppointmentStatus.pending, **changes: Any
) -> AppointmentRead:
    """A visit as the services read it, in memory only (no rows): a 30-minute home blood draw with Ada Nurse
    on Monday 7 January 2030 at 10:00 New York time, in `status`; `changes` set other fields."""
    starts_at = datetime(2030, 1, 7, 15, 0, tzinfo=UTC)
    fields: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "order_id": None,
        "order_number": None,
        "patient_id": uuid.uuid4().hex,
        "patient_name": "Pat Lee",
        "provider_id": uuid.uuid4().hex,
        "provider_name": "Ada Nurse",
        "provider_user_id": None,
        "service_id": uuid.uuid4().hex,
        "service_slug": "routine-blood-draw",
        "service_name": "Routine Blood Draw",
        "status": status,
        "starts_at": starts_at,
        "ends_at": starts_at + timedelta(minutes=30),
        "hold_expires_at": None,
        "location": ServiceLocation.home,
        "address_line": "12 Main St",
        "city": "New York",
        "state": "NY",
        "zip_code": ZIP,
        "notes": "",
        "price": Decimal("85.00"),
        "original_price": Decimal("85.00"),
        "cancelled_by": "",
        "cancel_reason": "",
    }
    return AppointmentRead.model_validate(fields | changes)


def order_read(appointments: Sequence[AppointmentRead], **changes: Any) -> OrderRead:
    """An order of `appointments` as the services read it, in memory only (no rows): paid at the visit, with
    the 5% platform fee; `changes` set other fields (`payment_status`, `payment_url` …)."""
    subtotal = sum((visit.price for visit in appointments), Decimal("0.00"))
    fee = (subtotal * Decimal("0.05")).quantize(Decimal("0.01"))
    fields: dict[str, Any] = {
        "id": uuid.uuid4().hex,
        "number": "MV-000001",
        "status": OrderStatus.pending,
        "subtotal": subtotal,
        "platform_fee": fee,
        "total": subtotal + fee,
        "payment_method": "pay_at_visit",
        "created_at": datetime(2030, 1, 1, 12, 0, tzinfo=UTC),
        "appointments": list(appointments),
        "transactions": [],
    }
    return OrderRead.model_validate(fields | changes)


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


# ---- provider applications (issue 13) ------------------------------------------------------------
def png_bytes(width: int = 240, height: int = 150, rgb: tuple[int, int, int] = (14, 116, 144)) -> bytes:
    """A real PNG: a coloured card with a light band (what a scanned licence looks like from afar)."""
    rows = b"".join(
        b"\x00" + bytes(rgb if height // 3 > y or y > height * 2 // 3 else (240, 249, 255)) * width
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PDF_BYTES = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj "
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)
# (licence type, state, number, expires on)
LICENCE = ("RN", "NY", "RN-204518", date(2031, 6, 30))
# What each document is: (file name, bytes, issued on, expires on).
DOCUMENTS: dict[DocumentKind, tuple[str, bytes, date | None, date | None]] = {
    DocumentKind.license: ("licence.png", png_bytes(), date(2025, 7, 1), date(2031, 6, 30)),
    DocumentKind.government_id: (
        "id-card.png",
        png_bytes(rgb=(71, 85, 105)),
        date(2024, 3, 1),
        date(2032, 3, 1),
    ),
    DocumentKind.malpractice_insurance: ("insurance.pdf", PDF_BYTES, date(2025, 1, 1), date(2031, 1, 1)),
    DocumentKind.cpr_bls: ("cpr.pdf", PDF_BYTES, date(2025, 2, 1), date(2031, 2, 1)),
}


async def add_application(
    session: Any,
    *,
    user_id: str,
    name: str = "Nia Applicant",
    kind: ProviderType | str = ProviderType.nurse,
    npi: str = "1234567893",
    status: ApplicationStatus = ApplicationStatus.submitted,
    zip_codes: Sequence[str] = (ZIP,),
    offers: Mapping[str, tuple[str, int]] | None = None,
    hours: Sequence[Hours] = EVERY_WEEKDAY,
    licenses: Sequence[tuple[str, str, str, date]] = (LICENCE,),
    documents: Sequence[DocumentKind] = tuple(DocumentKind),
    submitted_at: datetime | None = None,
    time_zone: str = NY,
    save: Callable[[bytes], Awaitable[str]] | None = None,
) -> str:
    """`application`'s rows in the caller's session (the browser tests write to a live server's database):
    the application in `status`, its licences, its documents (real files, kept by `save`, default
    app.storage's) and the `submitted` timeline event. Returns the application's id."""
    await ensure_reference_catalog(session=session)
    offers = {"routine-blood-draw": ("85.00", 1)} if offers is None else offers
    services = dict(
        (await session.execute(select(Service.slug, Service.id).where(Service.slug.in_(list(offers))))).all()
    )
    first, _, last = name.partition(" ")
    submitted_at = submitted_at or datetime.now(UTC) - timedelta(days=2)
    row = ProviderApplication(
        user_id=user_id,
        status=status,
        step=5,
        first_name=first,
        last_name=last or "Applicant",
        provider_type=ProviderType(kind),
        phone="+12125550143",
        languages=["English", "Spanish"],
        bio="Registered nurse with ten years of home-care experience.",
        npi=npi,
        offers=[
            {"service_id": services[slug], "price": price, "location_mask": mask}
            for slug, (price, mask) in offers.items()
        ],
        zip_codes=list(zip_codes),
        weekly_hours=[
            {"weekday": h.weekday, "start_minute": h.start_minute, "end_minute": h.end_minute} for h in hours
        ],
        time_zone=time_zone,
        submitted_at=None if status == ApplicationStatus.draft else submitted_at,
        status_changed_at=submitted_at,
        created_at=submitted_at - timedelta(days=1),
        updated_at=submitted_at,
    )
    session.add(row)
    await session.flush()
    for license_type, state, number, valid_until in licenses:
        session.add(
            ProviderLicense(
                application_id=row.id,
                license_type=license_type,
                state=state,
                number=number,
                expires_on=valid_until,
            )
        )
    store = save or storage.save
    for document_kind in documents:
        filename, data, issued_on, expires_on = DOCUMENTS[DocumentKind(document_kind)]
        session.add(
            CredentialDocument(
                application_id=row.id,
                kind=document_kind,
                filename=filename,
                content_type="image/png" if filename.endswith(".png") else "application/pdf",
                size=len(data),
                storage_key=await store(data),
                issued_on=issued_on,
                expires_on=expires_on,
                uploaded_at=submitted_at - timedelta(hours=1),
            )
        )
    if status != ApplicationStatus.draft:
        session.add(
            ApplicationEvent(
                application_id=row.id, kind=EventKind.submitted, actor_id=user_id, at=submitted_at
            )
        )
    await session.flush()
    return row.id


async def application(applicant: Person | AccountRead | str | None = None, **kw: Any) -> str:
    """A provider application (submitted unless told otherwise) of `applicant` (a new patient account by
    default), with a New York RN licence, the four documents and a blood-draw offer in ZIP 10001, as the
    applicant's wizard would leave it (the wizard itself is the applicant side's). See `add_application`."""
    if applicant is None:
        applicant = await person(Role.patient, kw.get("name", "Nia Applicant"))
    async with app_db.unit_of_work() as session:
        return await add_application(session, user_id=_id(applicant), **kw)


# ---- waiting without sleeping --------------------------------------------------------------------
async def settle(queue: asyncio.Queue, topic: str, seconds: float = 10) -> list[dict]:
    """Everything delivered to `queue` so far: publishes a sentinel on `topic` (one of the queue's) in a
    unit of work of its own and returns what arrived before it. Events reach a process's subscribers in
    commit order (after commit on SQLite; through the one LISTEN connection on PostgreSQL), so once the
    sentinel is here every event committed before it is too."""
    mark = uuid.uuid4().hex
    async with app_db.unit_of_work() as session:
        await events.publish_on_commit(session, topic, {"sentinel": mark})
    found: list[dict] = []
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
