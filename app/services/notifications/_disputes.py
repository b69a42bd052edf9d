"""Notices of a reported problem with a visit (the disputes domain's DisputeOpened and DisputeResolved, after the
commit): both sides hear of the report and of its outcome.

The provider is told the reason's label and the outcome, never the patient's details text (the events do not
carry it). Until there is a notification kind of its own for disputes, the patient's notices use the wallet
kind (money they may be credited) and the provider's the payout kind (their earning waits).
"""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlencode

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.domain_events import DisputeOpened, DisputeResolved
from app.services.notifications._copy import VISITS_PATH
from app.services.notifications._delivery import notify
from models.notification import NotificationKind
from models.provider import Provider

OUTCOME_WORDS = {  # DisputeResolved.outcome → how the notice says it
    "refund": "refunded in full",
    "partial_refund": "refunded in part",
    "reject": "reviewed without a refund",
}


def _link(appointment_id: str) -> str:
    return f"{VISITS_PATH}?{urlencode({'tab': 'past', 'visit': appointment_id})}"


async def _provider_user(session: AsyncSession, provider_id: str) -> str | None:
    return await session.scalar(select(Provider.user_id).where(Provider.id == provider_id))


async def tell_dispute_opened(session: AsyncSession, opened: DisputeOpened) -> None:
    await notify(
        session=session,
        recipients=[opened.patient_id],
        kind=NotificationKind.wallet_credit,
        link=_link(opened.appointment_id),
        title="Problem reported — we're looking into it",
        body=f"{opened.service_name}: {opened.reason_label}. We'll tell you what we decide.",
        now=opened.at,
    )
    await notify(
        session=session,
        recipients=[await _provider_user(session, opened.provider_id)],
        kind=NotificationKind.payout_status,
        link=_link(opened.appointment_id),
        title="A patient reported a problem with a visit",
        body=(
            f"{opened.service_name}: {opened.reason_label}. Your earning for this visit stays pending "
            "until our team resolves it."
        ),
        now=opened.at,
    )


async def tell_dispute_resolved(session: AsyncSession, resolved: DisputeResolved) -> None:
    words = OUTCOME_WORDS.get(resolved.outcome, "resolved")
    amount = f"${Decimal(resolved.refunded_cents) / 100:,.2f}"
    refunded = resolved.refunded_cents > 0
    to_patient = f"{amount} was credited to your wallet." if refunded else "No refund was made."
    if resolved.note:
        to_patient += f" Our note: {resolved.note}"
    await notify(
        session=session,
        recipients=[resolved.patient_id],
        kind=NotificationKind.wallet_credit,
        link=_link(resolved.appointment_id),
        title=f"The problem you reported was {words}",
        body=f"{resolved.service_name}. {to_patient}",
        now=resolved.at,
    )
    to_provider = (
        f"{amount} of the visit was refunded to the patient; the rest of your earning is released."
        if refunded
        else "No refund was made; your earning is released."
    )
    await notify(
        session=session,
        recipients=[await _provider_user(session, resolved.provider_id)],
        kind=NotificationKind.payout_status,
        link=_link(resolved.appointment_id),
        title=f"The problem reported with a visit was {words}",
        body=f"{resolved.service_name}. {to_provider}",
        now=resolved.at,
    )
