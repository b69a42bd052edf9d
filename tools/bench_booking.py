"""Booking-throughput benchmark (issue 10): bookings per second on PostgreSQL from several worker processes.

One booking is what checkout does for one visit: `hold_slot`, then `place_order` with the held time (the
visit's cart item, a home address), each in a unit of work of its own through `components.hooks`'
`in_unit_of_work`, as the screen's actions run them. The benchmark creates a fresh PostgreSQL database (or
uses --database-url), migrates it, seeds providers open around the clock (each with a provider account, so a
booking sends two e-mails) and signed-in patients (each with the visits in their cart), then starts --workers processes of --concurrency asyncio bookers each. Every
booking takes a distinct free time, so nothing is refused; several bookers may write one provider's
calendar at the same moment, as real patients do.

It prints bookings/s (all processes, wall clock), p50/p95 latency of a booking and of each step, the SQL
statements per booking (a `before_cursor_execute` listener) and the CPU time per booking of the workers and
of their PostgreSQL server processes (read from /proc when the server runs on this machine), which, unlike
the wall clock, other work on the machine hardly changes. Nothing is written outside its own database; a
database it created is dropped at the end unless --keep.

Usage: python tools/bench_booking.py [--workers 4] [--concurrency 8] [--bookings 2000] [--providers 200]
       [--server postgresql://postgres@127.0.0.1:5432/postgres | --database-url postgresql://...] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import secrets
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVICE = "routine-blood-draw"  # 30 minutes, offered at home by every seeded provider
ZIP_CODE = "10001"
ADDRESS = {"address_line": "350 Fifth Avenue", "city": "New York", "state": "NY", "zip_code": ZIP_CODE}
# Seeding makes real password accounts: cheap hashing, as the tests use (nobody signs in with them).
FAST_HASHING = {"PASSWORD_HASH_MEMORY_KIB": "1024", "PASSWORD_HASH_TIME_COST": "1"}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else 0.0


def configure(url: str) -> None:
    """Settings for this process: the bench database, no SMTP (e-mails stay in the outbox), fast hashing."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # tests.factories
    os.environ.update(DATABASE_URL=url, **FAST_HASHING)
    os.environ.pop("SMTP_URL", None)
    from app.settings import get_settings

    get_settings.cache_clear()


@dataclass
class Booker:
    """One asyncio booker: its patient (a signed-in principal) and the (provider, start) pairs it books."""

    user_id: str
    session_id: str
    slots: list[tuple[str, datetime]] = field(default_factory=list)


@dataclass
class WorkerResult:
    booking_ms: list[float] = field(default_factory=list)
    hold_ms: list[float] = field(default_factory=list)
    place_ms: list[float] = field(default_factory=list)
    statements: int = 0
    failures: Counter = field(default_factory=Counter)
    started: float = 0.0
    finished: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time during the timed run


