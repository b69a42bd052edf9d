"""Input rules shared by the domains (issue 11, flow 7): phone numbers, people's names, US ZIP codes, and
amounts of money typed in dollars, and calendar days typed in forms or read from URLs (issue 27: a day is between 1900-01-01 and 2999-12-31, so the
day after it, its midnight in any time zone and its month's end always exist; 9999-12-31 used to overflow
into a 500 wherever a day was widened to a range).

Each rule returns the value as it is stored, or raises `ValidationFailed` with a message the UI shows as is.
Phone numbers are parsed with Google's libphonenumber (the `phonenumbers` package; US is the default region)
and stored in E.164 ('+12125550100'); digits typed full-width ('２１２…') count as digits (NFKC).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation

import phonenumbers

from app.auth.common import clean_person_name, person_name_error
from app.services.errors import ValidationFailed

DEFAULT_PHONE_REGION = "US"
MAX_PHONE_INPUT = 64
INVALID_PHONE = "Please enter a valid phone number, e.g. (212) 555-0100 or +44 20 7946 0958."
BLANK_NAME = "Please enter your name."
INVALID_ZIP = "Please enter a valid 5-digit US ZIP code, e.g. 10001."
BAD_AMOUNT = "Enter an amount in dollars, e.g. 120 or 120.50."
# $100 million: far above any real amount here, far below where Decimal's 28 digits or a BIGINT give out.
MAX_AMOUNT_CENTS = 10_000_000_000
EARLIEST_DAY = date(1900, 1, 1)
LATEST_DAY = date(2999, 12, 31)
BAD_DAY = "Please enter a date as YYYY-MM-DD, e.g. 2026-03-14."
DAY_OUT_OF_RANGE = "Please enter a date between 1900-01-01 and 2999-12-31."
_ZIP = re.compile(r"\d{5}")
_ZIP_PLUS_FOUR = re.compile(r"(\d{5})-\d{4}")


def e164_phone(raw: str | None, *, region: str = DEFAULT_PHONE_REGION) -> str:
    """A phone number in E.164; '' for an empty input. ValidationFailed(INVALID_PHONE) when it is not a
    valid number (national numbers are read as `region`'s)."""
    text = unicodedata.normalize("NFKC", raw or "").strip()
    if not text:
        return ""
    if len(text) > MAX_PHONE_INPUT:
        raise ValidationFailed(INVALID_PHONE)
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException as exc:
        raise ValidationFailed(INVALID_PHONE) from exc
    if not phonenumbers.is_valid_number(number):
        raise ValidationFailed(INVALID_PHONE)
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def person_name(raw: str | None) -> str:
    """A person's name as every place stores it (app.auth.common.clean_person_name: NFKC, no control or
    invisible format characters, whitespace collapsed), '' when blank; ValidationFailed(NAME_TOO_LONG) past
    MAX_PERSON_NAME characters."""
    name = clean_person_name(raw)
    if (problem := person_name_error(name)) is not None:
        raise ValidationFailed(problem)
    return name


def required_name(raw: str | None, *, message: str = BLANK_NAME) -> str:
    """`person_name`, and ValidationFailed(message) when nothing visible is left (only spaces, or only
    invisible format characters such as U+200B or U+202E)."""
    name = person_name(raw)
    if not name:
        raise ValidationFailed(message)
    return name


def us_zip(raw: str | None) -> str:
    """A US ZIP code's five digits (a ZIP+4 keeps its first five; full-width digits are read as digits);
    ValidationFailed(INVALID_ZIP) for anything else."""
    text = unicodedata.normalize("NFKC", raw or "").strip()
    if _ZIP.fullmatch(text) and text.isascii():
        return text
    plus_four = _ZIP_PLUS_FOUR.fullmatch(text)
    if plus_four and text.isascii():
        return plus_four.group(1)
    raise ValidationFailed(INVALID_ZIP)


def calendar_day(raw: str | date | None, *, message: str = BAD_DAY) -> date | None:
    """The day a form field or URL parameter names (YYYY-MM-DD; a longer ISO timestamp keeps its day), or
    None when it is blank. ValidationFailed(message) when it is not a date, ValidationFailed(DAY_OUT_OF_RANGE)
    when it is outside EARLIEST_DAY..LATEST_DAY."""
    if isinstance(raw, date):
        day = raw
    else:
        text = unicodedata.normalize("NFKC", raw or "").strip()
        if not text:
            return None
        try:
            day = date.fromisoformat(text[:10])
        except ValueError:
            raise ValidationFailed(message) from None
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValidationFailed(DAY_OUT_OF_RANGE)
    return day


def day_in_url(raw: str | None) -> tuple[date | None, str]:
    """For a filter read from the URL: the day and '' — or None and why it was left out ('' when blank),
    for the screen to say so instead of failing."""
    try:
        return calendar_day(raw), ""
    except ValidationFailed as exc:
        return None, exc.message


def amount_cents(
    raw: str | Decimal | int | None,
    *,
    message: str = BAD_AMOUNT,
    least: int = 0,
    most: int = MAX_AMOUNT_CENTS,
) -> int:
    """Dollars as typed ('1,234.50', '$120') or given (a Decimal) as whole cents; ValidationFailed(message)
    for anything that is not a finite amount with at most two decimals between `least` and `most` cents.
    '1e30', 'NaN', 'inf', '-1' and '1e-9' are refused here instead of overflowing a conversion later."""
    if isinstance(raw, Decimal | int) and not isinstance(raw, bool):
        value = Decimal(raw)
    else:
        text = (
            unicodedata.normalize("NFKC", str(raw or "")).strip().replace(",", "").removeprefix("$").strip()
        )
        if not text or len(text) > 32:
            raise ValidationFailed(message)
        try:
            value = Decimal(text)
        except InvalidOperation:
            raise ValidationFailed(message) from None
    # Compare before any arithmetic: quantizing 1e30 raises, and the exponent says how many decimals there are.
    if not value.is_finite() or not Decimal(least) / 100 <= value <= Decimal(most) / 100:
        raise ValidationFailed(message)
    if value.as_tuple().exponent < -2 and value != value.quantize(Decimal("0.01")):  # type: ignore[operator]
        raise ValidationFailed(message)
    return int(value * 100)
