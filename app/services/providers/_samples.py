"""Sample providers for development, demos and the search benchmark (`python -m medivisit seed --providers N`),
and the demo provider account's profile.

Names, metro areas, ZIP codes, hours and review texts come from small built-in lists; everything is
random but plausible (a phlebotomy technician draws blood, only nurses and clinicians give IV therapy).
Rows are written in bulk, a batch at a time: multi-row INSERTs on SQLite, COPY (asyncpg's
`copy_records_to_table`, in the session's transaction) on PostgreSQL. Both paths write the same rows for the
same random seed. On PostgreSQL the next batch is generated in a thread while the server stores the last, and a
large load rebuilds the secondary indexes and foreign keys once at the end. Never used in production (the
CLI refuses there).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal
from operator import itemgetter
from typing import Any, TextIO, TypeVar

from sqlalchemy import Table, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.schema import ScalarElementColumnDefault

from app.principal import SYSTEM
from app.services.catalog.internal import ensure_reference_catalog
from app.services.providers._slots import Hours, schedule_key
from app.services.shared.ratings import rating_summary
from models.base import new_id, utcnow
from models.catalog import Service, ServiceCategory, locations_of, service_mask
from models.enrollment import ProviderLicense
from models.provider import (
    Provider,
    ProviderService,
    ProviderType,
    ProviderZip,
    Review,
    TimeOff,
    WeeklyHours,
    listing_values,
)

FIRST_NAMES = (
    "Aaliyah", "Adrian", "Alicia", "Amara", "Andre", "Angela", "Ben", "Camila", "Carlos", "Chloe", "Daniel",
    "Deja", "Diego", "Elena", "Emily", "Farah", "Gabriel", "Grace", "Hannah", "Hector", "Imani", "Isaac",
    "Jasmine", "Jin", "Jonah", "Julia", "Kai", "Keisha", "Kevin", "Lauren", "Leah", "Luis", "Maya", "Mei",
    "Michael", "Nadia", "Nathan", "Noah", "Olga", "Omar", "Paula", "Rachel", "Rosa", "Samuel", "Sofia",
    "Tanya", "Thomas", "Vanessa", "Wei", "Yusuf", "Zoe",
)  # fmt: skip
LAST_NAMES = (
    "Adams", "Alvarez", "Baker", "Bennett", "Brooks", "Chen", "Clark", "Cruz", "Davis", "Diaz", "Edwards",
    "Evans", "Fisher", "Garcia", "Gomez", "Green", "Hall", "Harris", "Hughes", "Jackson", "Johnson", "Kim",
    "Lee", "Lopez", "Martin", "Mendoza", "Miller", "Moore", "Nguyen", "Okafor", "Patel", "Perez", "Price",
    "Ramirez", "Reed", "Rivera", "Robinson", "Sanchez", "Scott", "Shah", "Singh", "Taylor", "Thompson",
    "Torres", "Tran", "Walker", "Washington", "White", "Williams", "Wright", "Young",
)  # fmt: skip

# (metro, state, time zone, ZIP codes)
METROS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("New York", "NY", "America/New_York", ("10001", "10002", "10003", "10009", "10010", "10011", "10012",
     "10013", "10014", "10016", "10017", "10019", "10021", "10023", "10024", "10025", "10128", "11201",
     "11211", "11215", "11217", "11238")),
    ("Boston", "MA", "America/New_York", ("02108", "02109", "02110", "02111", "02113", "02114", "02115",
     "02116", "02118", "02119", "02120", "02125", "02127", "02128", "02129", "02130", "02134", "02135")),
    ("Miami", "FL", "America/New_York", ("33125", "33126", "33127", "33128", "33129", "33130", "33131",
     "33132", "33133", "33134", "33135", "33136", "33137", "33139", "33140", "33142", "33145")),
    ("Atlanta", "GA", "America/New_York", ("30303", "30305", "30306", "30307", "30308", "30309", "30310",
     "30312", "30313", "30314", "30316", "30318", "30324", "30326", "30327")),
    ("Chicago", "IL", "America/Chicago", ("60601", "60602", "60603", "60605", "60607", "60608", "60610",
     "60611", "60612", "60614", "60616", "60618", "60622", "60625", "60640", "60647", "60657")),
    ("Houston", "TX", "America/Chicago", ("77002", "77003", "77004", "77005", "77006", "77007", "77008",
     "77019", "77024", "77025", "77030", "77036", "77056", "77057", "77098")),
    ("Dallas", "TX", "America/Chicago", ("75201", "75202", "75203", "75204", "75205", "75206", "75207",
     "75208", "75209", "75214", "75219", "75225", "75230")),
    ("Denver", "CO", "America/Denver", ("80202", "80203", "80204", "80205", "80206", "80207", "80209",
     "80210", "80211", "80212", "80218", "80220", "80222", "80224")),
    ("Phoenix", "AZ", "America/Phoenix", ("85003", "85004", "85006", "85007", "85008", "85012", "85013",
     "85014", "85016", "85018", "85020", "85021", "85028")),
    ("Los Angeles", "CA", "America/Los_Angeles", ("90004", "90005", "90012", "90017", "90019", "90024",
     "90025", "90026", "90027", "90028", "90034", "90036", "90046", "90048", "90049", "90064", "90066")),
    ("San Francisco", "CA", "America/Los_Angeles", ("94102", "94103", "94107", "94109", "94110", "94111",
     "94114", "94115", "94117", "94118", "94121", "94122", "94123", "94131")),
    ("Seattle", "WA", "America/Los_Angeles", ("98101", "98102", "98103", "98104", "98105", "98107", "98109",
     "98112", "98115", "98116", "98117", "98119", "98122", "98125", "98144")),
)  # fmt: skip

# provider type: (weight, license type, categories they may offer, how a bio names them)
TYPES: dict[ProviderType, tuple[int, str, tuple[str, ...], str]] = {
    ProviderType.nurse: (
        30,
        "RN",
        ("phlebotomy", "iv-therapy", "nursing", "diagnostics"),
        "Registered nurse",
    ),
    ProviderType.technician: (18, "CPT", ("phlebotomy", "diagnostics"), "Certified phlebotomy technician"),
    ProviderType.lvn: (10, "LVN", ("phlebotomy", "nursing"), "Licensed vocational nurse"),
    ProviderType.np: (10, "APRN", ("iv-therapy", "nursing", "diagnostics"), "Nurse practitioner"),
    ProviderType.medical_assistant: (10, "CMA", ("phlebotomy", "diagnostics"), "Certified medical assistant"),
    ProviderType.cna: (8, "CNA", ("nursing",), "Certified nursing assistant"),
    ProviderType.doctor: (5, "MD", ("iv-therapy", "diagnostics"), "Physician"),
}

# weekly hours templates: (weekdays, [(start minute, end minute), ...])
HOURS = (
    ((0, 1, 2, 3, 4), ((9 * 60, 17 * 60),)),
    ((0, 1, 2, 3, 4), ((8 * 60, 16 * 60),)),
    ((0, 1, 2, 3, 4), ((7 * 60, 15 * 60),)),
    ((0, 1, 2, 3, 4), ((12 * 60, 20 * 60),)),
    ((1, 2, 3, 4, 5), ((10 * 60, 18 * 60),)),
    ((0, 2, 4), ((8 * 60, 18 * 60),)),
    ((0, 1, 2, 3), ((7 * 60, 12 * 60), (13 * 60, 17 * 60))),
    ((5, 6), ((9 * 60, 15 * 60),)),
    ((0, 1, 2, 3, 4, 5), ((6 * 60 + 30, 11 * 60),)),
)
OTHER_LANGUAGES = ("Mandarin", "Vietnamese", "Tagalog", "Korean", "Russian", "Haitian Creole", "Portuguese",
                   "French", "Arabic", "Hindi")  # fmt: skip
FOCUS = (
    "home visits for older adults", "early-morning fasting draws", "post-surgical recovery",
    "patients who are nervous about needles", "workplace screenings", "chronic condition care",
    "pediatric patients", "hydration and infusion care", "wound care", "diabetes education",
)  # fmt: skip
GOOD = (
    "On time and very gentle.", "Explained everything clearly.", "Quick, professional and kind.",
    "Found the vein on the first try.", "Made my mother feel at ease.", "Easy to book and arrived early.",
    "Very thorough and friendly.", "Great with my kids.",
)  # fmt: skip
MIXED = ("Arrived a bit late but was professional.", "Fine visit, some paperwork confusion.")

Rows = list[dict[str, Any]]  # rows of one table, as a multi-row INSERT takes them
K = TypeVar("K")

BATCH = 500  # providers per multi-row INSERT
COPY_BATCH = 5000  # providers per COPY (PostgreSQL)


def _weighted(rng: random.Random, weights: Mapping[K, tuple[Any, ...]]) -> K:
    """A key of `weights`, at random by the weight first in its value."""
    return rng.choices(list(weights), weights=[w[0] for w in weights.values()])[0]


def _bio(rng: random.Random, kind: ProviderType, metro: str) -> str:
    return (
        f"{TYPES[kind][3]} with {rng.randint(2, 25)} years of experience, focused on {rng.choice(FOCUS)} "
        f"in the {metro} area."
    )


async def load_catalog(session: AsyncSession) -> dict[str, list[Service]]:
    """The reference catalog's services by category slug (added first if missing)."""
    await ensure_reference_catalog(session=session)
    rows = await session.execute(
        select(Service, ServiceCategory.slug)
        .join(ServiceCategory, ServiceCategory.id == Service.category_id)
        .order_by(ServiceCategory.slug, Service.slug)  # a fixed order: a random seed reproduces the data
    )
    by_category: dict[str, list[Service]] = {}
    for service, slug in rows:
        by_category.setdefault(slug, []).append(service)
    return by_category


