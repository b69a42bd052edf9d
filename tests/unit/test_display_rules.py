"""Pure display rules: money, dates, cart badge, avatar initials, bottom-bar highlighting, 404 suggestions."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from app.services.feedback import suggest_page
from components.format import cart_badge_text, format_currency, format_date, initials
from components.frame.links import is_active


@pytest.mark.parametrize(
    ("count", "text"), [(0, None), (-1, None), (1, "1"), (9, "9"), (10, "9+"), (250, "9+")]
)
def test_cart_badge_caps_at_nine_plus(count: int, text: str | None) -> None:
    assert cart_badge_text(count) == text


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (120, "$120"),
        (Decimal("89.5"), "$89.50"),
        (Decimal("89.50"), "$89.50"),
        (Decimal("111.3"), "$111.30"),
        (1234.567, "$1,234.57"),
        (0, "$0"),
        (Decimal("0.005"), "$0.01"),
        (-12.3, "-$12.30"),
    ],
)
def test_currency_shows_no_cents_for_whole_dollars_and_both_digits_otherwise(amount, text: str) -> None:
    assert format_currency(amount) == text


def test_dates_read_abbreviated_month_day_year() -> None:
    assert format_date(date(2026, 11, 21)) == "Nov 21, 2026"
    assert format_date(datetime(2025, 1, 5, 23, 59)) == "Jan 5, 2025"


@pytest.mark.parametrize(
    ("name", "text"),
    [("Ada Lovelace", "AL"), ("maria de la cruz", "MDLC"), ("", "U"), (None, "U"), ("  ", "U")],
)
def test_avatar_initials(name: str | None, text: str) -> None:
    assert initials(name) == text


@pytest.mark.parametrize(
    ("entry", "path", "active"),
    [
        ("/", "/", True),
        ("/", "/services", False),
        ("/services", "/services", True),
        ("/services", "/services/iv-therapy", True),
        ("/services", "/services-extra", False),
        ("/appointments", "/appointments", True),
        ("/providers", "/provider-of-month", False),
    ],
)
def test_bottom_bar_highlights_the_entry_the_path_starts_with(entry: str, path: str, active: bool) -> None:
    assert is_active(entry, path) is active


@pytest.mark.parametrize(
    ("path", "href"),
    [
        ("/signup-now", "/sign-up"),
        ("/REGISTER", "/sign-up"),
        ("/user/signin", "/sign-in"),
        ("/old-login", "/sign-in"),
        ("/forgot", "/forgot-password"),
        ("/reset-my-password", "/forgot-password"),
        ("/providers-list", "/providers"),
        ("/our-service", "/services"),
        ("/my-appointment", "/appointments"),
        ("/profile/edit", "/dashboard/profile"),
        ("/account", "/dashboard/profile"),
        ("/enroll-now", "/provider-enrollment"),
        ("/xyz", "/"),
        # The SPEC's order decides ties: "register" is checked before "provider".
        ("/provider/register", "/sign-up"),
        ("/service-provider", "/providers"),
    ],
)
def test_404_suggestion_follows_the_keyword_table_in_order(path: str, href: str) -> None:
    assert suggest_page(path)[0] == href
