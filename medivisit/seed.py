"""Reference and demo data. Each later area adds its seeder to SEEDERS; `--if-empty` makes `make run` safe to repeat.

The seeders run with the job runner (app/jobs.py): one unit of work for SEEDERS, one for the sample providers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.jobs import run_command
from models import Base

# (name, demo_only, seeder) — a seeder returns the lines to print.
Seeder = Callable[[AsyncSession], Awaitable[list[str]]]
SEEDERS: list[tuple[str, bool, Seeder]] = []


async def _is_empty(session: AsyncSession) -> bool:
    for table in Base.metadata.sorted_tables:
        if await session.scalar(select(func.count()).select_from(table)):
            return False
    return True


async def _run_seeders(*, session: AsyncSession, demo: bool, only_if_empty: bool) -> list[str] | None:
    """What SEEDERS did, line by line; None when `only_if_empty` and the database holds data."""
    if only_if_empty and not await _is_empty(session):
        return None
    report: list[str] = []
    for name, demo_only, seeder in SEEDERS:
        if demo_only and not demo:
            continue
        report.append(f"== {name}")
        report.extend(await seeder(session))
    return report


async def seed(
    *,
    demo: bool,
    only_if_empty: bool = False,
    providers: int = 0,
    random_seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Reference data (always), demo data (with `demo`), and `providers` random sample providers."""
    report = await run_command(_run_seeders, demo=demo, only_if_empty=only_if_empty)
    if report is None:
        return ["Database already holds data; nothing seeded."]
    if providers > 0:
        import random

        from app.services.providers.internal import seed_providers

        created = await run_command(
            seed_providers, count=providers, rng=random.Random(random_seed), progress=progress
        )
        report += [
            "== Sample providers",
            f"{created:,} providers with services, ZIP codes, hours and reviews",
        ]
    return report or ["No seed data is defined yet."]


async def _demo_accounts(session: AsyncSession) -> list[str]:
    from app.services.accounts import DEMO_PASSWORD
    from app.services.accounts.internal import create_demo_accounts

    accounts = await create_demo_accounts(session=session)
    lines = [f"{'role':<11} {'e-mail':<34} password"]
    lines += [f"{a.role.value:<11} {a.email:<34} {DEMO_PASSWORD}" for a in accounts]
    return lines


SEEDERS.append(("Demo accounts (one per role, one shared password)", True, _demo_accounts))


async def _reference_catalog(session: AsyncSession) -> list[str]:
    from app.services.catalog.internal import ensure_reference_catalog

    added = await ensure_reference_catalog(session=session)
    return [f"added {line}" for line in added] or ["already complete"]


async def _demo_provider_profile(session: AsyncSession) -> list[str]:
    from app.auth.sessions import find_user_by_email
    from app.services.accounts import DEMO_PEOPLE, demo_email
    from app.services.providers.internal import seed_demo_provider
    from models.account import Role

    user = await find_user_by_email(session, demo_email(Role.provider))
    if user is None:
        return ["no demo provider account"]
    name = DEMO_PEOPLE[Role.provider]
    created = await seed_demo_provider(session=session, user_id=user.id, name=name)
    return [f"verified profile for {name}, the demo provider" if created else "profile already exists"]


async def _decision_reasons(session: AsyncSession) -> list[str]:
    from app.services.enrollment.internal import ensure_decision_reasons

    added = await ensure_decision_reasons(session=session)
    return [f"added {len(added)} reasons"] if added else ["already complete"]


async def _handbook(session: AsyncSession) -> list[str]:
    from app.services.handbook.internal import ensure_handbook

    added = await ensure_handbook(session=session)
    return [f"added {len(added)} articles"] if added else ["already complete"]


async def _help_center(session: AsyncSession) -> list[str]:
    from app.services.help_center.internal import ensure_help_center

    added = await ensure_help_center(session=session)
    return [f"added {len(added)} articles"] if added else ["already complete"]


async def _forum(session: AsyncSession) -> list[str]:
    from app.services.forum.internal import ensure_forum_categories

    added = await ensure_forum_categories(session=session)
    return [f"added {len(added)} categories"] if added else ["already complete"]


SEEDERS.insert(0, ("Service catalog (reference data)", False, _reference_catalog))
SEEDERS.insert(1, ("Enrollment decision reasons (reference data)", False, _decision_reasons))
SEEDERS.insert(2, ("Staff handbook (reference data)", False, _handbook))
SEEDERS.insert(3, ("Help Center articles (reference data)", False, _help_center))
SEEDERS.insert(4, ("Forum categories (reference data)", False, _forum))
SEEDERS.append(("Demo provider profile (verified, New York City)", True, _demo_provider_profile))


async def _demo_staff(session: AsyncSession) -> list[str]:
    from app.auth.sessions import find_user_by_email
    from app.services.accounts import demo_email
    from app.services.staff.internal import ensure_staff_rows
    from models.account import Role
    from models.staff import Permission

    # SPEC §3: four staff members, one each for owner, management, hr and support (their demo accounts).
    # Management also processes payments, so that a payout above the second-approval limit has two people
    # who may approve it (the owner and the manager), as a real team would.
    roles = (Role.owner, Role.management, Role.hr, Role.support)
    found = {role: await find_user_by_email(session, demo_email(role)) for role in roles}
    manager = found[Role.management]
    created = await ensure_staff_rows(
        session=session,
        user_ids=[user.id for user in found.values() if user],
        extras={manager.id: [Permission.process_payments]} if manager else None,
    )
    return [f"{created} staff members added" if created else "staff members already exist"]


SEEDERS.append(("Demo staff (owner, management, hr, support)", True, _demo_staff))


async def _demo_marketplace(session: AsyncSession) -> list[str]:
    from app.services.demo.internal import seed_demo_marketplace

    return await seed_demo_marketplace(session=session)


async def _demo_tickets(session: AsyncSession) -> list[str]:
    from app.services.demo.internal import seed_demo_tickets

    return await seed_demo_tickets(session=session)


SEEDERS.append(
    (
        "Demo marketplace (providers in New York, Chicago and Los Angeles; visits; reviews)",
        True,
        _demo_marketplace,
    )
)
SEEDERS.append(("Demo help-desk tickets", True, _demo_tickets))


async def _demo_store(session: AsyncSession) -> list[str]:
    from app.services.demo.internal import seed_demo_store

    return await seed_demo_store(session=session)


SEEDERS.append(("Demo store catalogue", True, _demo_store))


async def _demo_careers(session: AsyncSession) -> list[str]:
    from app.services.demo.internal import seed_demo_careers

    return await seed_demo_careers(session=session)


SEEDERS.append(("Demo job postings", True, _demo_careers))
