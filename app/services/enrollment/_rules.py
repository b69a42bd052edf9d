"""The rules of an application, without a database: NPI, licences, the ZIP codes a provider travels to, each
wizard step's fields, and what a complete application has.

Each step's `clean_*` returns the values as stored and a dict of field errors (field name → message the UI
shows next to the field and in the error summary); `StepInvalid` carries them from a command to the screen.

NPI (CMS, "Requirements for the NPI check digit"): 10 digits, the first 1 or 2; the last is the Luhn check
digit computed over "80840" followed by the first nine (80 = health, 840 = the United States).

ZIP codes are checked against the US ZIP code list (`is_real_zip`, `zip_state`:
app/services/shared/addresses.py).
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.auth.common import clean_person_name
from app.services.errors import ValidationFailed
from app.services.shared.addresses import US_STATES, is_real_zip
from app.services.validation import INVALID_PHONE, e164_phone
from models.enrollment import (
    MAX_BIO,
    CredentialsUpdate,
    DocumentCreate,
    DocumentKind,
    IdentityUpdate,
    OfferingUpdate,
)
from models.provider import ProviderType

# Provider types whose professionals have a National Provider Identifier (HIPAA covered health care
# providers): the wizard asks them for it and the reviewer checks it. The others have none ('').
NPI_TYPES = frozenset(
    {
        ProviderType.doctor,
        ProviderType.nurse,
        ProviderType.np,
        ProviderType.lvn,
        ProviderType.pharmacist,
        ProviderType.therapist,
        ProviderType.mental_health_therapist,
        ProviderType.counselor,
        ProviderType.marriage_counselor,
        ProviderType.nutritionist,
        ProviderType.specialist,
    }
)

REQUIRED_DOCUMENTS = tuple(DocumentKind)  # all four kinds before submitting
MAX_PRICE = Decimal("99999")
MAX_NAME = 80
MAX_LANGUAGE = 40
MAX_LICENSE_TYPE = 40
MAX_LICENSE_NUMBER = 40
MAX_YEARS_AHEAD = 15  # a licence or document expiring later than this is a typo

NPI_FORMAT = "An NPI is 10 digits and starts with 1 or 2, e.g. 1234567893."
NPI_CHECK_DIGIT = (
    "This NPI's last digit does not match the others (its check digit is wrong): please copy it again from "
    "your NPPES record."
)
NPI_REQUIRED = "Please enter your 10-digit NPI (National Provider Identifier)."
FIRST_NAME_REQUIRED = "Please enter your legal first name."
LAST_NAME_REQUIRED = "Please enter your legal last name."
NAME_TOO_LONG = f"Names can be at most {MAX_NAME} characters."
TYPE_REQUIRED = "Please choose what kind of provider you are."
PHONE_REQUIRED = "Please enter a phone number we can reach you on."
LANGUAGE_TOO_LONG = f"Each language can be at most {MAX_LANGUAGE} characters."
BIO_TOO_LONG = f"Your bio can be at most {MAX_BIO} characters."
LICENSE_REQUIRED = "Please add at least one professional licence."
LICENSE_TYPE_REQUIRED = "Please enter the licence type, e.g. RN."
LICENSE_TYPE_TOO_LONG = f"A licence type can be at most {MAX_LICENSE_TYPE} characters."
LICENSE_STATE_INVALID = "Please choose the US state that issued the licence (two letters, e.g. NY)."
LICENSE_NUMBER_INVALID = f"Please enter the licence number as it is printed (letters, digits and dashes, up to {MAX_LICENSE_NUMBER})."
DATE_INVALID = "Please enter a date, e.g. 2027-06-30."
EXPIRY_NOT_FUTURE = "This date has passed: a licence or document must not have expired (or expire today)."
EXPIRY_TOO_FAR = f"Please check this date: it is more than {MAX_YEARS_AHEAD} years away."
ISSUED_IN_FUTURE = "The issue date cannot be in the future."
ISSUED_AFTER_EXPIRY = "The issue date must be before the expiry date."
LICENSE_DUPLICATE = "This licence is listed twice."
OFFER_REQUIRED = "Please choose at least one service you offer."
OFFER_UNKNOWN = "One of the services chosen is no longer offered. Please choose again."
OFFER_PRICE = "Please enter a price for {name} between $0 and $99,999, e.g. 85 or 85.50."
OFFER_PLACES = "Please choose where you offer {name} (among the places this service allows)."
ZIP_REQUIRED = "Please add at least one ZIP code you travel to."
ZIP_UNKNOWN = "{zip} is not a US ZIP code."
ZIP_FORMAT = "ZIP codes are 5 digits, e.g. 10001 ({zip} is not)."
HOURS_REQUIRED = "Please add the hours you can take visits."
HOURS_SPAN = "Each time range must start before it ends, within the day."
HOURS_OVERLAP = "Two of your time ranges on {day} overlap."
ZONE_INVALID = "Please choose your time zone from the list."
DOCUMENT_EXPIRY_REQUIRED = "Please enter the date this {kind} expires."
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Documents whose expiry date is required (a government ID may have none printed, e.g. some passports do).
EXPIRY_REQUIRED = frozenset({DocumentKind.license, DocumentKind.malpractice_insurance, DocumentKind.cpr_bls})

_LICENSE_NUMBER = re.compile(r"[A-Z0-9][A-Z0-9 .\-/]*")

FieldErrors = dict[str, str]


class StepInvalid(ValidationFailed):
    """A wizard step (or a submission) with mistakes: `errors` maps field names to messages."""

    def __init__(self, errors: Mapping[str, str], message: str | None = None) -> None:
        first = next(iter(errors.values()), "Please correct the highlighted fields.")
        super().__init__(message or first, code="step_invalid")
        self.errors = dict(errors)


def _text(raw: str | None) -> str:
    return " ".join(unicodedata.normalize("NFKC", raw or "").split())


# ---- NPI -------------------------------------------------------------------------------------------------
def _luhn_sum(digits: str) -> int:
    """Luhn's sum of `digits` (the rightmost doubled: it is the digit before where the check digit goes)."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 0:
            value *= 2
            value = value - 9 if value > 9 else value
        total += value
    return total


