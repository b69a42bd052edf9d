"""The ads' words, prices, limits and pure rules: the price list (CPM: cents per thousand views, per placement),
how many flights a placement runs at once, what a flight as typed must be, the health-claim screening a
reviewer sees, billing hygiene (bots, truncated addresses) and who may do what."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_permission
from models.account import ADMIN_ROLES, AccountRead, Role
from models.ads import (
    MAX_BODY,
    MAX_BUDGET_CENTS,
    MAX_HEADLINE,
    MAX_NAME,
    MAX_URL,
    MIN_BUDGET_CENTS,
    FlightCreate,
    Placement,
)
from models.base import utcnow
from models.staff import Permission

P = Placement
TOPIC = "ads"  # published after a change to what may serve; every process reloads its snapshot
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
MAX_FLIGHT_DAYS = 90
MAX_DAYS_AHEAD = 365
FREQUENCY_CAP = 3  # views of one ad per visitor per FREQUENCY_WINDOW
FREQUENCY_WINDOW = 3600.0  # seconds
SAME_PAGE_SECONDS = 5.0  # one ad shows once per page view (its slots render together)
CLICK_WINDOW = 60.0  # one billable click per address per ad per minute
# One billable view of an ad per placement per network (/24, /48) per clock hour, whatever the cookies: a
# client that drops its visitor cookie on every load is a new visitor each time, but the same network.
VIEW_WINDOW = 3600
MAX_IN_REVIEW = 5  # flights one advertiser may have waiting for review (they hold places in the calendar)
# Who may buy ad space: providers, and owners and admins (house ads). Organizations do not exist yet.
ADVERTISER_ROLES = frozenset({Role.provider, *ADMIN_ROLES})


@dataclass(frozen=True)
class Price:
    placement: Placement
    label: str
    where: str
    cpm_cents: int = 0  # 0: not sold
    capacity: int = 3  # flights running at once

    @property
    def used(self) -> bool:
        return self.cpm_cents > 0


PRICES: tuple[Price, ...] = (
    Price(P.HOME_TOP, "Home page, top", "A banner under the home page's opening section and figures", 2000),
    Price(
        P.HOMEPAGE_FEATURED,
        "Home page, featured",
        "A featured spot after the home page's service lines",
        2500,
        2,
    ),
    Price(P.HOME, "Home page", "Further down the home page, after “How a visit works”", 1200),
    Price(P.SERVICES_TOP, "Services, top", "Above the list of services on /services", 1500),
    Price(P.SERVICES_MIDDLE, "Services, middle", "Halfway down /services, between the service lines", 1000),
    Price(P.SERVICES_BOTTOM, "Services, bottom", "Below the last service line on /services", 700),
    Price(P.SERVICES, "Services, general", "Beside “Don't see what you need?” at the foot of /services", 900),
    Price(P.CATEGORY_PAGE, "Service category pages", "On a category's page, e.g. /services/iv-therapy", 1200),
    Price(P.SERVICE_DETAIL_PAGE, "Service pages", "On a single service's page", 1400),
    Price(P.SEARCH_RESULTS, "Provider search results", "Above the results of Find a Provider", 1800),
    Price(P.PROVIDER_PROFILE, "Provider profiles", "At the foot of a provider's public profile", 1000),
    Price(P.MOBILE_APP_BANNER, "Mobile app banner", "Not sold: MediVisit has no mobile app."),
    Price(
        P.CHECKOUT_PAGE,
        "Checkout",
        "Not sold: the checkout shows what a person is booking, so an ad there would be aimed at their care.",
    ),
    Price(
        P.BOOKING_CONFIRMATION,
        "Booking confirmation",
        "Not sold: the confirmation shows a person's own booking, so an ad there would be aimed at their care.",
    ),
)
PRICE_OF = {price.placement.value: price for price in PRICES}
SOLD = tuple(price for price in PRICES if price.used)

# The health-claim screening (Google Ads healthcare policy, FTC actions against IV-therapy marketers): words
# a reviewer must look at twice. It flags; a person decides.
CLAIM_WORDS = (
    "cure",
    "cures",
    "cured",
    "guarantee",
    "guaranteed",
    "miracle",
    "100%",
    "risk-free",
    "no side effects",
    "clinically proven",
    "fda approved",
    "boost immunity",
    "immunity boost",
    "detox",
    "covid",
    "reverse aging",
)
DRUG_NAMES = (
    "adderall",
    "ozempic",
    "semaglutide",
    "tirzepatide",
    "mounjaro",
    "wegovy",
    "oxycodone",
    "xanax",
    "ivermectin",
    "hydroxychloroquine",
    "ketamine",
    "phentermine",
    "viagra",
    "sildenafil",
)
DISCLAIMERS = (
    "results vary",
    "results may vary",
    "not medical advice",
    "consult your doctor",
    "talk to your doctor",
)
DISCLAIMER_HINT = "Add a disclaimer such as “Results vary.” or “Not medical advice.”"

# Crawlers and tools whose views and clicks are never billed (EthicalAds' blocklist idea).
BOT_MARKERS = (
    "bot",
    "crawler",
    "spider",
    "slurp",
    "headless",
    "preview",
    "curl",
    "wget",
    "python-requests",
    "httpx",
    "scrapy",
    "facebookexternalhit",
    "lighthouse",
)

NAME_REQUIRED = "Give the flight a name you'll recognise, e.g. “Spring IV clinic”."
NAME_TOO_LONG = f"The name can be at most {MAX_NAME} characters."
NO_PLACEMENTS = "Choose at least one placement."
BAD_PLACEMENT = "{label} is not for sale."
TOO_MANY_PLACEMENTS = "Choose each placement once."
BAD_DATE = "Enter the date as YYYY-MM-DD."
PAST_START = "The flight can start today at the earliest."
FAR_START = f"The flight must start within {MAX_DAYS_AHEAD} days."
ENDS_BEFORE = "The last day must be on or after the first day."
TOO_LONG = f"A flight runs at most {MAX_FLIGHT_DAYS} days."
BAD_BUDGET = (
    f"Enter a budget in dollars from ${MIN_BUDGET_CENTS // 100:,} to ${MAX_BUDGET_CENTS // 100:,}, e.g. 250."
)
HEADLINE_REQUIRED = "Write a headline."
HEADLINE_TOO_LONG = f"The headline can be at most {MAX_HEADLINE} characters."
BODY_REQUIRED = "Write the line under the headline."
BODY_TOO_LONG = f"The line can be at most {MAX_BODY} characters."
BAD_URL = "Enter a full https:// address, e.g. https://example.com/clinic."
NO_IMAGE = "This image is no longer there; upload it again."
NOT_AN_IMAGE = "Images must be PNG, JPEG or WebP."
FULL = "{label} is fully booked for some of those days; choose other dates or placements."
SIGN_IN = "Please sign in to buy ad space."
NOT_ADVERTISER = "Ad space is bought by providers and business accounts. Apply to become a provider first."
NO_FLIGHT = "No ad flight has this number."
NOT_IN_REVIEW = "This flight is not waiting for review."
REASON_REQUIRED = "Say why, so the advertiser can put it right."
REASON_TOO_LONG = "The reason can be at most 500 characters."
BAD_CHANGE = "A flight that is {now} cannot be {to}."
FINISHED = "This flight has finished; its creative can no longer change."
TOO_MANY_WAITING = (
    f"You have {MAX_IN_REVIEW} flights waiting for review; book more once we have reviewed them."
)


def clean(text: str) -> str:
    return " ".join((text or "").split())


def today() -> date:
    """Flights run by UTC days."""
    return utcnow().date()


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat((text or "").strip()[:10])
    except ValueError:
        raise ValidationFailed(BAD_DATE) from None


def parse_budget(text: str) -> int:
    """Dollars as typed ("250", "$1,250.50") to cents, or ValidationFailed."""
    raw = (text or "").strip().replace("$", "").replace(",", "")[:16]
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ValidationFailed(BAD_BUDGET) from None
    if not value.is_finite() or value != value.quantize(Decimal("0.01")):
        raise ValidationFailed(BAD_BUDGET)
    cents = int((value * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    if not MIN_BUDGET_CENTS <= cents <= MAX_BUDGET_CENTS:
        raise ValidationFailed(BAD_BUDGET)
    return cents


def check_url(text: str) -> str:
    """An https address with a real host name and no credentials, or ValidationFailed."""
    url = (text or "").strip()
    if not url or len(url) > MAX_URL or any(ch.isspace() for ch in url):
        raise ValidationFailed(BAD_URL)
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        _port = parts.port
    except ValueError:
        raise ValidationFailed(BAD_URL) from None
    if parts.scheme != "https" or "@" in parts.netloc or "." not in host or host.endswith("."):
        raise ValidationFailed(BAD_URL)
    if not re.fullmatch(r"[a-z0-9.-]+", host):
        raise ValidationFailed(BAD_URL)
    return url


def creative_problems(headline: str, body: str, link_url: str) -> dict[str, str]:
    problems: dict[str, str] = {}
    headline, body = clean(headline), clean(body)
    if not headline:
        problems["headline"] = HEADLINE_REQUIRED
    elif len(headline) > MAX_HEADLINE:
        problems["headline"] = HEADLINE_TOO_LONG
    if not body:
        problems["body"] = BODY_REQUIRED
    elif len(body) > MAX_BODY:
        problems["body"] = BODY_TOO_LONG
    try:
        check_url(link_url)
    except ValidationFailed as error:
        problems["link_url"] = error.message
    return problems


def flight_problems(data: FlightCreate, *, now: date | None = None) -> dict[str, str]:
    """What is wrong with a flight as typed, by field (name, placements, starts_on, ends_on, budget, headline,
    body, link_url). Availability is the service's to check (it needs the database)."""
    now = now or today()
    problems: dict[str, str] = {}
    name = clean(data.name)
    if not name:
        problems["name"] = NAME_REQUIRED
    elif len(name) > MAX_NAME:
        problems["name"] = NAME_TOO_LONG
    chosen = data.placements
    if not chosen:
        problems["placements"] = NO_PLACEMENTS
    elif len(chosen) > len(PRICES):
        problems["placements"] = TOO_MANY_PLACEMENTS
    for code in chosen[: len(PRICES)]:
        price = PRICE_OF.get(code)
        if price is None or not price.used:
            problems["placements"] = BAD_PLACEMENT.format(label=price.label if price else str(code)[:40])
    try:
        starts = parse_day(data.starts_on)
        if starts < now:
            problems["starts_on"] = PAST_START
        elif starts > now + timedelta(days=MAX_DAYS_AHEAD):
            problems["starts_on"] = FAR_START
    except ValidationFailed as error:
        problems["starts_on"] = error.message
        starts = None
    try:
        ends = parse_day(data.ends_on)
        if starts is not None and ends < starts:
            problems["ends_on"] = ENDS_BEFORE
        elif starts is not None and (ends - starts).days + 1 > MAX_FLIGHT_DAYS:
            problems["ends_on"] = TOO_LONG
    except ValidationFailed as error:
        problems["ends_on"] = error.message
    try:
        parse_budget(data.budget)
    except ValidationFailed as error:
        problems["budget"] = error.message
    creative = data.creative
    problems.update(creative_problems(creative.headline, creative.body, creative.link_url))
    return problems


