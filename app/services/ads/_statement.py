"""An advertiser's spend statement of a flight (budget, spent to date, remaining, impressions, clicks, today's
pace and the spend of each day it ran, aggregated in SQL over its daily counters) and the receipt of its card
payment as PDF (app/pdf's layout, like the project's other receipts): the budget paid, what was delivered,
the unspent budget refunded to the card. Readable by the flight's advertiser and by staff holding manage_ads;
a receipt download is audited."""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.pdf import Column, Document, Party, PdfFile, Table, money_cents, render
from app.principal import Principal
from app.services.accounts import account_of
from app.services.ads._billing import CARD, daily_cap_cents, days_of, payments_of
from app.services.ads._flights import _reads
from app.services.ads._rules import NO_FLIGHT, require_ads_staff, require_advertiser
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.settings import get_settings
from models.account import AccountRead
from models.ads import AdFlight, AdStatementRead, StatementDayRead
from models.audit import AuditAction
from models.identity import User, as_utc

NOT_PAID = "This flight has no card payment yet, so it has no receipt."


async def _readable(session: AsyncSession, actor: Principal, flight_id: str) -> tuple[AdFlight, AccountRead]:
    """The flight, for its advertiser or ads staff (anyone else: NotFound, as if there were none)."""
    row = await session.get(AdFlight, flight_id[:36], populate_existing=True)
    try:
        account = await require_advertiser(session=session, actor=actor)
    except PermissionDenied:
        account = await require_ads_staff(session=session, actor=actor)
        if row is None:
            raise NotFound(NO_FLIGHT) from None
        return row, account
    if row is None or row.advertiser_id != account.id:
        try:
            staff = await require_ads_staff(session=session, actor=actor)
        except PermissionDenied:
            raise NotFound(NO_FLIGHT) from None
        if row is None:
            raise NotFound(NO_FLIGHT)
        return row, staff
    return row, account


async def get_ad_statement(*, session: AsyncSession, actor: Principal, flight_id: str) -> AdStatementRead:
    """A flight's spend statement (its advertiser, or ads staff)."""
    row, _account = await _readable(session, actor, flight_id)
    [flight] = await _reads(session, [row])
    days = await days_of(session, row.id)
    paid = (await payments_of(session, [row.id])).get(row.id)
    spent = row.spent_millicents // 1000
    return AdStatementRead(
        flight=flight,
        views=sum(d[1] for d in days),
        clicks=sum(d[2] for d in days),
        spent_cents=spent,
        remaining_cents=max(row.budget_cents - spent, 0),
        daily_cap_cents=daily_cap_cents(row),
        paid_at=paid.paid_at if paid is not None else None,
        refunded_at=paid.refunded_at if paid is not None else None,
        days=[StatementDayRead(day=d, views=v, clicks=c, spent_cents=m // 1000) for d, v, c, m in days],
    )


def _day(moment: date | None) -> str:
    return f"{moment:%b} {moment.day}, {moment:%Y}" if moment is not None else "—"


async def get_ad_receipt(*, session: AsyncSession, actor: Principal, flight_id: str) -> PdfFile:
    """The receipt of a flight's card payment as PDF (its advertiser, or ads staff; audited)."""
    row, account = await _readable(session, actor, flight_id)
    payment = (await payments_of(session, [row.id])).get(row.id) if row.billing == CARD else None
    if payment is None or payment.paid_at is None:
        raise ValidationFailed(NOT_PAID)
    days = await days_of(session, row.id)
    views = sum(d[1] for d in days)
    spent = row.spent_millicents // 1000
    advertiser = await session.get(User, row.advertiser_id)
    who = account_of(advertiser) if advertiser is not None else None
    settings = get_settings()
    paid_on = as_utc(payment.paid_at).date()
    refunded = payment.refunded_cents
    document = Document(
        title="Receipt",
        number=f"Ad flight {row.id[:8].upper()}",
        status="refunded in part" if refunded else "paid",
        dates=(
            ("Paid", _day(paid_on)),
            ("Payment", "Card"),
            ("Runs", f"{_day(row.starts_on)} – {_day(row.ends_on)}"),
        ),
        parties=(
            Party("From", (f"{settings.brand_name} Medical Services, LLC", settings.support_email)),
            Party(
                "Billed to", tuple(x for x in ((who.name, who.email) if who else ("Former advertiser",)) if x)
            ),
        ),
        tables=(
            Table(
                "Ad flight",
                (Column("Item", 4.6), Column("Impressions", 1.4, "RIGHT"), Column("Amount", 1.4, "RIGHT")),
                (
                    (f"Budget of “{row.name}”", "", money_cents(payment.amount)),
                    ("Delivered to date", f"{views:,}", money_cents(spent)),
                    *(
                        (("Unspent budget refunded to the card", "", money_cents(-refunded)),)
                        if refunded
                        else ()
                    ),
                ),
                totals=(
                    ("Paid", money_cents(payment.amount)),
                    ("Refunded", money_cents(-refunded)),
                    ("Net paid", money_cents(payment.amount - refunded)),
                ),
            ),
        ),
        notes=tuple(
            note
            for note in (
                f"Placements: {', '.join(sorted({p for p in (await _reads(session, [row]))[0].placements}))}.",
                "Spend never passes the budget; the budget a flight does not spend is refunded to the card "
                "when it ends.",
                f"Payment reference: {payment.payment_intent_id}." if payment.payment_intent_id else "",
                f"Dates in UTC. Questions about this receipt: {settings.support_email}.",
            )
            if note
        ),
    )
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.receipt_download,
        target=f"ad flight {row.id}",
        details={"ad_flight_id": row.id, "advertiser_id": row.advertiser_id},
    )
    return PdfFile(filename=f"medivisit-ad-receipt-{row.id[:8]}.pdf", content=render(document))
