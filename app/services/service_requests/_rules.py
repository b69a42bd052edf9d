"""The rules service requests share: limits, the words people read, the offer price bounds, the ZIP code's
place and time zone (the `zipcodes` list, like the rest of the app), the ZIP codes within reach of a
provider's service area, parsing the patient's time windows, and the eligibility rule in SQL (who may see a
request and offer on it)."""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

import zipcodes
from sqlalchemy import ColumnElement, and_, case, exists

from app.services.catalog import CENT
from app.services.errors import ValidationFailed
from app.services.providers import licensed_in
from app.settings import get_settings
from models.catalog import ServiceLocation
from models.provider import ProviderService
from models.service_request import (
    LIVE_REQUEST,
    MAX_MESSAGE,
    MAX_NOTES,
    MAX_WINDOWS,
    ServiceRequest,
    TimeWindow,
    WindowInput,
)

# An offer's price must lie within these shares of the catalog's list price for the service.
PRICE_FLOOR = Decimal("0.80")
PRICE_CEILING = Decimal("1.50")
MAX_LIVE_PER_PATIENT = 5  # open or offered requests a patient may have at once
MAX_START_TIMES = 48  # start times offered to a provider for one request
EARTH_MILES = 3958.8

BAD_SERVICE = "Choose a service from the list."
BAD_PLACE = "{service} isn't offered for this place of visit ({place}). Choose another place."
ENTER_ZIP = "Enter the ZIP code where the visit would happen, like 10001."
UNKNOWN_ZIP = "We don't recognise ZIP code {zip}. Check it and try again."
NO_WINDOWS = "Add at least one preferred time: a date, a start time and an end time."
TOO_MANY_WINDOWS = f"You can give at most {MAX_WINDOWS} preferred times."
BAD_WINDOW = "Preferred time {n}: enter a date, a start time and an end time."
BACKWARDS_WINDOW = "Preferred time {n}: the end must be after the start."
SHORT_WINDOW = "Preferred time {n} must be at least {minutes} minutes long: {service} takes that long."
PAST_WINDOW = "Preferred time {n} has already started. Choose a later time."
FAR_WINDOW = "Preferred time {n} is too far ahead: choose a date within the next {days} days."
LONG_NOTES = f"Notes can be at most {MAX_NOTES} characters."
TOO_MANY_LIVE = (
    f"You already have {MAX_LIVE_PER_PATIENT} open service requests. Cancel one, or wait for it to be "
    "booked or to expire, before asking again."
)
NO_REQUEST = "We could not find this service request."
NOT_OPEN = "This service request is no longer open."
NOT_ELIGIBLE = "This request isn't open to you: you can offer only on requests in your service area."
NOT_LISTED = (
    "Your provider profile isn't listed right now, so the job board is closed to you. It opens once your "
    "profile is verified and active."
)
ALREADY_OFFERED = "You've already sent an offer for this request."
BAD_PRICE = "Offer a price between {low} and {high} (80% to 150% of the catalog price of {list})."
BAD_START = "That time isn't open in your calendar any more. Choose one of the times listed."
LONG_MESSAGE = f"Your message can be at most {MAX_MESSAGE} characters."
NO_OFFER = "We could not find this offer."
OFFER_GONE = "This offer is no longer available: the provider withdrew it or it has closed."
NOT_PENDING = "Only a pending offer can be withdrawn."
OWN_REQUEST = "You can't offer on your own request."


def money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def price_bounds(list_price: Decimal) -> tuple[Decimal, Decimal]:
    """The lowest and highest price an offer may ask for a service listed at `list_price`."""
    low = (list_price * PRICE_FLOOR).quantize(CENT, rounding=ROUND_HALF_UP)
    high = (list_price * PRICE_CEILING).quantize(CENT, rounding=ROUND_HALF_UP)
    return low, high


def check_price(price: Decimal | str, list_price: Decimal) -> Decimal:
    """`price` as a Decimal of dollars and cents within `price_bounds`, or the refusal naming the bounds."""
    low, high = price_bounds(list_price)
    try:
        price = Decimal(str(price)[:16])
    except InvalidOperation:
        price = Decimal("NaN")
    if not price.is_finite() or price.quantize(CENT) != price or not low <= price <= high:
        raise ValidationFailed(BAD_PRICE.format(low=money(low), high=money(high), list=money(list_price)))
    return price