def provider_rows(
    rng: random.Random,
    catalog: dict[str, list[Service]],
    now: datetime,
    *,
    metro: str | None = None,
    name: tuple[str, str] | None = None,
    listed: bool = False,
    extras: bool = True,
) -> dict[str, Rows]:
    """Rows of every table (TABLES) for one random provider: in `metro` (default: any of METROS), named
    `name` (default: random), verified and active if `listed` (default: about 8% unverified, 4% inactive),
    with random time off and reviews unless `extras` is false (the demo books real visits instead)."""
    pid = new_id()
    metro, state, tz, zips = rng.choice(METROS) if metro is None else next(m for m in METROS if m[0] == metro)
    kind = _weighted(rng, TYPES)
    _weight, license_type, categories, _title = TYPES[kind]
    languages = ["English"] + (["Spanish"] if rng.random() < 0.3 else [])
    if rng.random() < 0.1:
        languages.append(rng.choice(OTHER_LANGUAGES))
    offered = [s for c in categories for s in catalog.get(c, [])]
    services = rng.sample(offered, k=min(len(offered), rng.randint(2, 6)))
    offers: Rows = []
    for service in services:
        allowed = locations_of(service.location_mask)
        kept = [loc for loc in allowed if loc.value == "home" or rng.random() < 0.7] or allowed[:1]
        mask = sum(loc.bit for loc in kept)
        price = (Decimal(service.price) * Decimal(str(rng.uniform(0.85, 1.25)))).quantize(Decimal("1"))
        offers.append(
            {
                "provider_id": pid,
                "service_id": service.id,
                "price": price,
                "location_mask": mask,
                "provider_type": kind,
            }
        )
    weekdays, spans = rng.choice(HOURS)
    hours: Rows = [
        {"id": new_id(), "provider_id": pid, "weekday": d, "start_minute": s, "end_minute": e}
        for d in weekdays
        for s, e in spans
    ]
    time_off: Rows = []
    if extras and rng.random() < 0.15:
        start = (now + timedelta(days=rng.randint(0, 21))).replace(hour=0, minute=0, second=0, microsecond=0)
        time_off.append(
            {
                "id": new_id(),
                "provider_id": pid,
                "starts_at": start,
                "ends_at": start + timedelta(days=rng.randint(1, 5)),
                "reason": "Vacation",
            }
        )
    reviews: Rows = []
    for _ in range(max(0, min(40, int(rng.paretovariate(1.1) * 3) - 2)) if extras else 0):
        stars = rng.choices((5, 4, 3, 2), weights=(60, 30, 7, 3))[0]
        reviews.append(
            {
                "id": new_id(),
                "provider_id": pid,
                "author_name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)[0]}.",
                "visit_completed": rng.random() < 0.92,
                "rating": stars,
                "comment": rng.choice(GOOD if stars >= 4 else MIXED),
                "created_at": now - timedelta(days=rng.randint(1, 365)),
            }
        )
    rating = rating_summary((r["rating"], r["visit_completed"]) for r in reviews)
    provider: dict[str, Any] = {
        "id": pid,
        "user_id": None,
        "first_name": name[0] if name else rng.choice(FIRST_NAMES),
        "last_name": name[1] if name else rng.choice(LAST_NAMES),
        "provider_type": kind,
        "license_type": license_type,
        "license_number": f"{license_type}-{rng.randint(100000, 999999)}",
        "license_state": state,
        "is_verified": listed or rng.random() < 0.92,
        "is_active": listed or rng.random() < 0.96,
        "bio": _bio(rng, kind, metro),
        "photo_url": "",
        "languages": languages,
        "time_zone": tz,
        "rating_average": rating.average,
        "review_count": rating.count,
        "schedule_key": schedule_key(Hours(h["weekday"], h["start_minute"], h["end_minute"]) for h in hours),
        "lowest_price": min(o["price"] for o in offers),
        "service_mask": service_mask(s.search_bit for s in services),
        "created_at": now - timedelta(days=rng.randint(1, 700)),
    }
    # A licence of the metro's state (the licence-state rule), expiring one to three years ahead: spread by
    # the licence number, so the random sequence (and every demo that depends on it) stays as it was.
    number = provider["license_number"]
    licenses = [
        {
            "id": new_id(),
            "application_id": None,
            "provider_id": pid,
            "license_type": license_type,
            "state": state,
            "number": number,
            "expires_on": now.date() + timedelta(days=365 + int(number[-6:]) % 730),
            "created_at": provider["created_at"],
        }
    ]
    copies = listing_values(provider)
    zip_rows = [
        {"zip_code": z, "provider_id": pid, **copies}
        for z in rng.sample(zips, k=rng.randint(4, min(12, len(zips))))
    ]
    return {
        "providers": [provider],
        "offers": offers,
        "zips": zip_rows,
        "licenses": licenses,
        "hours": hours,
        "time_off": time_off,
        "reviews": reviews,
    }


