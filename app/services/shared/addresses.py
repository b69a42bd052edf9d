"""Addresses: the US states, ZIP codes (and ZIP -> state), and what the address of a visit at a place of visit
lacks (`address_problems`), with the messages a patient reads next to an address field.

ZIP codes are checked against the US ZIP code list of the `zipcodes` package (offline, about 42,000 codes);
`zip_state` gives a ZIP code's state, which the licence-state rule compares with the licences' states.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping

import zipcodes

from models.catalog import ServiceLocation

# The 50 states, DC and the inhabited territories (licensing boards issue licences there too).
STATE_CODES = (
    "AL",
    "AK",
    "AZ",
    "AR",
    "CA",
    "CO",
    "CT",
    "DE",
    "DC",
    "FL",
    "GA",
    "HI",
    "ID",
    "IL",
    "IN",
    "IA",
    "KS",
    "KY",
    "LA",
    "ME",
    "MD",
    "MA",
    "MI",
    "MN",
    "MS",
    "MO",
    "MT",
    "NE",
    "NV",
    "NH",
    "NJ",
    "NM",
    "NY",
    "NC",
    "ND",
    "OH",
    "OK",
    "OR",
    "PA",
    "RI",
    "SC",
    "SD",
    "TN",
    "TX",
    "UT",
    "VT",
    "VA",
    "WA",
    "WV",
    "WI",
    "WY",
    "PR",
    "GU",
    "VI",
    "AS",
    "MP",
)  # in the order a form lists them
US_STATES = frozenset(STATE_CODES)

ZIP_RE = re.compile(r"^\d{5}$")
STATE_RE = re.compile(r"^[A-Z]{2}$")
ADDRESSED = (ServiceLocation.home, ServiceLocation.office, ServiceLocation.corporate_venue)


@functools.cache
def _zip_states() -> Mapping[str, str]:
    """Every US ZIP code (the `zipcodes` list) → its state's two letters. Built once, never changed."""
    return {row["zip_code"]: row["state"] for row in zipcodes.list_all()}


def zip_state(zip_code: str) -> str | None:
    """The state (two letters) of a US ZIP code, or None when it is not one."""
    return _zip_states().get((zip_code or "").strip()[:5]) if len((zip_code or "").strip()) == 5 else None


def is_real_zip(zip_code: str) -> bool:
    return zip_state(zip_code) is not None


def licensed_for_zip(zip_code: str, license_states: Iterable[str]) -> bool:
    """The licence-state rule: a visit in `zip_code` needs a licence of that ZIP code's state."""
    state = zip_state(zip_code)
    return state is not None and state in {s.upper() for s in license_states}


# What a patient reads next to an address field, and in checkout's error summary (GOV.UK style: say what
# to do, no "for {service}": the address is one for every visit).
ENTER_ZIP = "Enter your ZIP code"
ZIP_DIGITS = "Enter a ZIP code with 5 digits, like 10001"
ENTER_STREET = "Enter your street address"
LONG_STREET = "Street address must be 200 characters or fewer"
ENTER_CITY = "Enter your city"
LONG_CITY = "City must be 100 characters or fewer"
ENTER_STATE = "Enter your state"
STATE_LETTERS = "Enter your state as 2 letters, like NY"


def address_problems(
    location: ServiceLocation, *, zip_code: str = "", address_line: str = "", city: str = "", state: str = ""
) -> dict[str, str]:
    """What the address of a visit at `location` lacks, by field ("zip_code", "address_line", "city",
    "state", in the order of the form), or {} when it will do. The checks `place_order` makes before it
    asks whether the provider travels there: a virtual visit needs nothing, a clinic visit the ZIP code,
    the other places the whole address."""
    problems: dict[str, str] = {}
    if location == ServiceLocation.virtual:
        return problems
    zip_code = zip_code.strip()
    if not ZIP_RE.match(zip_code):
        problems["zip_code"] = ZIP_DIGITS if zip_code else ENTER_ZIP
    if location not in ADDRESSED:
        return problems
    street, town = " ".join(address_line.split()), " ".join(city.split())
    if not 0 < len(street) <= 200:
        problems["address_line"] = LONG_STREET if street else ENTER_STREET
    if not 0 < len(town) <= 100:
        problems["city"] = LONG_CITY if town else ENTER_CITY
    if not STATE_RE.match(state.strip().upper()):
        problems["state"] = STATE_LETTERS if state.strip() else ENTER_STATE
    return problems