# ---- ZIP codes -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZipPlace:
    city: str
    state: str
    time_zone: str
    latitude: float | None = None
    longitude: float | None = None

    @property
    def area(self) -> str:
        return f"{self.city}, {self.state}"


@functools.cache
def _zip_places() -> dict[str, ZipPlace]:
    """Every US ZIP code of the `zipcodes` list → its city, state and time zone. Built once."""
    default = get_settings().default_time_zone
    return {
        row["zip_code"]: ZipPlace(
            row["city"],
            row["state"],
            row.get("timezone") or default,
            _degrees(row, "lat"),
            _degrees(row, "long"),
        )
        for row in zipcodes.list_all()
    }


def _degrees(row: dict[str, Any], key: str) -> float | None:
    try:
        return float(row.get(key) or "")
    except ValueError:
        return None


def miles_from(centre: tuple[float, float] | None, zip_code: str) -> float | None:
    """Great-circle miles from `centre` (latitude, longitude) to the ZIP code's centre, if both are known."""
    place = zip_place(zip_code)
    if centre is None or place is None or place.latitude is None or place.longitude is None:
        return None
    lat1, lon1, lat2, lon2 = map(math.radians, (*centre, place.latitude, place.longitude))
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return round(2 * EARTH_MILES * math.asin(math.sqrt(a)), 1)


def centre_of(zip_codes: list[str]) -> tuple[float, float] | None:
    """The mean latitude and longitude of these ZIP codes' centres (a provider's service area)."""
    points = [
        (p.latitude, p.longitude)
        for p in map(zip_place, zip_codes)
        if p is not None and p.latitude is not None and p.longitude is not None
    ]
    if not points:
        return None
    return sum(lat for lat, _ in points) / len(points), sum(lon for _, lon in points) / len(points)


@functools.cache
def _zip_grid() -> dict[tuple[int, int], list[str]]:
    """The ZIP codes with known centres, by the whole degrees of latitude and longitude they lie in."""
    grid: dict[tuple[int, int], list[str]] = defaultdict(list)
    for code, place in _zip_places().items():
        if place.latitude is not None and place.longitude is not None:
            grid[math.floor(place.latitude), math.floor(place.longitude)].append(code)
    return dict(grid)


@functools.lru_cache(maxsize=4096)
def _near(zip_code: str, miles: float) -> frozenset[str]:
    """The ZIP codes whose centres lie within `miles` of this one's, itself included."""
    place = zip_place(zip_code)
    if place is None or place.latitude is None or place.longitude is None:
        return frozenset({zip_code})
    # Only the grid cells the circle can touch: a degree of latitude is about 69 miles, a degree of
    # longitude that times the cosine of the latitude.
    rows = math.ceil(miles / 69) + 1
    columns = math.ceil(miles / (69 * max(math.cos(math.radians(abs(place.latitude) + 1)), 0.05))) + 1
    cell_lat, cell_lon = math.floor(place.latitude), math.floor(place.longitude)
    grid = _zip_grid()
    centre = (place.latitude, place.longitude)
    found = {zip_code}
    for dlat in range(-rows, rows + 1):
        for dlon in range(-columns, columns + 1):
            for code in grid.get((cell_lat + dlat, cell_lon + dlon), ()):
                distance = miles_from(centre, code)
                if distance is not None and distance <= miles:
                    found.add(code)
    return frozenset(found)


def reach_miles() -> float:
    """How far from their service area a provider can be asked to travel by a service request."""
    return get_settings().service_request_reach_miles


def reach_of(area: Iterable[str]) -> frozenset[str]:
    """The ZIP codes a provider with this service area can be asked to travel to by a service request: those
    within `reach_miles` of a ZIP code of the area (the area's own included), so a request from a ZIP code
    nobody lists still reaches the providers nearby."""
    miles = reach_miles()
    reach: set[str] = set()
    for zip_code in area:
        reach |= _near(zip_code, miles)
    return frozenset(reach)


def zip_place(zip_code: str) -> ZipPlace | None:
    return _zip_places().get((zip_code or "").strip())