def npi_check_digit(first_nine: str) -> int:
    """The NPI check digit of nine digits: Luhn over '80840' + the nine digits."""
    return (10 - _luhn_sum("80840" + first_nine) % 10) % 10


def npi_problem(raw: str | None) -> str | None:
    """Why `raw` is not a valid NPI, or None when it is one (spaces and dashes typed are ignored)."""
    npi = re.sub(r"[\s\-]", "", unicodedata.normalize("NFKC", raw or ""))
    if not (len(npi) == 10 and npi.isascii() and npi.isdigit() and npi[0] in "12"):
        return NPI_FORMAT
    if npi_check_digit(npi[:9]) != int(npi[9]):
        return NPI_CHECK_DIGIT
    return None


def is_valid_npi(raw: str | None) -> bool:
    return npi_problem(raw) is None


def clean_npi(raw: str | None) -> str:
    """The NPI's 10 digits; ValidationFailed with the reason otherwise."""
    problem = NPI_REQUIRED if not (raw or "").strip() else npi_problem(raw)
    if problem:
        raise ValidationFailed(problem, code="invalid_npi")
    return re.sub(r"[\s\-]", "", unicodedata.normalize("NFKC", raw or ""))


def has_npi(provider_type: ProviderType | None) -> bool:
    """Whether providers of this type have (and must give) an NPI."""
    return provider_type in NPI_TYPES


# ---- dates -----------------------------------------------------------------------------------------------
def parse_date(raw: str | None) -> date | None:
    """A date typed as YYYY-MM-DD (a date input's value); None when empty; ValueError when not a date."""
    text = (raw or "").strip()
    if not text:
        return None
    if len(text) != 10:
        raise ValueError(text)
    return date.fromisoformat(text)


def _expiry_problem(expires: date, today: date) -> str | None:
    if expires <= today:
        return EXPIRY_NOT_FUTURE
    if expires.year - today.year > MAX_YEARS_AHEAD:
        return EXPIRY_TOO_FAR
    return None


