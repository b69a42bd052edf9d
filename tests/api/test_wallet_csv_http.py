"""GET /api/wallet/history.csv (api/wallet.py): a signed-in browser downloads its own wallet history as
CSV — never another patient's rows — filtered like the Wallet screen; nobody signed in gets 401."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import httpx
import pytest

from app.services.ledger import grant_wallet_credit
from medivisit.main import create_app
from models.account import Role
from tests.factories import person, run

CSV = "/api/wallet/history.csv"


@pytest.fixture
async def client(identity_env):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def rows(body: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body)))


async def test_a_patient_downloads_only_their_own_history(client) -> None:
    owner = await person(Role.owner, "Olive Owner")
    me, other = await person(name="Pat Wallet"), await person(name="Someone Else")
    for who, amount, reason in (
        (me, "5", "Sorry for the wait"),
        (me, "12.5", "=HYPERLINK()"),
        (other, "40", "x"),
    ):
        await run(
            grant_wallet_credit, actor=owner.actor, patient_id=who.id, amount=Decimal(amount), reason=reason
        )

    client.cookies.set("mv_access", me.access_token)
    answer = await client.get(CSV)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == 'attachment; filename="medivisit-wallet-history.csv"'
    assert answer.headers["cache-control"] == "private, no-store"
    got = rows(answer.text)
    assert sorted(r["amount"] for r in got) == ["12.50", "5.00"]
    assert {r["kind"] for r in got} == {"credit_adjustment"}
    assert not any(cell.startswith("=") for r in got for cell in r.values())

    assert rows((await client.get(CSV, params={"kind": "refund"})).text) == []
    assert len(rows((await client.get(CSV, params={"kind": "credit_adjustment"})).text)) == 2
    assert rows((await client.get(CSV, params={"from": "2000-01-01", "to": "2000-01-31"})).text) == []


async def test_nobody_signed_in_gets_401(client) -> None:
    answer = await client.get(CSV)
    assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"
