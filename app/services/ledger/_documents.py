"""The ledger's documents (issue 14 part 5): a provider's monthly statement, as PDF (app/pdf's layout); an
order's receipt is app/services/receipts'.

- **Monthly statement** (`get_monthly_statement`, `monthly_statement_pdf`): the signed-in provider's own
  month (UTC): available balance at its opening and closing, earnings completed and released, refunds
  reversed, payouts requested, returned and paid, all summed in SQL from the postings of the provider's
  accounts in one query; then the month's completed visits. `list_statement_months`: the months with
  any posting on the provider's accounts, newest first, for the screen's month picker.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.pdf import Column, Document, Party, PdfFile, Table, format_money, render
from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.ledger._journal import account_id, dollars
from app.services.ledger._reads import _provider, list_provider_statement
from app.services.providers import display_name
from app.services.shared.periods import period_of
from app.services.shared.signed_in import require_account
from app.services.validation import LATEST_DAY
from app.settings import get_settings
from models.audit import AuditAction
from models.identity import as_utc
from models.ledger import (
    AccountKind,
    EntryKind,
    JournalEntry,
    MonthlyStatementRead,
    Posting,
    StatementLineRead,
)

BAD_MONTH = f"Choose a month as YYYY-MM, between 2000-01 and {LATEST_DAY.year}-12."
MAX_STATEMENT_LINES = 2_000
MAX_MONTHS = 60
MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def _day(moment: datetime | None, zone: ZoneInfo) -> str:
    if moment is None:
        return "—"
    local = as_utc(moment).astimezone(zone)
    return f"{local:%b} {local.day}, {local:%Y}"


def _company() -> Party:
    settings = get_settings()
    return Party("From", (f"{settings.brand_name} Medical Services, LLC", settings.support_email))


def month_range(month: str) -> tuple[datetime, datetime]:
    """'2026-11' → [Nov 1, Dec 1) in UTC; ValidationFailed for anything else."""
    found = MONTH.match((month or "").strip()[:7]) if len(month or "") <= 7 else None
    if not found or not 1 <= int(found.group(2)) <= 12 or not 2000 <= int(found.group(1)) <= LATEST_DAY.year:
        raise ValidationFailed(BAD_MONTH)
    year, number = int(found.group(1)), int(found.group(2))
    start = datetime(year, number, 1, tzinfo=UTC)
    end = datetime(year + (number == 12), number % 12 + 1, 1, tzinfo=UTC)
    return start, end


async def get_monthly_statement(
    *, session: AsyncSession, actor: Principal, month: str
) -> MonthlyStatementRead:
    """The signed-in provider's figures for `month` (YYYY-MM, UTC), summed in SQL."""
    start, end = month_range(month)
    provider = await _provider(session, actor, None)
    available = account_id(AccountKind.provider_available, provider.id)
    pending = account_id(AccountKind.provider_pending, provider.id)
    payout = account_id(AccountKind.provider_payout, provider.id)
    inside = and_(Posting.created_at >= start, Posting.created_at < end)

    def total(*conditions: ColumnElement[bool]) -> ColumnElement[int]:
        return func.coalesce(func.sum(case((and_(*conditions), Posting.amount), else_=0)), 0)

    entry = JournalEntry.kind
    row = (
        await session.execute(
            select(
                total(Posting.account_id == available, Posting.created_at < start),
                total(Posting.account_id == available, Posting.created_at < end),
                total(Posting.account_id == pending, inside, entry == EntryKind.visit_completed),
                total(Posting.account_id == available, inside, entry == EntryKind.earning_released),
                total(Posting.account_id.in_((pending, available)), inside, entry == EntryKind.refund),
                total(Posting.account_id == available, inside, entry == EntryKind.payout_requested),
                total(Posting.account_id == available, inside, entry == EntryKind.payout_returned),
                total(Posting.account_id == payout, inside, entry == EntryKind.payout_paid),
                total(Posting.account_id == available, inside, entry == EntryKind.fee_netted),
            )
            .select_from(Posting)
            .join(JournalEntry, JournalEntry.id == Posting.entry_id)
            .where(Posting.account_id.in_((available, pending, payout)), Posting.created_at < end)
        )
    ).one()
    opening, closing, earned, released, refunds, requested, returned, paid, netted = (
        int(v or 0) for v in row
    )
    return MonthlyStatementRead(
        provider_id=provider.id,
        provider_name=display_name(provider.first_name, provider.last_name),
        month=f"{start:%Y-%m}",
        opening_available=dollars(opening),
        closing_available=dollars(closing),
        earned=dollars(earned),
        released=dollars(released),
        refunds_reversed=dollars(-refunds),
        payouts_requested=dollars(-requested),
        payouts_returned=dollars(returned),
        payouts_paid=dollars(-paid),
        fees_netted=dollars(-netted),
    )


