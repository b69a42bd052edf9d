"""Reference and demo data. Each later area adds its seeder to SEEDERS; `--if-empty` makes `make run` safe to repeat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import unit_of_work
from models import Base

# (name, demo_only, seeder) — a seeder returns the lines to print.
Seeder = Callable[[AsyncSession], Awaitable[list[str]]]
SEEDERS: list[tuple[str, bool, Seeder]] = []


async def _is_empty(session: AsyncSession) -> bool:
    for table in Base.metadata.sorted_tables:
        if await session.scalar(select(func.count()).select_from(table)):
            return False
    return True


async def seed(*, demo: bool, only_if_empty: bool = False) -> list[str]:
    async with unit_of_work() as session:
        if only_if_empty and not await _is_empty(session):
            return ["Database already holds data; nothing seeded."]
        report: list[str] = []
        for name, demo_only, seeder in SEEDERS:
            if demo_only and not demo:
                continue
            report.append(f"== {name}")
            report.extend(await seeder(session))
        return report or ["No seed data is defined yet."]


async def _demo_accounts(session: AsyncSession) -> list[str]:
    from app.services.accounts import DEMO_PASSWORD, create_demo_accounts

    accounts = await create_demo_accounts(session=session)
    lines = [f"{'role':<11} {'e-mail':<34} password"]
    lines += [f"{a.role.value:<11} {a.email:<34} {DEMO_PASSWORD}" for a in accounts]
    return lines


SEEDERS.append(("Demo accounts (one per role, one shared password)", True, _demo_accounts))
