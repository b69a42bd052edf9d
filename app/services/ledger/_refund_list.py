"""The refunds of visits, or of store orders, as the staff money views and the receipts list them: each
refund entry's amount, when, by whom and why, and where it went (wallet credit, or the card with Stripe's
status of the refund), newest first, in one query for any number of visits or orders.

A card refund Stripe reported failed is credited to the wallet instead (`_card_refunds`): that entry takes
the money back in from the world and is the failed refund's own consequence, so it is not listed again.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute, aliased

from app.services.ledger._journal import dollars
from app.services.shared.accounts import account_of
from models.card_refund import CardRefund
from models.identity import User, as_utc
from models.ledger import AccountKind, EntryKind, JournalEntry, Posting
from models.receipt import VisitRefundRead

MAX_REFUNDS_SHOWN = 50  # of each visit or order
REFUNDED_TO = (AccountKind.patient_credit, AccountKind.world)

_LEG = aliased(Posting)
_CREDITED_AFTER_FAILURE = exists().where(
    _LEG.entry_id == JournalEntry.id, _LEG.account_kind == AccountKind.world, _LEG.amount < 0
)


async def _refunds(
    session: AsyncSession,
    ids: Sequence[str],
    entry_key: InstrumentedAttribute[str | None],
    refund_key: InstrumentedAttribute[str | None],
) -> dict[str, list[VisitRefundRead]]:
    found: dict[str, list[VisitRefundRead]] = {key: [] for key in ids}
    if not ids:
        return found
    rows = (
        await session.execute(
            select(
                entry_key, JournalEntry, Posting.amount, Posting.account_kind, User, CardRefund.status,
                CardRefund.failure_reason,
            )
            .join(Posting, Posting.entry_id == JournalEntry.id)
            .outerjoin(User, User.id == JournalEntry.actor_id)
            .outerjoin(
                CardRefund,
                # The card refund written with the entry (the same unit of work, time and amount).
                and_(
                    Posting.account_kind == AccountKind.world,
                    refund_key == entry_key,
                    CardRefund.created_at == JournalEntry.created_at,
                    CardRefund.amount == Posting.amount,
                ),
            )
            .where(
                entry_key.in_(list(ids)),
                JournalEntry.kind == EntryKind.refund,
                Posting.account_kind.in_(REFUNDED_TO),
                Posting.amount > 0,
                ~_CREDITED_AFTER_FAILURE,
            )
            .order_by(JournalEntry.created_at.desc(), JournalEntry.id)
            .limit(MAX_REFUNDS_SHOWN * len(ids))
        )
    ).all()  # fmt: skip
    for key, entry, amount, kind, user, status, failure in rows:
        found[key or ""].append(
            VisitRefundRead(
                amount=dollars(amount),
                at=as_utc(entry.created_at),
                by_name=account_of(user).name if user is not None else "",
                reason=entry.reason,
                description=entry.description,
                to_card=kind is AccountKind.world,
                card_status=status.value if status is not None else "",
                failure_reason=failure or "",
            )
        )
    return found


async def visit_refunds(
    session: AsyncSession, appointment_ids: Sequence[str]
) -> dict[str, list[VisitRefundRead]]:
    """Each visit's refunds, newest first (see the module's notes)."""
    return await _refunds(session, appointment_ids, JournalEntry.appointment_id, CardRefund.appointment_id)


async def store_order_refunds(
    session: AsyncSession, store_order_ids: Sequence[str]
) -> dict[str, list[VisitRefundRead]]:
    """Each store order's refunds, newest first (see the module's notes)."""
    return await _refunds(session, store_order_ids, JournalEntry.order_id, CardRefund.store_order_id)
