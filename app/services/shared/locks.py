"""Row locks a command takes before reading the rows it decides from (the ledger's balances, a card payment,
an invoice): one way for every domain, on PostgreSQL and SQLite alike."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute


async def write_lock(
    session: AsyncSession, column: InstrumentedAttribute[str], values: Sequence[str]
) -> None:
    """Before reading rows a command decides from: on PostgreSQL, SELECT … FOR UPDATE of the rows where
    `column` is one of `values`, in order (a concurrent writer waits for this unit of work); on SQLite, a
    write that changes nothing, which takes the database's write lock now (pysqlite starts a transaction
    only at the first write, so the reads before it would not wait for another writer and could be stale)."""
    table = column.table
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(
            select(column).where(column.in_(sorted(set(values)))).order_by(column).with_for_update()
        )
    else:
        await session.execute(
            update(table)
            .where(column.in_(list(values)))
            .values({column.name: column})
            .execution_options(synchronize_session=False)
        )
