"""The demo marketplace (`python -m medivisit seed --demo`): verified providers in New York, Chicago and Los Angeles,
patients who booked them, completed visits with reviews, upcoming visits, and the demo patient's and demo
provider's own history and schedule.

Providers come from the sample-provider generator (`provider_seed.provider_rows`) with a fixed random seed
and fixed, unique names; their ratings are computed from the reviews of the visits planned here
(`reviews.rating_summary`), like any other rating. Visits are planned by `demo_visits`. Everything is written
in bulk, a handful of statements per table. Seeding twice adds nothing: the first demo provider's licence
number marks the marketplace as present. Never in production.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.sessions import find_user_by_email
from app.services.accounts import DEMO_PEOPLE, demo_email
from app.services.accounts.internal import create_demo_patients
from app.services.appointments.internal import refresh_ratings
from app.services.demo._money import seed_demo_ledger
from app.services.demo._notices import seed_demo_notices
from app.services.demo._visits import Patient, Plan, Seat, book, no_perfect_scores, random_rating
from app.services.errors import PermissionDenied
from app.services.providers import FIRST_NAMES, LAST_NAMES, METROS, TABLES, Hours, display_name, provider_rows
from app.services.providers.internal import load_catalog, load_hours
from app.services.shared.accounts import account_of
from app.services.shared.ratings import rating_summary
from app.settings import get_settings
from models.account import Role
from models.booking import Appointment, Order, Transaction
from models.booking import AppointmentStatus as S
from models.catalog import Service
from models.provider import Provider, ProviderService, ProviderZip, Review, listing_values

RANDOM_SEED = 20240901
PROVIDERS_PER_METRO = {"New York": 21, "Chicago": 20, "Los Angeles": 20}  # plus the demo provider in NY
# Names the browser tests give providers of their own; a demo provider with one would confuse them.
RESERVED_NAMES = frozenset({"Priya Shah", "Elena Torres", "Grace Okafor"})
PATIENTS = (
    "Maria Gonzalez", "James Carter", "Aisha Mohammed", "Wei Zhang", "Fatima Ali", "Robert Johnson",
    "Linh Pham", "Daniel Cohen", "Keisha Brown", "Arjun Mehta", "Sofia Rossi", "Marcus Green",
    "Yuki Tanaka", "Olena Kovalenko", "Luis Hernandez", "Grace Kim", "Tom Becker", "Nia Adeyemi",
)  # fmt: skip
JORDAN_HOME = ("245 W 17th St, Apt 5A", "10011")
# The demo patient's visits stay clear of the services the booking browser test books for them.
JORDAN_AVOIDS = ("routine-blood-draw", "iv-hydration")
PRIYA_SCHEDULE = ("fasting-blood-draw", "iv-vitamin-infusion", "injection-visit")

# One provider's rows by table, as `providers.provider_rows` makes them for a multi-row INSERT.
_Tables = dict[str, list[dict[str, Any]]]


def _names(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """`count` distinct (first, last) names from the generator's lists, none of them reserved."""
    chosen: list[tuple[str, str]] = []
    while len(chosen) < count:
        pair = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
        if pair not in chosen and " ".join(pair) not in RESERVED_NAMES:
            chosen.append(pair)
    return chosen


def _generated(rng: random.Random, catalog: dict[str, list[Service]], now: datetime) -> list[_Tables]:
    names = iter(_names(rng, sum(PROVIDERS_PER_METRO.values())))
    return [
        provider_rows(rng, catalog, now, metro=metro, name=next(names), listed=True, extras=False)
        for metro, count in PROVIDERS_PER_METRO.items()
        for _ in range(count)
    ]


def _seat(rows: _Tables, services: dict[str, Service], city: str) -> Seat:
    p = rows["providers"][0]
    return Seat(
        id=p["id"],
        name=display_name(p["first_name"], p["last_name"]),
        time_zone=p["time_zone"],
        city=city,
        state=p["license_state"],
        zips=[z["zip_code"] for z in rows["zips"]],
        hours=[Hours(h["weekday"], h["start_minute"], h["end_minute"]) for h in rows["hours"]],
        offers=[(services[o["service_id"]], o["price"], o["location_mask"]) for o in rows["offers"]],
    )


async def _priya(session: AsyncSession, services: dict[str, Service]) -> tuple[Seat, Patient] | None:
    """The demo provider's seat and the demo patient, if both exist (the earlier demo seeders made them)."""
    provider_user = await find_user_by_email(session, demo_email(Role.provider))
    patient_user = await find_user_by_email(session, demo_email(Role.patient))
    if provider_user is None or patient_user is None:
        return None
    provider = await session.scalar(select(Provider).where(Provider.user_id == provider_user.id))
    if provider is None:
        return None
    offers = (
        await session.scalars(select(ProviderService).where(ProviderService.provider_id == provider.id))
    ).all()
    zips = (
        await session.scalars(select(ProviderZip.zip_code).where(ProviderZip.provider_id == provider.id))
    ).all()
    seat = Seat(
        id=provider.id,
        name=DEMO_PEOPLE[Role.provider],
        time_zone=provider.time_zone,
        city="New York",
        state="NY",
        zips=sorted(zips),
        hours=sorted(
            (await load_hours(session, [provider.id])).get(provider.id, ()),
            key=lambda h: (h.weekday, h.start_minute),
        ),
        offers=sorted(
            ((services[o.service_id], o.price, o.location_mask) for o in offers), key=lambda o: o[0].slug
        ),
    )
    return seat, Patient(account_of(patient_user), *JORDAN_HOME)


