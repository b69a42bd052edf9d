"""Days from URLs and forms stay within 1900-01-01 … 2999-12-31 (issue 27, inputs 1): the wallet CSV with
`to=9999-12-31` and the statement `9999-12.pdf` were 500s (the day or month after the last one overflows),
and the Wallet screen with `from=9999-12-31` failed; now each answers a clear refusal or says which date
it left out. One rule, `app.services.validation.calendar_day`, used wherever a day is read."""

from __future__ import annotations

from datetime import date

import httpx
import pytest

from app.services.errors import ValidationFailed
from app.services.validation import BAD_DAY, DAY_OUT_OF_RANGE, calendar_day, day_in_url
from medivisit.main import create_app
from models.account import Role
from pages.dashboard.wallet import WalletFilters
from tests.factories import person, provider
from tests.ui.harness import text

CSV = "/api/wallet/history.csv"


@pytest.fixture
async def client(identity_env):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def test_the_shared_day_rule() -> None:
    assert calendar_day("2026-03-14") == date(2026, 3, 14)
    assert calendar_day(" 2026-03-14T10:00:00Z ") == date(2026, 3, 14)
    assert calendar_day("２０２６-０３-１４") == date(2026, 3, 14)  # full-width digits
    assert calendar_day("") is None and calendar_day(None) is None
    assert calendar_day("2999-12-31") == date(2999, 12, 31) and calendar_day("1900-01-01") == date(1900, 1, 1)
    for far in ("9999-12-31", "0001-01-01", "3000-01-01", date(9999, 12, 31)):
        with pytest.raises(ValidationFailed) as refused:
            calendar_day(far)
        assert refused.value.message == DAY_OUT_OF_RANGE
    for bad in ("soon", "2026-02-30", "2026-13-01"):
        with pytest.raises(ValidationFailed) as refused:
            calendar_day(bad)
        assert refused.value.message == BAD_DAY
    assert day_in_url("9999-12-31") == (None, DAY_OUT_OF_RANGE)


@pytest.mark.parametrize(
    ("field", "value"), [("to", "9999-12-31"), ("from", "9999-12-31"), ("to", "0001-01-01")]
)
async def test_the_wallet_csv_refuses_a_day_out_of_range(client, field, value) -> None:
    me = await person(name="Pat Wallet")
    client.cookies.set("mv_access", me.access_token)
    answer = await client.get(CSV, params={field: value})
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"code": "validation_failed", "message": DAY_OUT_OF_RANGE, "field": field}
    assert (await client.get(CSV, params={"to": "2999-12-31"})).status_code == 200


async def test_the_statement_of_a_month_out_of_range_is_refused(client) -> None:
    owner = await person(Role.provider, "Ada Nurse")
    await provider(owner=owner)
    client.cookies.set("mv_access", owner.access_token)
    for month in ("9999-12", "3000-01"):
        answer = await client.get(f"/api/provider-wallet/statement/{month}.pdf")
        assert (answer.status_code, answer.json()["code"]) == (422, "validation_failed"), answer.text
        assert "2999-12" in answer.json()["message"]


def test_the_wallet_screen_leaves_out_a_day_out_of_range_and_says_so() -> None:
    filters = WalletFilters.from_params({"from": ["9999-12-31"], "to": ["2026-01-31"]})
    assert (filters.since, filters.until) == (None, date(2026, 1, 31))
    assert filters.problem == DAY_OUT_OF_RANGE
    assert filters.window("Pacific/Kiritimati")[0] is None
    assert filters.href() == "/dashboard/wallet?to=2026-01-31"
    latest = WalletFilters.from_params({"to": ["2999-12-31"]})
    assert latest.window("Etc/GMT+12")[1] is not None and latest.problem == ""


def test_the_wallet_screen_shows_the_problem() -> None:
    from pages.dashboard import wallet

    notice = wallet.date_notice(WalletFilters.from_params({"from": ["9999-12-31"]}))
    assert "A date in the address was left out" in text(notice) and DAY_OUT_OF_RANGE in text(notice)
    assert wallet.date_notice(WalletFilters()) == ""


def test_the_visit_screens_fall_back_from_a_day_out_of_range() -> None:
    from components import appointment_ui
    from staff.appointments import Filters, shown_days

    today = date(2030, 1, 9)
    staff_view = Filters.from_params({"date": ["9999-12-31"], "view": ["week"]}, today)
    assert staff_view.day == today
    first, last = shown_days(staff_view.day, staff_view.view)
    assert first <= today <= last
    assert appointment_ui._day("9999-12-31") is None and appointment_ui._day("2030-01-09") == today
