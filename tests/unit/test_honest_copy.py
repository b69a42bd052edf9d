"""Honest copy (issue 11, flow 6): 'Welcome back' only for someone who has been here before, 'Booking
confirmed' only over confirmed visits, no dates in the past on 'coming soon' screens, the flash-sale banner
only on sale days, and never the public frame (banner, header) inside the staff portal."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app import db as app_db
from app.services.accounts import resolve_viewer
from app.settings import get_settings
from components.catalog_copy import CATEGORIES, FLASH_SALE_TEXT
from components.frame.banner import SALE_TEXT, flash_sale_banner
from components.order_ui import CONFIRMED, REQUESTED, confirmation_copy
from components.screen import DASHBOARD_FRAME, OWN_FRAME, SITE_FRAME
from medivisit.ui import _routes
from models.booking import AppointmentStatus, OrderRead
from pages.dashboard.home import coming_soon_screen as dashboard_coming_soon
from pages.dashboard.home import overview
from pages.routes import SCREENS
from pages.services import _category_section
from staff.portal import coming_soon_screen as staff_coming_soon
from tests import factories
from tests.ui.harness import text

ROOT = Path(__file__).resolve().parents[2]
QUARTER = re.compile(r"\bQ[1-4]\s*'?\d{2,4}\b")


async def viewer(token: str):  # noqa: ANN201
    async with app_db.unit_of_work() as session:
        return await resolve_viewer(session=session, access_token=token)


# ---- Welcome back ----------------------------------------------------------------------------------
async def test_a_first_sign_in_is_not_returning_and_a_later_one_is(identity) -> None:
    someone = await factories.person(name="Pat Lee")
    first = await viewer(someone.access_token)
    assert first is not None and first.returning is False
    _actor, second_token = await factories._start_session(someone.id)
    second = await viewer(second_token)
    assert second is not None and second.returning is True
    # The first session stays a first visit: it began before any other sign-in.
    assert (await viewer(someone.access_token)).returning is False


async def test_the_dashboard_welcomes_back_only_a_returning_user(identity) -> None:
    someone = await factories.person(name="Pat Lee")
    first_visit = text(overview(someone.account, returning=False))
    assert "Welcome, Pat" in first_visit and "Welcome back" not in first_visit
    assert "Welcome back, Pat" in text(overview(someone.account, returning=True))


def test_no_sign_in_or_sign_up_screen_says_welcome_back_to_everyone() -> None:
    for module in ("pages/sign_in.py", "pages/sign_up.py"):
        assert "Welcome back" not in (ROOT / module).read_text(), module


# ---- Booking confirmed -----------------------------------------------------------------------------
def _order(*statuses: AppointmentStatus) -> OrderRead:
    return factories.order_read([factories.appointment_read(status) for status in statuses])


def test_pending_visits_are_requested_not_confirmed() -> None:
    eyebrow, heading, lead = confirmation_copy(_order(AppointmentStatus.pending, AppointmentStatus.pending))
    assert eyebrow == REQUESTED == "Requested — awaiting the provider's confirmation"
    assert heading == "Your visits are requested"
    assert "confirmed" not in heading.lower() and "booked" not in heading.lower()
    mixed = confirmation_copy(_order(AppointmentStatus.confirmed, AppointmentStatus.pending))
    assert mixed[0] == REQUESTED
    assert confirmation_copy(_order(AppointmentStatus.pending))[1] == "Your visit is requested"


def test_confirmed_visits_are_confirmed() -> None:
    assert confirmation_copy(_order(AppointmentStatus.confirmed))[0] == CONFIRMED


# ---- no dates in the past --------------------------------------------------------------------------
def test_coming_soon_screens_promise_no_date() -> None:
    for screen in (dashboard_coming_soon("Wallet"), staff_coming_soon("Revenue Reports")):
        shown = text(screen)
        assert "Coming Soon" in shown
        assert not QUARTER.search(shown) and not re.search(r"\b20\d\d\b", shown), shown


def test_no_screen_names_a_quarter() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {match.group()}"
        for folder in ("pages", "components", "staff", "helpdesk", "admin")
        for path in (ROOT / folder).rglob("*.py")
        for match in QUARTER.finditer(path.read_text())
    ]
    assert found == []


# ---- the flash-sale banner -------------------------------------------------------------------------
@pytest.fixture
def sale_day(monkeypatch):
    def set_day(day: str | None, *, enabled: bool = True) -> None:
        if day is None:
            monkeypatch.delenv("FLASH_SALE_DAY", raising=False)
        else:
            monkeypatch.setenv("FLASH_SALE_DAY", day)
        monkeypatch.setenv("FLASH_SALE_ENABLED", "true" if enabled else "false")
        get_settings.cache_clear()

    yield set_day
    monkeypatch.undo()
    get_settings.cache_clear()


def _today() -> datetime:
    return datetime.now(UTC).astimezone(ZoneInfo(get_settings().flash_sale_time_zone))


def test_the_banner_shows_every_day_when_no_day_is_set(sale_day) -> None:
    sale_day(None)
    assert SALE_TEXT in text(flash_sale_banner())


def test_the_banner_shows_on_the_sale_day_only(sale_day) -> None:
    iv_therapy = next(category for category in CATEGORIES if category.on_sale)
    sale_day(_today().date().isoformat())
    assert SALE_TEXT in text(flash_sale_banner())
    assert FLASH_SALE_TEXT in text(_category_section(iv_therapy, 1, None, False))
    sale_day((_today().date() - timedelta(days=3)).isoformat())
    assert flash_sale_banner() == ""
    assert FLASH_SALE_TEXT not in text(_category_section(iv_therapy, 1, None, False))


def test_no_banner_when_the_sale_is_off(sale_day) -> None:
    sale_day(None, enabled=False)
    assert flash_sale_banner() == ""


# ---- the staff portal and the dashboard have their own frames ---------------------------------------
def _expected_frame(path: str) -> str:
    # /auth-redirect only passes the visitor on: no header whose menu could be clicked as it hands over.
    if path == "/staff" or path.startswith("/staff/") or path == "/auth-redirect":
        return OWN_FRAME
    if path == "/dashboard" or path.startswith("/dashboard/"):
        return DASHBOARD_FRAME
    return SITE_FRAME


def test_staff_and_dashboard_screens_are_outside_the_public_frame() -> None:
    assert {s.frame for s in SCREENS} == {OWN_FRAME, DASHBOARD_FRAME, SITE_FRAME}
    for screen in SCREENS:
        assert screen.frame == _expected_frame(screen.path), screen.path
    for route in _routes():
        assert route.element._kwargs["frame"] == _expected_frame(route.path), route.path