def _plan(
    rng: random.Random,
    now: datetime,
    seats: list[Seat],
    priya: Seat,
    jordan: Patient,
    patients: list[Patient],
    categories: dict[str, str],
) -> Plan:
    plan = Plan()

    def visit(
        seat: Seat,
        patient: Patient,
        status: S,
        *,
        services: tuple[str, ...] = (),
        avoid: tuple[str, ...] = (),
        rating: int | None = None,
    ) -> bool:
        return book(
            plan,
            rng,
            seat=seat,
            patient=patient,
            status=status,
            now=now,
            categories=categories,
            services=services,
            avoid=avoid,
            rating=rating,
        )

    # The demo patient: past visits (some reviewed, one not, one cancelled) and upcoming ones, two with Priya.
    near = [s for s in seats if s.city == "New York" and JORDAN_HOME[1] in s.zips] or seats[:3]
    visit(priya, jordan, S.completed, services=PRIYA_SCHEDULE, rating=5)
    visit(priya, jordan, S.completed, services=PRIYA_SCHEDULE)
    visit(near[0], jordan, S.completed, avoid=JORDAN_AVOIDS, rating=4)
    visit(near[1 % len(near)], jordan, S.completed, avoid=JORDAN_AVOIDS, rating=5)
    visit(near[2 % len(near)], jordan, S.cancelled, avoid=JORDAN_AVOIDS)
    visit(priya, jordan, S.confirmed, services=PRIYA_SCHEDULE)
    visit(priya, jordan, S.pending, services=PRIYA_SCHEDULE)
    visit(near[0], jordan, S.confirmed, avoid=JORDAN_AVOIDS)
    visit(near[1 % len(near)], jordan, S.pending, avoid=JORDAN_AVOIDS)

    # Priya's practice: past visits with reviews, and a schedule of requests and confirmed visits.
    for index in range(8):
        visit(priya, rng.choice(patients), S.completed, rating=random_rating(rng) if index % 4 else None)
    for status in (S.pending, S.pending, S.confirmed, S.confirmed):
        visit(priya, rng.choice(patients), status, services=PRIYA_SCHEDULE)

    # Everyone else: a history of visits (most reviewed, a few cancelled) and some upcoming ones.
    for seat in seats:
        for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14))):
            if rng.random() < 0.06:
                visit(seat, rng.choice(patients), S.cancelled)
            else:
                rating = random_rating(rng) if rng.random() < 0.8 else None
                visit(seat, rng.choice(patients), S.completed, rating=rating)
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            visit(seat, rng.choice(patients), rng.choice((S.pending, S.confirmed)))
    no_perfect_scores(plan, rng)
    return plan


async def seed_demo_marketplace(*, session: AsyncSession, now: datetime | None = None) -> list[str]:
    """Create the demo marketplace once (see the module docstring); returns the lines to print."""
    if get_settings().is_production:
        raise PermissionDenied("Demo data is never created with APP_ENV=production.")
    now = (now or datetime.now(UTC)).astimezone(UTC)
    rng = random.Random(RANDOM_SEED)
    catalog = await load_catalog(session)
    services = {s.id: s for found in catalog.values() for s in found}
    categories = {s.id: slug for slug, found in catalog.items() for s in found}
    generated = _generated(rng, catalog, now)
    marker = generated[0]["providers"][0]["license_number"]
    if await session.scalar(select(Provider.id).where(Provider.license_number == marker).limit(1)):
        return ["already present"]
    found = await _priya(session, services)
    if found is None:
        return ["no demo provider or patient account: run the demo accounts seeder first"]
    priya, jordan = found
    metro_of = {state: metro for metro, state, _zone, _zips in METROS if metro in PROVIDERS_PER_METRO}
    seats = [_seat(rows, services, metro_of[rows["providers"][0]["license_state"]]) for rows in generated]
    patients = [Patient(a) for a in await create_demo_patients(session=session, names=list(PATIENTS))]
    plan = _plan(rng, now, seats, priya, jordan, patients, categories)

    for rows in generated:
        provider = rows["providers"][0]
        rating = rating_summary(plan.reviews.get(provider["id"], ()))
        provider["rating_average"], provider["review_count"] = rating.average, rating.count
        for zip_row in rows["zips"]:
            zip_row.update(listing_values(provider))
    for name, model in TABLES.items():
        batch = [row for rows in generated for row in rows[name]]
        if batch:
            await session.execute(insert(model), batch)
    for model in (Order, Appointment, Transaction, Review):  # parents first: no ORM relationships here
        session.add_all([row for row in plan.rows if isinstance(row, model)])
        await session.flush()
    await refresh_ratings(session=session, provider_ids=[priya.id])
    notices = await seed_demo_notices(
        session=session,
        visits=[row for row in plan.rows if isinstance(row, Appointment)],
        patient_id=jordan.account.id,
        provider_id=priya.id,
        provider_user_id=await session.scalar(select(Provider.user_id).where(Provider.id == priya.id)),
        time_zone=priya.time_zone,
        now=now,
    )
    owner = await find_user_by_email(session, demo_email(Role.owner))
    money = await seed_demo_ledger(
        session=session,
        orders=[row for row in plan.rows if isinstance(row, Order)],
        visits=[row for row in plan.rows if isinstance(row, Appointment)],
        keep_out=priya.id,
        approver_id=owner.id if owner is not None else None,
        now=now,
    )

    per_metro = ", ".join(
        f"{count + (metro == 'New York')} in {metro}" for metro, count in PROVIDERS_PER_METRO.items()
    )
    c = plan.counts
    return [
        f"{len(seats) + 1} verified providers ({per_metro}), {len(patients)} more patients",
        f"visits: {c.get('completed', 0)} completed ({c.get('review', 0)} reviewed), {c.get('cancelled', 0)} "
        f"cancelled, {c.get('pending', 0)} pending, {c.get('confirmed', 0)} confirmed",
        f"{notices} notifications for the demo patient and provider",
        *money.lines(),
    ]