TABLES = {
    "providers": Provider,
    "offers": ProviderService,
    "zips": ProviderZip,
    "licenses": ProviderLicense,
    "hours": WeeklyHours,
    "time_off": TimeOff,
    "reviews": Review,
}


async def seed_providers(
    *,
    session: AsyncSession,
    count: int,
    rng: random.Random | None = None,
    progress: Callable[[int, int], None] | None = None,
    now: datetime | None = None,
) -> int:
    """Create `count` random providers (about 8% unverified, 4% inactive) with services, ZIP codes,
    hours, some time off and reviews. Returns how many were created."""
    rng = rng or random.Random()
    now = now or utcnow()
    catalog = await load_catalog(session)
    if session.get_bind().dialect.name == "postgresql":
        return await _seed_by_copy(session, count, rng, catalog, now, progress)
    done = 0
    while done < count:
        size = min(BATCH, count - done)
        batch = _batch(rng, catalog, now, size)
        for name, model in TABLES.items():
            if batch[name]:
                await session.execute(insert(model), batch[name])
        done += size
        if progress is not None:
            progress(done, count)
    return done


def _batch(
    rng: random.Random, catalog: dict[str, list[Service]], now: datetime, size: int
) -> dict[str, Rows]:
    batch: dict[str, Rows] = {name: [] for name in TABLES}
    for _ in range(size):
        for name, rows in provider_rows(rng, catalog, now).items():
            batch[name].extend(rows)
    return batch