def _has(text: str, word: str) -> bool:
    return re.search(r"(?<![a-z0-9])" + re.escape(word) + r"(?![a-z0-9])", text) is not None


def screen_claims(headline: str, body: str) -> list[str]:
    """The health-claim screening's findings on a creative, in words a reviewer reads (none: nothing found)."""
    text = f"{headline} {body}".lower()
    found = [f"Health claim: “{word}”" for word in CLAIM_WORDS if _has(text, word)]
    found += [f"Drug name: “{word}”" for word in DRUG_NAMES if _has(text, word)]
    if not any(phrase in text for phrase in DISCLAIMERS):
        found.append("No disclaimer (e.g. “Results vary.”)")
    return found


def is_bot(user_agent: str) -> bool:
    agent = (user_agent or "").lower()
    return not agent or any(marker in agent for marker in BOT_MARKERS)


def truncate_ip(address: str) -> str:
    """The client address cut to its network before it is used as a key or stored: /24 for IPv4, /48 for IPv6."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return ""
    if ip.version == 4:
        return str(ipaddress.ip_network(f"{ip}/24", strict=False).network_address)
    mapped = ip.ipv4_mapped
    if mapped is not None:
        return truncate_ip(str(mapped))
    return str(ipaddress.ip_network(f"{ip}/48", strict=False).network_address)


async def require_advertiser(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in account, if it may buy ad space (a provider, an owner or an admin)."""
    if not actor.is_user:
        raise PermissionDenied(SIGN_IN)
    account = await require_account(session=session, actor=actor)
    if account.role not in ADVERTISER_ROLES and not account.is_master_admin:
        raise PermissionDenied(NOT_ADVERTISER)
    return account


async def require_ads_staff(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member holding manage_ads (SPEC §6); PermissionDenied for anyone else."""
    return await require_permission(session=session, actor=actor, permission=Permission.manage_ads)