# ---- step 1: who you are -----------------------------------------------------------------------------------
def clean_identity(update: IdentityUpdate) -> tuple[dict[str, Any], FieldErrors]:
    errors: FieldErrors = {}
    first, last = clean_person_name(update.first_name), clean_person_name(update.last_name)
    for name, value, required in (
        ("first_name", first, FIRST_NAME_REQUIRED),
        ("last_name", last, LAST_NAME_REQUIRED),
    ):
        if not value:
            errors[name] = required
        elif len(value) > MAX_NAME:
            errors[name] = NAME_TOO_LONG
    kind = None
    try:
        kind = ProviderType(update.provider_type.strip())
    except ValueError:
        errors["provider_type"] = TYPE_REQUIRED
    phone = ""
    if not update.phone.strip():
        errors["phone"] = PHONE_REQUIRED
    else:
        try:
            phone = e164_phone(update.phone)
        except ValidationFailed:
            errors["phone"] = INVALID_PHONE
    languages: list[str] = []
    for raw in update.languages:
        language = _text(raw)
        if len(language) > MAX_LANGUAGE:
            errors["languages"] = LANGUAGE_TOO_LONG
        elif language and language.casefold() not in {seen.casefold() for seen in languages}:
            languages.append(language)
    bio = (update.bio or "").strip()
    if len(bio) > MAX_BIO:
        errors["bio"] = BIO_TOO_LONG
    values = {
        "first_name": first,
        "last_name": last,
        "provider_type": kind,
        "phone": phone,
        "languages": languages,
        "bio": bio,
    }
    return values, errors


# ---- step 2: credentials -----------------------------------------------------------------------------------
def clean_credentials(
    update: CredentialsUpdate, provider_type: ProviderType | None, today: date
) -> tuple[dict[str, Any], FieldErrors]:
    """{'npi': '' or 10 digits, 'licenses': [{license_type, state, number, expires_on}]} and field errors
    (licence fields are named 'licenses.{n}.{field}')."""
    errors: FieldErrors = {}
    npi = ""
    if has_npi(provider_type):
        try:
            npi = clean_npi(update.npi)
        except ValidationFailed as exc:
            errors["npi"] = exc.message
    licenses: list[dict[str, Any]] = []
    if not update.licenses:
        errors["licenses"] = LICENSE_REQUIRED
    seen: set[tuple[str, str]] = set()
    for n, entry in enumerate(update.licenses):
        prefix = f"licenses.{n}."
        kind = _text(entry.license_type)
        if not kind:
            errors[prefix + "license_type"] = LICENSE_TYPE_REQUIRED
        elif len(kind) > MAX_LICENSE_TYPE:
            errors[prefix + "license_type"] = LICENSE_TYPE_TOO_LONG
        state = entry.state.strip().upper()
        if state not in US_STATES:
            errors[prefix + "state"] = LICENSE_STATE_INVALID
        number = _text(entry.number).upper()
        if not (number and len(number) <= MAX_LICENSE_NUMBER and _LICENSE_NUMBER.fullmatch(number)):
            errors[prefix + "number"] = LICENSE_NUMBER_INVALID
        elif (state, number) in seen:
            errors[prefix + "number"] = LICENSE_DUPLICATE
        seen.add((state, number))
        expires = None
        with contextlib.suppress(ValueError):
            expires = parse_date(entry.expires_on)
        if expires is None:
            errors[prefix + "expires_on"] = DATE_INVALID
        elif problem := _expiry_problem(expires, today):
            errors[prefix + "expires_on"] = problem
        licenses.append({"license_type": kind, "state": state, "number": number, "expires_on": expires})
    return {"npi": npi, "licenses": licenses}, errors