async def _seed_by_copy(
    session: AsyncSession,
    count: int,
    rng: random.Random,
    catalog: dict[str, list[Service]],
    now: datetime,
    progress: Callable[[int, int], None] | None,
) -> int:
    """The PostgreSQL path: the same rows as the INSERT path (same generator, same order), by COPY.

    The next batch is generated in a worker thread while the server stores the last one, and a large load
    (`BULK_LOAD` providers or more) sets the tables' foreign keys and secondary indexes aside and rebuilds
    them at the end, in the same transaction: one sort per index instead of millions of random inserts, one
    join per foreign key instead of a trigger per row."""
    await session.flush()  # the catalog, if it was just added, before COPY bypasses the session
    restore = await _set_aside_indexes(session) if count >= BULK_LOAD else []
    done = 0
    pending = asyncio.create_task(asyncio.to_thread(_batch, rng, catalog, now, min(COPY_BATCH, count)))
    while done < count:
        batch = await pending
        size = min(COPY_BATCH, count - done)
        done += size
        if done < count:  # generate the next batch while this one is copied
            following = min(COPY_BATCH, count - done)
            pending = asyncio.create_task(asyncio.to_thread(_batch, rng, catalog, now, following))
        for name, model in TABLES.items():
            table = model.__table__
            assert isinstance(table, Table)  # each model maps one table
            if batch[name]:
                await _copy(session, table, batch[name])
        if progress is not None:
            progress(done, count)
    if restore:
        await session.execute(text("SET LOCAL maintenance_work_mem = '256MB'"))
    for statement in restore:
        await session.execute(text(statement))
    return done


BULK_LOAD = 100_000  # providers: from here on, a PostgreSQL seed rebuilds indexes and foreign keys at the end