async def list_statement_months(*, session: AsyncSession, actor: Principal) -> list[str]:
    """The months (YYYY-MM, UTC) with any movement on the signed-in provider's accounts, newest first."""
    provider = await _provider(session, actor, None)
    ids = [
        account_id(kind, provider.id)
        for kind in (
            AccountKind.provider_pending,
            AccountKind.provider_available,
            AccountKind.provider_payout,
            AccountKind.provider_receivable,  # fees collected at pay-at-visit visits
        )
    ]
    period = period_of(Posting.created_at, "month", session.get_bind().dialect.name).label("period")
    rows = await session.execute(
        select(period)
        .where(Posting.account_id.in_(ids))
        .group_by(period)
        .order_by(period.desc())
        .limit(MAX_MONTHS)
    )
    return [str(value)[:7] for (value,) in rows.all()]


async def monthly_statement_pdf(*, session: AsyncSession, actor: Principal, month: str) -> PdfFile:
    """The signed-in provider's statement for `month` as PDF: the figures, then the month's visits."""
    figures = await get_monthly_statement(session=session, actor=actor, month=month)
    start, end = month_range(month)
    lines: list[StatementLineRead] = []
    page = 1
    while len(lines) < MAX_STATEMENT_LINES:
        found = await list_provider_statement(
            session=session, actor=actor, since=start, until=end, page=page, page_size=100
        )
        lines.extend(found.items)
        if not found.items or page * 100 >= found.total:
            break
        page += 1
    lines.sort(key=lambda line: (line.completed_at, line.appointment_id))
    utc = ZoneInfo("UTC")
    account = await require_account(session=session, actor=actor)
    f = figures
    document = Document(
        title="Monthly statement",
        number=f"{start:%B %Y}",
        dates=(
            ("Period", f"{_day(start, utc)} – {_day(end - timedelta(days=1), utc)}"),
            ("Issued", _day(datetime.now(UTC), utc)),
        ),
        parties=(_company(), Party("Provider", (f.provider_name, account.email))),
        summary=(
            ("Opening available", format_money(f.opening_available)),
            ("Earnings released", format_money(f.released)),
            ("Payouts requested", format_money(f.payouts_requested)),
            ("Closing available", format_money(f.closing_available)),
        ),
        tables=(
            Table(
                "Available balance",
                (Column("Movement", 5), Column("Amount", 1.4, "RIGHT")),
                (
                    ("Opening available balance", format_money(f.opening_available)),
                    ("Earnings released after the dispute window", format_money(f.released)),
                    ("Refunds taken back from earnings", format_money(-f.refunds_reversed)),
                    ("Fees collected at visits, netted", format_money(-f.fees_netted)),
                    ("Payouts requested", format_money(-f.payouts_requested)),
                    ("Payouts returned (rejected or failed)", format_money(f.payouts_returned)),
                ),
                totals=(("Closing available balance", format_money(f.closing_available)),),
            ),
            Table(
                "Visits completed this month",
                (
                    Column("Completed", 1.3),
                    Column("Service", 2.8),
                    Column("Price", 1.1, "RIGHT"),
                    Column("Refunded", 1.1, "RIGHT"),
                    Column("Earning", 1.1, "RIGHT"),
                    Column("Released", 1.3),
                ),
                tuple(
                    (
                        _day(line.completed_at, utc),
                        # A sale's discount: the original price, and the discount and who funded it.
                        f"{line.service_name}\n{line.discount_note}"
                        if line.discount_note
                        else line.service_name,
                        format_money(line.original_price or line.price),
                        format_money(line.refunded),
                        format_money(line.earning),
                        _day(line.released_at, utc) if line.released_at else "Pending",
                    )
                    for line in lines
                ),
                totals=(("Earnings from visits this month", format_money(f.earned)),),
                empty="No visits were completed this month.",
            ),
        ),
        notes=(
            f"Payouts paid to you this month: {format_money(f.payouts_paid)}.",
            "Earnings become available when the dispute window after the visit has passed. "
            "The platform fee is paid by the patient on top of your price. Dates in UTC.",
        ),
    )
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.statement_download,
        target=f"statement {figures.month}",
        details={"provider_id": figures.provider_id},
    )
    return PdfFile(filename=f"medivisit-statement-{figures.month}.pdf", content=render(document))