# ---- the database -------------------------------------------------------------------------------
async def _admin(server: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def seed(url: str, providers: int, bookers: int, per_booker: int) -> list[Booker]:
    """`providers` verified providers open every hour of every day; `bookers` signed-in patients, each with
    `per_booker` visits of SERVICE in their cart; each booker's distinct (provider, start) pairs."""
    from sqlalchemy import text

    from app import db as app_db
    from app.migrate import upgrade_async
    from app.services.cart import CartOwner, add_to_cart
    from app.settings import get_settings
    from models.account import Role
    from tests.factories import ALL_WEEK, person, provider

    await upgrade_async(url)
    database = app_db.use_database(url)
    started = time.perf_counter()
    provider_ids = []
    for index in range(providers):  # each with an account, which gets the 'New visit request' e-mails
        owner = await person(Role.provider, name=f"Bench Provider{index}")
        provider_ids.append(
            await provider(
                f"Bench Provider{index}", zip_codes=[ZIP_CODE], hours=ALL_WEEK, time_zone="UTC", owner=owner
            )  # fmt: skip
        )
    patients = [await person(name=f"Bench Patient{index}") for index in range(bookers)]
    async with database.unit_of_work() as session:
        for patient in patients:  # the visit in the cart, as a patient adds it; then as many as they book
            await add_to_cart(session=session, owner=CartOwner(user_id=patient.id), actor=patient.actor,
                              service_slug=SERVICE)  # fmt: skip
        await session.flush()
        await session.execute(text("UPDATE cart_items SET quantity = :n"), {"n": per_booker + 1})
    async with database.unit_of_work() as session:
        await session.execute(text("ANALYZE"))
    print(
        f"Seeded {providers} providers and {bookers} signed-in patients in "
        f"{time.perf_counter() - started:.1f} s ({url.rpartition('@')[2]})"
    )

    # Start times: on the hour, from a few hours ahead (past the minimum notice) to the booking horizon.
    # Booker b's j-th booking takes provider (b + j) mod P at hour j: distinct pairs while bookers ≤ P,
    # and no patient has two visits at one time.
    settings = get_settings()
    first = (datetime.now(UTC) + timedelta(minutes=settings.slot_min_notice_minutes + 60)).replace(
        minute=0, second=0, microsecond=0
    )
    hours = settings.slot_horizon_days * 24 - 48
    if per_booker + 1 > hours:
        raise SystemExit(f"at most {hours - 1} bookings per booker fit before the booking horizon")
    if bookers > providers:
        raise SystemExit("use at least as many providers as bookers (--providers)")
    await database.dispose()
    return [
        Booker(
            user_id=patient.actor.user_id,
            session_id=patient.actor.session_id,
            slots=[
                (provider_ids[(b + j) % providers], first + timedelta(hours=j)) for j in range(per_booker + 1)
            ],
        )
        for b, patient in enumerate(patients)
    ]


async def server_cpu_seconds(url: str, since: dict[int, float] | None = None) -> dict[int, float]:
    """CPU seconds of the PostgreSQL server processes connected to the bench database (read from /proc:
    the server runs on this machine), minus `since`'s figures for the same processes."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        pids = [
            row["pid"]
            for row in await conn.fetch(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ]
    finally:
        await conn.close()
    seconds = {pid: cpu for pid in pids if (cpu := _process_cpu_seconds(pid)) is not None}
    if since is None:
        return seconds
    return {pid: cpu - since[pid] for pid, cpu in seconds.items() if pid in since}


def _process_cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of a process of this machine (None: not here, or gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- one worker process -------------------------------------------------------------------------
async def book_one(actor, provider_id: str, starts_at: datetime, result: WorkerResult) -> None:  # noqa: ANN001
    from app.services.booking import CheckoutLine, hold_slot, place_order
    from components.hooks import in_unit_of_work
    from models.catalog import ServiceLocation

    t0 = time.perf_counter()
    held = await in_unit_of_work(
        hold_slot,
        actor=actor,
        service_slug=SERVICE,
        provider_id=provider_id,
        starts_at=starts_at,
        zip_code=ZIP_CODE,
        location=ServiceLocation.home,
    )
    t1 = time.perf_counter()
    line = CheckoutLine(hold_id=held.id, cart_item_id=SERVICE, location=ServiceLocation.home, **ADDRESS)
    await in_unit_of_work(place_order, actor=actor, lines=[line])
    t2 = time.perf_counter()
    result.hold_ms.append((t1 - t0) * 1000)
    result.place_ms.append((t2 - t1) * 1000)
    result.booking_ms.append((t2 - t0) * 1000)


async def run_worker(url: str, bookers: list[Booker], barrier) -> WorkerResult:  # noqa: ANN001
    from sqlalchemy import event

    from app import db as app_db
    from app.principal import Principal
    from app.services.errors import ServiceError

    database = app_db.use_database(url)
    result = WorkerResult()
    actors = [Principal.user(user_id=b.user_id, session_id=b.session_id) for b in bookers]
    # Warm up (connections, statement caches, imports): each booker's first booking, not counted.
    await asyncio.gather(
        *(book_one(a, *b.slots[0], WorkerResult()) for a, b in zip(actors, bookers, strict=True))
    )

    def count(*_args) -> None:  # noqa: ANN002
        result.statements += 1

    event.listen(database.engine.sync_engine, "before_cursor_execute", count)
    await asyncio.to_thread(barrier.wait)
    result.started, cpu = time.monotonic(), time.process_time()

    async def booker(actor, slots: list[tuple[str, datetime]]) -> None:  # noqa: ANN001
        for provider_id, starts_at in slots:
            try:
                await book_one(actor, provider_id, starts_at, result)
            except ServiceError as error:
                result.failures[error.message] += 1

    await asyncio.gather(*(booker(a, b.slots[1:]) for a, b in zip(actors, bookers, strict=True)))
    result.finished, result.cpu_seconds = time.monotonic(), time.process_time() - cpu
    await asyncio.to_thread(barrier.wait)  # all done: the main process reads the server's CPU time
    await asyncio.to_thread(barrier.wait)  # ... and has read it: the connections may close
    event.remove(database.engine.sync_engine, "before_cursor_execute", count)
    await database.dispose()
    return result


def worker_main(url: str, bookers: list[Booker], barrier, results) -> None:  # noqa: ANN001
    configure(url)
    results.put(asdict(asyncio.run(run_worker(url, bookers, barrier))))


# ---- the run ------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4, help="OS processes (default 4)")
    parser.add_argument("--concurrency", type=int, default=8, help="asyncio bookers per process (default 8)")
    parser.add_argument("--bookings", type=int, default=2000, help="bookings in all (default 2000)")
    parser.add_argument("--providers", type=int, default=200)
    parser.add_argument("--server", default="postgresql://postgres@127.0.0.1:5432/postgres",
                        help="PostgreSQL server on which to create (and drop) a fresh database")  # fmt: skip
    parser.add_argument("--database-url", help="a PostgreSQL database to migrate and seed instead")
    parser.add_argument("--keep", action="store_true", help="keep the database this run created")
    args = parser.parse_args()

    created = None
    url = args.database_url
    if url is None:
        created = f"bench_booking_{secrets.token_hex(4)}"
        asyncio.run(_admin(args.server, f'CREATE DATABASE "{created}"'))
        url = f"{args.server.rpartition('/')[0]}/{created}"
    configure(url)
    try:
        bookers_count = args.workers * args.concurrency
        per_booker = -(-args.bookings // bookers_count)
        bookers = asyncio.run(seed(url, args.providers, bookers_count, per_booker))
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter and event loop per worker
        barrier = spawn.Barrier(args.workers + 1)  # the workers and this process, which reads server CPU
        results = spawn.Queue()
        processes = [
            spawn.Process(
                target=worker_main,
                args=(url, bookers[w * args.concurrency : (w + 1) * args.concurrency], barrier, results),
            )
            for w in range(args.workers)
        ]
        for process in processes:
            process.start()
        barrier.wait()  # the workers are warmed up and start now
        server = asyncio.run(server_cpu_seconds(url))
        barrier.wait()  # the workers are done
        server = asyncio.run(server_cpu_seconds(url, server))
        barrier.wait()
        done = [WorkerResult(**results.get()) for _ in processes]
        for process in processes:
            process.join()
        report(args, done, sum(server.values()))
    finally:
        if created and not args.keep:
            asyncio.run(_admin(args.server, f'DROP DATABASE IF EXISTS "{created}" WITH (FORCE)'))
        elif created:
            print(f"Kept {url}")


def report(args: argparse.Namespace, done: list[WorkerResult], server_seconds: float) -> None:
    booked = [ms for r in done for ms in r.booking_ms]
    failures = sum((r.failures for r in done), Counter())
    elapsed = max(r.finished for r in done) - min(r.started for r in done)
    attempts = len(booked) + sum(failures.values())
    statements = sum(r.statements for r in done)
    holds = [ms for r in done for ms in r.hold_ms]
    places = [ms for r in done for ms in r.place_ms]
    print(
        f"\n{args.workers} workers × {args.concurrency} bookers: {len(booked)} bookings in {elapsed:.2f} s = "
        f"{len(booked) / elapsed:.0f} bookings/s"
    )
    print(f"booking      p50 {percentile(booked, 0.5):6.1f} ms   p95 {percentile(booked, 0.95):6.1f} ms")
    print(f"  hold_slot  p50 {percentile(holds, 0.5):6.1f} ms   p95 {percentile(holds, 0.95):6.1f} ms")
    print(f"  place_order p50 {percentile(places, 0.5):5.1f} ms   p95 {percentile(places, 0.95):6.1f} ms")
    print(f"SQL statements per booking: {statements / max(attempts, 1):.1f}")
    cpu = sum(r.cpu_seconds for r in done)
    print(f"Python CPU per booking (worker processes): {cpu * 1000 / max(attempts, 1):.1f} ms")
    print(f"PostgreSQL CPU per booking (the workers' server processes): {server_seconds * 1000 / max(attempts, 1):.1f} ms")  # fmt: skip
    load = os.getloadavg()[0]
    print(f"(load average {load:.1f} on {os.cpu_count()} CPUs: other work on the machine slows the wall clock)")  # fmt: skip
    if failures:
        print(f"refused: {sum(failures.values())}")
        for message, n in failures.most_common():
            print(f"  {n} × {message}")
    if booked:
        print(f"mean booking {statistics.fmean(booked):.1f} ms")


if __name__ == "__main__":
    main()