async def _set_aside_indexes(session: AsyncSession) -> list[str]:
    """Drop the foreign keys and secondary indexes of the seeded tables; return the statements that put
    them back, exactly as the catalog had them (primary keys and unique constraints stay)."""
    tables = [model.__tablename__ for model in TABLES.values()]
    foreign_keys = (
        await session.execute(
            text(
                "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE contype = 'f' AND conrelid::regclass::text = ANY(:tables)"
            ),
            {"tables": tables},
        )
    ).all()
    indexes = (
        await session.execute(
            text(
                "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
                "WHERE i.indrelid::regclass::text = ANY(:tables) AND NOT i.indisprimary AND NOT i.indisunique"
            ),
            {"tables": tables},
        )
    ).all()
    for table, name, _definition in foreign_keys:
        await session.execute(text(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"'))
    for name, _definition in indexes:
        await session.execute(text(f"DROP INDEX {name}"))
    return [definition for _name, definition in indexes] + [
        f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
        for table, name, definition in foreign_keys
    ]


async def _copy(session: AsyncSession, table: Table, rows: Rows) -> None:
    """COPY `rows` into `table` on the session's connection (so in its transaction). Columns a row leaves
    out get their scalar default or NULL; values go through the column types' bind processors, as an
    INSERT's would (an enum is stored by name, JSON as text)."""
    connection = await session.connection()
    driver = (await connection.get_raw_connection()).driver_connection
    assert driver is not None  # the session's connection, open
    dialect = connection.dialect
    columns = list(table.columns)
    fill = {
        c.key: c.default.arg if isinstance(c.default, ScalarElementColumnDefault) else None for c in columns
    }
    convert: dict[str, Callable[[Any], Any]] = {}
    for c in columns:
        processor = c.type.dialect_impl(dialect).bind_processor(dialect)
        if processor is not None:
            convert[c.key] = processor
    pick = itemgetter(*fill)
    records: list[Any] = []
    for row in rows:
        full = fill | row
        for key, to_db in convert.items():
            full[key] = to_db(full[key])
        records.append(pick(full))
    await driver.copy_records_to_table(table.name, records=records, columns=[c.name for c in columns])


def progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    """A one-line progress bar written to `stream` (stderr)."""

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} providers")
        if done >= total:
            stream.write("\n")
        stream.flush()

    return show


DEMO_ZIPS = ("10001", "10003", "10010", "10011", "10014", "10016", "10019", "11201")


async def seed_demo_provider(*, session: AsyncSession, user_id: str, name: str) -> str | None:
    """A verified profile for the demo provider account, unless it has one. Returns its id or None.
    Its reviews come from real visits (the demo marketplace seeding)."""
    from app.services.providers._availability import set_weekly_hours
    from app.services.providers._licensing import add_profile_license
    from app.services.providers._profiles import ServiceOffer, create_provider, set_service_area, set_services

    if await session.scalar(select(Provider.id).where(Provider.user_id == user_id)):
        return None
    await ensure_reference_catalog(session=session)
    first, _, last = name.partition(" ")
    profile = await create_provider(
        session=session,
        actor=SYSTEM,
        user_id=user_id,
        first_name=first or "Demo",
        last_name=last or "Provider",
        provider_type=ProviderType.nurse,
        license_type="RN",
        license_number="RN-204518",
        license_state="NY",
        bio="Registered nurse with 9 years of experience in home infusion and phlebotomy in New York City.",
        languages=("English", "Hindi"),
        time_zone="America/New_York",
        verified=True,
    )
    await set_services(
        session=session,
        actor=SYSTEM,
        provider_id=profile.id,
        offers=[
            ServiceOffer("routine-blood-draw", Decimal("85")),
            ServiceOffer("fasting-blood-draw", Decimal("95")),
            ServiceOffer("iv-hydration", Decimal("159")),
            ServiceOffer("iv-vitamin-infusion", Decimal("239")),
            ServiceOffer("injection-visit", Decimal("89")),
        ],
    )
    await add_profile_license(
        session=session,
        provider_id=profile.id,
        license_type="RN",
        state="NY",
        number="RN-204518",
        expires_on=date.today().replace(day=1) + timedelta(days=2 * 365),
    )
    await set_service_area(session=session, actor=SYSTEM, provider_id=profile.id, zip_codes=DEMO_ZIPS)
    await set_weekly_hours(
        session=session,
        actor=SYSTEM,
        provider_id=profile.id,
        hours=[Hours(day, 8 * 60, 17 * 60) for day in range(5)],
    )
    return profile.id
