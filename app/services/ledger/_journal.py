"""The journal: `post` is the one place postings are written and balances change.

An entry's legs must sum to zero (checked here, before anything is written). A person's account row is
created by its first posting; the balances of an entry's person accounts change in one statement,
`balance = balance + delta`, atomic in the database with the rows locked in id order (two entries touching
the same accounts wait for each other, they never deadlock): an upsert when every person's leg is a credit,
else an insert of missing rows and one UPDATE. The CHECK constraint `balance >= 0` refuses an overdraft
whoever writes; `post` turns that refusal into `InsufficientFunds`. The platform's accounts (world, fees)
have no row (models/ledger.py says why): their balance is the sum of their postings. Commands that decide
from a balance first (the amount of a payout, whether a refund can still be reversed) `lock_balances`
before reading: SELECT … FOR UPDATE on PostgreSQL, so a concurrent writer of the same account waits for
this unit of work; SQLite has one writer at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import ColumnElement, Executable, case, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import ValidationFailed
from app.services.shared.locks import write_lock
from models.base import new_id, utcnow
from models.ledger import PLATFORM_KINDS, AccountKind, EntryKind, JournalEntry, LedgerAccount, Posting

CENT = Decimal("0.01")
NOT_ENOUGH = "There is not enough money in this balance for that."
PLATFORM = ""  # the owner of the platform's own accounts (world, fees)


class InsufficientFunds(ValidationFailed):
    code = "insufficient_funds"


class Unbalanced(AssertionError):
    """A programming error: an entry whose legs do not sum to zero (never written)."""


def cents(amount: Decimal) -> int:
    """Dollars (Decimal) to integer cents, rounded half up."""
    return int((Decimal(amount) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def dollars(amount: int) -> Decimal:
    return (Decimal(amount) / 100).quantize(CENT)


def signed_total(condition: ColumnElement[bool], sign: int = 1) -> ColumnElement[int]:
    """In SQL: the sum of the postings' amounts where `condition` holds (times `sign`), 0 when none does."""
    return func.coalesce(func.sum(case((condition, sign * Posting.amount), else_=0)), 0)


def account_id(kind: AccountKind, owner_id: str = PLATFORM) -> str:
    return f"{kind.value}:{owner_id}" if owner_id else kind.value


@dataclass(frozen=True)
class Leg:
    """What one account gains in an entry (negative: gives)."""

    kind: AccountKind
    owner_id: str
    amount: int

    @property
    def account_id(self) -> str:
        return account_id(self.kind, self.owner_id)


def move(amount: int, source: tuple[AccountKind, str], destination: tuple[AccountKind, str]) -> list[Leg]:
    """The two legs of moving `amount` cents from `source` to `destination` ((kind, owner) each)."""
    return [Leg(source[0], source[1], -amount), Leg(destination[0], destination[1], amount)]


WORLD = (AccountKind.world, PLATFORM)
FEES = (AccountKind.platform_fees, PLATFORM)


