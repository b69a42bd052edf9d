"""The period a timestamp falls in, in SQL and the same on SQLite and PostgreSQL: its UTC day, ISO week (from
Monday) or month. The analytics reads and the ledger's figures group by it."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import Date, DateTime, Integer, SQLColumnExpression, String, cast, func
from sqlalchemy.sql.elements import ColumnElement


def period_of(
    column: SQLColumnExpression[datetime] | SQLColumnExpression[date],
    granularity: str,
    dialect: str,
    *,
    is_date: bool = False,
) -> ColumnElement[Any]:
    """The first day of `column`'s period ("day", "week" or "month", UTC): a date on PostgreSQL, 'YYYY-MM-DD'
    on SQLite (hence `Any`). `is_date`: the column holds dates, not instants."""
    if dialect == "postgresql":
        instant = cast(column, DateTime) if is_date else func.timezone("UTC", column)
        return cast(func.date_trunc(granularity, instant), Date)
    if granularity == "day":
        return func.date(column)
    if granularity == "month":
        return func.strftime("%Y-%m-01", column)
    back = (cast(func.strftime("%w", column), Integer) + 6) % 7  # days since Monday (%w: 0 is Sunday)
    return func.date(column, "-" + cast(back, String) + " days")
