"""Provider-search benchmark (`make bench`): seeds sample providers into a temporary SQLite database (or
the PostgreSQL database of --database-url, by COPY) and prints the p50/p95 latency of `search_providers`
over a mix of realistic queries.

Each search is timed the way a screen runs it: a fresh unit of work, the search, the commit.
Usage: python tools/bench_search.py [--providers 10000] [--queries 400] [--database-url sqlite:///...] [--reuse]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def query_mix(rng: random.Random, zips: list[str], services: list[str], categories: list[str]):  # noqa: ANN201
    """(kind, query parameters) in the proportions a busy site might see."""
    from models.catalog import ServiceLocation
    from models.provider import ProviderType

    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    types = [ProviderType.nurse, ProviderType.technician, ProviderType.np, ProviderType.lvn]
    kinds = {
        "browse, rating": lambda: {"sort": "rating", "page": str(rng.randint(1, 5))},
        "browse, price": lambda: {"sort": "price"},
        "browse, soonest": lambda: {"sort": "soonest"},
        "zip, rating": lambda: {"zip": rng.choice(zips)},
        "zip+service, soonest": lambda: {"zip": rng.choice(zips), "service": rng.choice(services), "sort": "soonest"},
        "zip+category, price": lambda: {"zip": rng.choice(zips), "service": rng.choice(categories), "sort": "price"},
        "zip+service+date": lambda: {"zip": rng.choice(zips), "service": rng.choice(services), "date": tomorrow, "sort": "soonest"},
        "zip+type+location": lambda: {"zip": rng.choice(zips), "type": rng.choice(types).value, "location": ServiceLocation.home.value, "sort": "soonest"},
        "service, soonest": lambda: {"service": rng.choice(services), "sort": "soonest"},
        "category+type, rating": lambda: {"service": rng.choice(categories), "type": rng.choice(types).value},
        "type, soonest, page 3": lambda: {"type": rng.choice(types).value, "sort": "soonest", "page": "3"},
        "zip+date, rating": lambda: {"zip": rng.choice(zips), "date": tomorrow},
    }  # fmt: skip
    return list(kinds.items())


async def run(args: argparse.Namespace) -> None:
    from app import db as app_db
    from app.migrate import upgrade_async
    from app.services.providers import METROS, progress_bar, search_providers
    from app.services.providers.internal import seed_providers
    from models.provider import ProviderQuery

    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp(prefix='medivisit-bench-')) / 'bench.db'}"
    await upgrade_async(url)
    database = app_db.use_database(url)
    started = time.perf_counter()
    if args.reuse:
        print(f"Searching the providers already in {url}")
    else:
        async with database.unit_of_work() as session:
            await seed_providers(
                session=session, count=args.providers, rng=random.Random(7), progress=progress_bar(sys.stderr)
            )
        print(f"Seeded {args.providers:,} providers in {time.perf_counter() - started:.1f} s ({url})")
    # Fresh planner statistics and (PostgreSQL) visibility maps, as a live database has them: autovacuum
    # would take a while to notice a bulk load, and index-only scans need the visibility map.
    from sqlalchemy import text

    async with database.engine.connect() as connection:
        autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
        postgres = connection.dialect.name == "postgresql"
        await autocommit.execute(text("VACUUM ANALYZE" if postgres else "ANALYZE"))

    from app.services.catalog import CATALOG

    rng = random.Random(11)
    zips = [z for _m, _s, _tz, codes in METROS for z in codes]
    services = [s.slug for c in CATALOG for s in c.services]
    categories = [c.slug for c in CATALOG]
    mix = query_mix(rng, zips, services, categories)
    timings: dict[str, list[float]] = {kind: [] for kind, _ in mix}
    cpu: dict[str, list[float]] = {kind: [] for kind, _ in mix}
    results: dict[str, list[int]] = {kind: [] for kind, _ in mix}

    async def one(kind: str, params: dict[str, str]) -> float:
        query = ProviderQuery.from_params({k: [v] for k, v in params.items()})
        t0, c0 = time.perf_counter(), time.process_time()
        async with database.unit_of_work() as session:
            page = await search_providers(session=session, query=query, time_zone="America/Chicago")
        elapsed = (time.perf_counter() - t0) * 1000
        cpu[kind].append((time.process_time() - c0) * 1000)
        results[kind].append(page.total)
        return elapsed

    for kind, make in mix:  # warm up: caches, prepared statements
        await one(kind, make())
    for kind in results:
        results[kind].clear()
        cpu[kind].clear()
    for _ in range(args.queries):
        kind, make = rng.choice(mix)
        timings[kind].append(await one(kind, make()))

    every = [t for values in timings.values() for t in values]
    every_cpu = [t for values in cpu.values() for t in values]
    # CPU time of this process (with SQLite, the database's work too): unlike the wall clock, hardly moved
    # by other work on the machine, so runs on a busy machine can still be compared.
    print(f"\n{'query':<24} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'CPU p50':>8} {'matches (median)':>17}")
    for kind, values in timings.items():
        if values:
            median = int(statistics.median(results[kind]))
            print(
                f"{kind:<24} {len(values):>4} {percentile(values, 0.5):>8.1f} {percentile(values, 0.95):>8.1f} "
                f"{percentile(cpu[kind], 0.5):>8.1f} {median:>17,}"
            )
    print(
        f"\nall {len(every)} searches: p50 {percentile(every, 0.5):.1f} ms, p95 {percentile(every, 0.95):.1f} ms, "
        f"max {max(every):.1f} ms; CPU p50 {percentile(every_cpu, 0.5):.1f} ms, p95 {percentile(every_cpu, 0.95):.1f} ms"
    )
    load = os.getloadavg()[0]
    print(
        f"(load average {load:.1f} on {os.cpu_count()} CPUs: other work on the machine slows the wall clock)"
    )
    await database.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--providers", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--database-url", help="default: a new SQLite file in a temporary folder")
    parser.add_argument(
        "--reuse", action="store_true", help="search the providers already in --database-url (seed nothing)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