def checked_zip(zip_code: str) -> tuple[str, ZipPlace]:
    zip_code = (zip_code or "").strip()
    if not zip_code:
        raise ValidationFailed(ENTER_ZIP)
    place = zip_place(zip_code) if len(zip_code) == 5 and zip_code.isdigit() else None
    if place is None:
        raise ValidationFailed(UNKNOWN_ZIP.format(zip=zip_code[:10]))
    return zip_code, place


# ---- time windows --------------------------------------------------------------------------------
def _parse_local(day: str, clock: str, tz: ZoneInfo) -> datetime | None:
    try:
        moment = datetime.combine(date.fromisoformat(day.strip()), time.fromisoformat(clock.strip()), tz)
    except ValueError:
        return None
    return moment.astimezone(UTC)


def parse_windows(
    windows: list[WindowInput], *, time_zone: str, minutes: int, service: str, now: datetime
) -> list[TimeWindow]:
    """The patient's windows (local times of the visit's ZIP code) as UTC: 1 to MAX_WINDOWS, each long enough
    for the service, not started yet and within the booking horizon; blank rows are skipped."""
    given = [w for w in windows if (w.day.strip() or w.start.strip() or w.end.strip())]
    if not given:
        raise ValidationFailed(NO_WINDOWS)
    if len(given) > MAX_WINDOWS:
        raise ValidationFailed(TOO_MANY_WINDOWS)
    tz = ZoneInfo(time_zone)
    horizon = get_settings().slot_horizon_days
    parsed: list[TimeWindow] = []
    for n, window in enumerate(given, start=1):
        starts = _parse_local(window.day[:10], window.start[:5], tz)
        ends = _parse_local(window.day[:10], window.end[:5], tz)
        if starts is None or ends is None:
            raise ValidationFailed(BAD_WINDOW.format(n=n))
        if ends <= starts:
            raise ValidationFailed(BACKWARDS_WINDOW.format(n=n))
        if ends - starts < timedelta(minutes=minutes):
            raise ValidationFailed(SHORT_WINDOW.format(n=n, minutes=minutes, service=service))
        if starts <= now:
            raise ValidationFailed(PAST_WINDOW.format(n=n))
        if starts > now + timedelta(days=horizon):
            raise ValidationFailed(FAR_WINDOW.format(n=n, days=horizon))
        parsed.append(TimeWindow(starts_at=starts, ends_at=ends))
    return sorted(parsed, key=lambda w: w.starts_at)


def windows_of(row: ServiceRequest) -> list[TimeWindow]:
    return [TimeWindow.model_validate(w) for w in row.windows]


def expiry_of(windows: list[TimeWindow], now: datetime) -> datetime:
    """A request closes after the configured lifetime, or when its last window ends if that is sooner."""
    lifetime = now + timedelta(hours=get_settings().service_request_lifetime_hours)
    return min(lifetime, max(w.ends_at for w in windows))


# ---- eligibility ---------------------------------------------------------------------------------
def location_bit() -> ColumnElement[int]:
    """SQL: the bit of the request's place of visit (ServiceLocation.bit)."""
    return case(*((ServiceRequest.location == place, place.bit) for place in ServiceLocation), else_=0)


def eligible_for(
    provider_id: str, provider_user_id: str | None, reach: frozenset[str], day: date, now: datetime
) -> ColumnElement[bool]:
    """SQL: the request is live and open to the provider: they offer its service at its place, its ZIP code
    is within `reach` of their service area (`reach_of`), they hold a licence of its state valid on `day`,
    and it isn't their own (their account's) request. The provider's own listing (verified, active…) is
    checked by the caller."""
    offers = exists().where(
        ProviderService.provider_id == provider_id,
        ProviderService.service_id == ServiceRequest.service_id,
        ProviderService.location_mask.op("&")(location_bit()) != 0,
    )
    conditions = [
        ServiceRequest.status.in_(LIVE_REQUEST),
        ServiceRequest.expires_at > now,
        offers,
        ServiceRequest.zip_code.in_(sorted(reach)),
        licensed_in(provider_id, ServiceRequest.state, day),
    ]
    if provider_user_id is not None:
        conditions.append(ServiceRequest.patient_id != provider_user_id)
    return and_(*conditions)