# ---- step 3: what you offer --------------------------------------------------------------------------------
def clean_offering(
    update: OfferingUpdate, services: Mapping[str, tuple[str, int]]
) -> tuple[dict[str, Any], FieldErrors]:
    """`services`: the active catalog, service id → (name, the places it allows as a location mask)."""
    errors: FieldErrors = {}
    offers: list[dict[str, Any]] = []
    if not update.offers:
        errors["offers"] = OFFER_REQUIRED
    for offer in {o.service_id: o for o in update.offers}.values():
        if offer.service_id not in services:
            errors["offers"] = OFFER_UNKNOWN
            continue
        name, allowed = services[offer.service_id]
        try:
            price = Decimal(offer.price.strip().lstrip("$").replace(",", "")).quantize(Decimal("0.01"))
            if not price.is_finite() or price < 0 or price > MAX_PRICE:
                raise InvalidOperation
        except (InvalidOperation, ValueError):
            errors[f"price.{offer.service_id}"] = OFFER_PRICE.format(name=name)
            price = None
        if not offer.location_mask or offer.location_mask & ~allowed:
            errors[f"places.{offer.service_id}"] = OFFER_PLACES.format(name=name)
        offers.append(
            {
                "service_id": offer.service_id,
                "price": str(price) if price is not None else "",
                "location_mask": offer.location_mask,
            }
        )
    zips: list[str] = []
    for raw in update.zip_codes:
        text = unicodedata.normalize("NFKC", raw or "").strip()
        if not text:
            continue
        if not (len(text) == 5 and text.isascii() and text.isdigit()):
            errors.setdefault("zip_codes", ZIP_FORMAT.format(zip=text[:12]))
        elif not is_real_zip(text):
            errors.setdefault("zip_codes", ZIP_UNKNOWN.format(zip=text))
        elif text not in zips:
            zips.append(text)
    if not zips and "zip_codes" not in errors:
        errors["zip_codes"] = ZIP_REQUIRED
    hours = sorted(
        (
            {"weekday": h.weekday, "start_minute": h.start_minute, "end_minute": h.end_minute}
            for h in update.weekly_hours
        ),
        key=lambda h: (h["weekday"], h["start_minute"]),
    )
    if not hours:
        errors["weekly_hours"] = HOURS_REQUIRED
    for before, after in zip(hours, hours[1:], strict=False):
        if before["weekday"] == after["weekday"] and after["start_minute"] < before["end_minute"]:
            errors["weekly_hours"] = HOURS_OVERLAP.format(day=WEEKDAYS[after["weekday"]])
    if any(not (0 <= h["start_minute"] < h["end_minute"] <= 1440) for h in hours):
        errors["weekly_hours"] = HOURS_SPAN
    zone = update.time_zone.strip()
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        errors["time_zone"] = ZONE_INVALID
    return {"offers": offers, "zip_codes": zips, "weekly_hours": hours, "time_zone": zone}, errors


# ---- step 4: a document ------------------------------------------------------------------------------------
def clean_document_dates(document: DocumentCreate, today: date) -> tuple[dict[str, Any], FieldErrors]:
    errors: FieldErrors = {}
    issued = expires = None
    try:
        issued = parse_date(document.issued_on)
    except ValueError:
        errors["issued_on"] = DATE_INVALID
    try:
        expires = parse_date(document.expires_on)
    except ValueError:
        errors["expires_on"] = DATE_INVALID
    if issued is not None and issued > today:
        errors["issued_on"] = ISSUED_IN_FUTURE
    if expires is None and "expires_on" not in errors and document.kind in EXPIRY_REQUIRED:
        errors["expires_on"] = DOCUMENT_EXPIRY_REQUIRED.format(kind=document.kind.label.lower())
    elif expires is not None and (problem := _expiry_problem(expires, today)):
        errors["expires_on"] = problem
    if issued is not None and expires is not None and issued >= expires and "issued_on" not in errors:
        errors["issued_on"] = ISSUED_AFTER_EXPIRY
    return {"issued_on": issued, "expires_on": expires}, errors


def missing_documents(kinds: Sequence[DocumentKind]) -> list[DocumentKind]:
    """The required kinds among which no (non-rejected) document was handed in, in the wizard's order."""
    have = set(kinds)
    return [kind for kind in REQUIRED_DOCUMENTS if kind not in have]
