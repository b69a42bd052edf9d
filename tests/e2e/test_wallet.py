"""The Wallet and Provider Wallet screens in Chromium (issue 14): Jordan Lee (demo patient) opens the wallet —
balances, history, filters in the URL, the CSV link — and is told the provider wallet is for providers;
Priya Shah (demo provider) opens the provider wallet — four balances, the dispute-window rule, the statement.
axe-core on both screens at 1280 and 375 px, light and dark, with screenshots (tests/artifacts/).

The demo seed puts every demo visit in the ledger (Jordan's cancelled visit refunded as wallet credit); the
site's copy of it gets another refunded visit and a goodwill credit on top (`_seed_money`, written with the
ledger's own `post`), and Jordan's credit and Priya's balances are read from the ledger to check the screens
against."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.db import Database
from app.services.ledger import dollars
from app.services.ledger._journal import WORLD, move, post
from components.format import format_money
from models.identity import User
from models.ledger import AccountKind, EntryKind, JournalEntry, LedgerAccount, Posting
from models.provider import Provider
from tests.conftest import LiveServer, demo_database, start_server, stop_server
from tests.e2e.accessibility import (
    check_every_look,
    full_page_screenshots,
    loaded,
    signed_in_at,
)
from tests.e2e.conftest import open_page
from tests.e2e.helpers import log_out
from tests.factories import present

PATIENT = "patient@demo.medivisit.test"
PROVIDER = "provider@demo.medivisit.test"
WALLET = "/dashboard/wallet"
PROVIDER_WALLET = "/dashboard/provider-wallet"


@dataclass(frozen=True)
class Demo:
    """What the demo seed left: Priya's balances, and Jordan's credit (cents) and its movements."""

    priya: dict[AccountKind, int]
    jordan_credit: int
    credit_lines: int
    refund_lines: int


async def _seed_money(database_url: str) -> Demo:
    """Jordan's refunded visit and goodwill credit on top of the demo's; what the demo left."""
    database = Database(database_url)
    try:
        async with database.unit_of_work() as session:
            jordan = present(await session.scalar(select(User.id).where(User.email == PATIENT)))
            booked, credit = (AccountKind.patient_booked, jordan), (AccountKind.patient_credit, jordan)
            movements = (
                await session.execute(
                    select(JournalEntry.kind, Posting.amount)
                    .join(Posting, Posting.entry_id == JournalEntry.id)
                    .where(Posting.account_id == f"{AccountKind.patient_credit.value}:{jordan}")
                )
            ).all()
            await post(session=session, kind=EntryKind.order_placed, legs=move(7900, WORLD, booked))
            await post(
                session=session,
                kind=EntryKind.refund,
                legs=move(7900, booked, credit),
                description="Visit cancelled",
            )
            await post(
                session=session,
                kind=EntryKind.credit_adjustment,
                legs=move(1250, WORLD, credit),
                description="Credit from support",
            )
            priya = present(
                await session.scalar(
                    select(Provider).join(User, User.id == Provider.user_id).where(User.email == PROVIDER)
                )
            )
            # Priya's visits are in the ledger from the demo seed: the screen must show what it holds.
            balances = {
                row.kind: row.balance
                for row in await session.scalars(
                    select(LedgerAccount).where(LedgerAccount.owner_id == priya.id)
                )
            }
            return Demo(
                priya=balances,
                jordan_credit=sum(amount for _kind, amount in movements),
                credit_lines=len(movements),
                refund_lines=sum(kind == EntryKind.refund for kind, _amount in movements),
            )
    finally:
        await database.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[LiveServer, Demo]]:
    tmp = tmp_path_factory.mktemp("wallet")
    database_url = demo_database(tmp / "wallet.db")
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's thread already runs an event loop
        demo = pool.submit(asyncio.run, _seed_money(database_url)).result()
    server = start_server(
        tmp, DATABASE_URL=database_url, REMINDERS_ENABLED="false", EARNINGS_RELEASE_ENABLED="false"
    )
    yield server, demo
    stop_server(server)


def test_the_patients_wallet_and_the_providers_wallet(page: Page, site) -> None:  # noqa: ANN001
    site, demo = site
    priya = demo.priya
    problems: list[str] = []

    # Jordan: the wallet (the demo's refund of his cancelled visit, the $79.00 refund and $12.50 credit).
    assert demo.jordan_credit > 0 and demo.refund_lines >= 1
    signed_in_at(page, site, PATIENT, WALLET)
    expect(page.get_by_role("heading", name="Wallet", level=1)).to_be_visible()
    balances = page.get_by_role("region", name="Your balances")
    credit = format_money(dollars(demo.jordan_credit + 7900 + 1250))
    expect(balances.get_by_role("article", name="Credit")).to_contain_text(credit)
    history = page.get_by_role("table", name="Wallet history")
    expect(history.get_by_role("row")).to_have_count(1 + demo.credit_lines + 2)  # the header and movements
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    expect(page.get_by_role("link", name="Download CSV")).to_have_attribute("href", "/api/wallet/history.csv")
    page.get_by_label("Kind").select_option("refund")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"/dashboard/wallet\?kind=refund"))
    expect(history.get_by_role("row")).to_have_count(1 + demo.refund_lines + 1)
    expect(history).to_contain_text("$79.00")
    expect(page.get_by_role("link", name="Download CSV")).to_have_attribute(
        "href", "/api/wallet/history.csv?kind=refund"
    )
    download = page.request.get(site.url("/api/wallet/history.csv"))
    assert download.ok and download.text().startswith("date,kind,description,amount,order_id,visit_id")
    assert len(download.text().strip().splitlines()) == 1 + demo.credit_lines + 2
    open_page(page, site.url(WALLET))
    loaded(page)
    problems += check_every_look(page, WALLET)
    full_page_screenshots(page, "wallet")

    # Jordan on the provider wallet: told it is for providers.
    open_page(page, site.url(PROVIDER_WALLET))
    expect(page.get_by_text("The provider wallet is for providers")).to_be_visible()
    log_out(page)

    # Priya: the provider wallet.
    signed_in_at(page, site, PROVIDER, PROVIDER_WALLET)
    balances = page.get_by_role("region", name="Your balances")
    assert priya.get(AccountKind.provider_available, 0) > 0  # the demo's visits past their dispute window
    for label, kind in (
        ("Pending", AccountKind.provider_pending),
        ("Available", AccountKind.provider_available),
        ("In payout", AccountKind.provider_payout),
    ):
        expect(balances.get_by_role("article", name=label)).to_contain_text(
            format_money(dollars(priya.get(kind, 0)))
        )
    expect(balances.get_by_role("article", name="Paid out")).to_contain_text("$0.00")
    expect(page.get_by_text("available 72 hours after the visit is completed")).to_be_visible()
    statement = page.get_by_role("table", name="Statement per visit")
    expect(statement.get_by_role("row").nth(2)).to_be_visible()  # the demo's completed visits, each a row
    expect(statement.get_by_role("row").filter(has_text="Available").first).to_be_visible()
    problems += check_every_look(page, PROVIDER_WALLET)
    full_page_screenshots(page, "provider-wallet")
    assert problems == []