def _insert(session: AsyncSession) -> postgresql.Insert | sqlite.Insert:
    """The dialect's INSERT construct (ON CONFLICT) of ledger accounts."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(LedgerAccount)
    return sqlite.insert(LedgerAccount)


def is_overdraft(error: Exception) -> bool:
    original = getattr(error, "orig", error)
    return "balance_not_negative" in str(original)


async def post(
    *,
    session: AsyncSession,
    kind: EntryKind,
    legs: Iterable[Leg],
    description: str = "",
    order_id: str | None = None,
    appointment_id: str | None = None,
    payout_id: str | None = None,
    actor_id: str | None = None,
    reason: str = "",
    at: datetime | None = None,
) -> str | None:
    """Write one balanced journal entry and change its accounts' balances, in the caller's unit of work;
    returns the entry's id (None when every leg is zero: nothing moved). Raises `Unbalanced` when the legs
    do not sum to zero, `InsufficientFunds` when an account other than the world would go below zero."""
    legs = [leg for leg in legs if leg.amount]
    if sum(leg.amount for leg in legs) != 0:
        raise Unbalanced(f"{kind}: legs sum to {sum(leg.amount for leg in legs)}, not 0")
    if not legs:
        return None
    at = at or utcnow()
    deltas: dict[str, tuple[Leg, int]] = {}
    for leg in legs:
        _first, total = deltas.get(leg.account_id, (leg, 0))
        deltas[leg.account_id] = (leg, total + leg.amount)
    entry_id = new_id()
    kept = {key: value for key, value in sorted(deltas.items()) if value[0].kind not in PLATFORM_KINDS}
    statements: list[Executable] = []
    if kept and all(delta >= 0 for _leg, delta in kept.values()):
        upsert = _insert(session).values(
            [
                {"id": key, "kind": leg.kind, "owner_id": leg.owner_id, "balance": delta, "updated_at": at}
                for key, (leg, delta) in kept.items()
            ]
        )
        statements.append(
            upsert.on_conflict_do_update(
                index_elements=[LedgerAccount.id],
                set_={"balance": LedgerAccount.balance + upsert.excluded.balance, "updated_at": at},
            )
        )
    elif kept:
        ids = list(kept)
        statements.append(
            _insert(session)
            .values(
                [{"id": key, "kind": leg.kind, "owner_id": leg.owner_id} for key, (leg, _d) in kept.items()]
            )
            .on_conflict_do_nothing(index_elements=[LedgerAccount.id])
        )
        change = case(*((LedgerAccount.id == key, delta) for key, (_leg, delta) in kept.items()), else_=0)
        target: ColumnElement[bool] = LedgerAccount.id.in_(ids)
        if session.get_bind().dialect.name == "postgresql":
            locked = select(LedgerAccount.id).where(target).order_by(LedgerAccount.id).with_for_update()
            target = LedgerAccount.id == locked.subquery().c.id
        statements.append(
            update(LedgerAccount)
            .where(target)
            .values(balance=LedgerAccount.balance + change, updated_at=at)
            .execution_options(synchronize_session=False)
        )
    try:
        for statement in statements:
            await session.execute(statement)
        await session.execute(
            insert(JournalEntry).values(
                id=entry_id,
                kind=kind,
                description=description[:200],
                order_id=order_id,
                appointment_id=appointment_id,
                payout_id=payout_id,
                actor_id=actor_id,
                reason=reason[:500],
                created_at=at,
            )
        )
        await session.execute(
            insert(Posting),
            [
                {
                    "id": new_id(),
                    "entry_id": entry_id,
                    "account_id": leg.account_id,
                    "account_kind": leg.kind,
                    "amount": leg.amount,
                    "created_at": at,
                }
                for leg in legs
            ],
        )
    except IntegrityError as error:
        if is_overdraft(error):
            raise InsufficientFunds(NOT_ENOUGH) from None
        raise
    return entry_id


async def lock_balances(session: AsyncSession, ids: Sequence[str]) -> dict[str, int]:
    """The balances of these person accounts (0 for one never posted to), write-locked until the unit of
    work ends (`write_lock`)."""
    await write_lock(session, LedgerAccount.id, ids)
    rows = await session.execute(
        select(LedgerAccount.id, LedgerAccount.balance).where(LedgerAccount.id.in_(set(ids)))
    )
    found = dict(rows.all())
    return {key: found.get(key, 0) for key in ids}


async def balances(session: AsyncSession, ids: Sequence[str]) -> dict[str, int]:
    """The balances of these accounts (0 for one never posted to), without locking: a person's from its row,
    the platform's summed from their postings."""
    platform = {account_id(kind) for kind in PLATFORM_KINDS}
    found: dict[str, int] = {}
    people = set(ids) - platform
    if people:
        rows = await session.execute(
            select(LedgerAccount.id, LedgerAccount.balance).where(LedgerAccount.id.in_(people))
        )
        found.update(rows.all())
    summed = set(ids) & platform
    if summed:
        rows = await session.execute(
            select(Posting.account_id, func.sum(Posting.amount))
            .where(Posting.account_id.in_(summed))
            .group_by(Posting.account_id)
        )
        found.update((key, int(total)) for key, total in rows.all())
    return {key: found.get(key, 0) for key in ids}
