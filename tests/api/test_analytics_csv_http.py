"""GET /api/analytics/export.csv (api/analytics.py): staff with view_analytics download the figures of a
range per period, per provider or per ZIP code; the numbers are the ones inserted here, counted by hand.
Without the permission 403, nobody signed in 401, a bad range or report 422 with the reason."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import httpx
import pytest

from app import db as app_db
from app.services.analytics._demand import record_unmet_search
from medivisit.main import create_app
from models.account import Role
from models.booking import AppointmentStatus
from tests.factories import Hours, person, provider, visit

CSV = "/api/analytics/export.csv"
RANGE = {"from": "2026-03-02", "to": "2026-03-15"}  # two whole weeks, Monday to Sunday


@pytest.fixture
async def client(identity_env):
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        yield client


def rows(body: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(body)))


async def test_staff_download_the_figures_of_a_range(client) -> None:
    manager = await person(Role.management, "Mia Manager")
    patient = await person(Role.patient, "Pat Visits")
    nurse = await provider("Ada Nurse", hours=[Hours(0, 9 * 60, 17 * 60)])  # Mondays, 8 hours
    for day, status in (
        (2, AppointmentStatus.completed),
        (3, AppointmentStatus.cancelled),
        (10, AppointmentStatus.completed),
    ):
        await visit(patient, nurse, datetime(2026, 3, day, 15, tzinfo=UTC), status=status, minutes=60)
    async with app_db.unit_of_work() as session:
        for _ in range(3):
            await record_unmet_search(session, zip_code="99501", now=datetime(2026, 3, 5, 12, tzinfo=UTC))
        await record_unmet_search(session, zip_code="82001", now=datetime(2026, 3, 20, 12, tzinfo=UTC))

    client.cookies.set("mv_access", manager.access_token)
    answer = await client.get(CSV, params={**RANGE, "by": "week"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == (
        'attachment; filename="medivisit-analytics-periods-2026-03-02-to-2026-03-15-per-week.csv"'
    )
    assert answer.headers["cache-control"] == "private, no-store"
    got = rows(answer.text)
    assert [r["period_start"] for r in got] == ["2026-03-02", "2026-03-09", "total"]
    first, second, total = got
    assert (first["visits_due"], first["completed"], first["cancelled"]) == ("2", "1", "1")
    assert first["completion_rate"] == "0.5000" and second["completion_rate"] == "1.0000"
    assert (first["patients"], first["new_patients"], second["returning_patients"]) == ("1", "1", "1")
    assert (total["patients"], total["new_patients"], total["returning_patients"]) == ("1", "1", "0")
    assert (first["booked_hours"], first["offered_hours"], first["utilisation"]) == ("1.00", "8.00", "0.1250")
    assert (total["booked_hours"], total["offered_hours"]) == ("2.00", "16.00")
    assert (first["searches_with_no_provider"], total["searches_with_no_provider"]) == ("3", "3")

    providers = await client.get(CSV, params={**RANGE, "report": "providers"})
    assert rows(providers.text) == [
        {
            "provider_id": nurse,
            "provider": "Ada Nurse",
            "visits": "2",
            "booked_hours": "2.00",
            "offered_hours": "16.00",
            "utilisation": "0.1250",
        }
    ]
    zips = await client.get(CSV, params={"from": "2026-03-01", "to": "2026-03-31", "report": "zip-codes"})
    assert rows(zips.text) == [
        {"zip_code": "99501", "searches_with_no_provider": "3", "days_searched": "1"},
        {"zip_code": "82001", "searches_with_no_provider": "1", "days_searched": "1"},
    ]


async def test_refusals(client) -> None:
    answer = await client.get(CSV, params=RANGE)
    assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"

    support = await person(Role.support, "Sam Support")
    client.cookies.set("mv_access", support.access_token)
    assert (await client.get(CSV, params=RANGE)).status_code == 403
    assert (await client.get(CSV, params={"from": "nonsense"})).status_code == 403

    hr = await person(Role.hr, "Harper Hr")
    client.cookies.set("mv_access", hr.access_token)
    assert (await client.get(CSV, params=RANGE)).status_code == 200
    for params, message in (
        ({"from": "2026-03-10", "to": "2026-03-01"}, "The end date must be on or after the start date."),
        ({"from": "2024-01-01", "to": "2026-01-01"}, "Choose at most 366 days; this range has 732."),
        ({"from": "March 1"}, "Give the start date as YYYY-MM-DD."),
        ({**RANGE, "by": "month"}, "Choose per day or per week."),
        ({**RANGE, "report": "everything"}, "Choose the periods, providers or zip-codes report."),
    ):
        answer = await client.get(CSV, params=params)
        assert answer.status_code == 422 and answer.json()["message"] == message, params
