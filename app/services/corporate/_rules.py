"""The corporate desk's words, limits and pure checks: the enquiry as typed (by field), the lead's steps,
dollars as typed, and the gate every staff command passes (manage_services)."""

from __future__ import annotations

import zipcodes
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.staff_access import require_permission
from app.services.validation import amount_cents, e164_phone
from models.account import AccountRead
from models.catalog import Service
from models.corporate import (
    MAX_COMPANY,
    MAX_CONTACT,
    MAX_DATES,
    MAX_HEADCOUNT,
    MAX_LOCATION,
    MAX_MESSAGE,
    MAX_PRICE_CENTS,
    MAX_SITES,
    EnquiryCreate,
    LeadStatus,
)
from models.staff import Permission

S = LeadStatus
# Which status may follow which: a lost lead may be reopened; a won one is final (it has its contract).
LEAD_STEPS: dict[LeadStatus, tuple[LeadStatus, ...]] = {
    S.new: (S.contacted, S.lost),
    S.contacted: (S.proposal, S.lost),
    S.proposal: (S.won, S.lost),
    S.won: (),
    S.lost: (S.new,),
}
MAX_SERVICES = 12
PAGE_SIZE = 20

COMPANY_REQUIRED = "Enter your company's name."
CONTACT_REQUIRED = "Enter your name."
EMAIL_REQUIRED = "Enter your work e-mail address, e.g. alex@company.com."
FREE_MAIL = "Please use your work e-mail address, not a personal one."
PHONE_REQUIRED = "Enter a phone number we can reach you on, e.g. (212) 555-0100."
SITES_BAD = f"Enter the number of sites as a whole number from 1 to {MAX_SITES}."
LOCATION_REQUIRED = "Enter the city or ZIP code of your site (or main site)."
HEADCOUNT_BAD = "Enter roughly how many people would take part, as a whole number."
SERVICES_REQUIRED = "Choose at least one service."
SERVICES_BAD = "Choose services from the list."
TOO_LONG = "{field} can be at most {limit} characters."
TOO_MANY = "We've received several enquiries from you already; we'll be in touch soon."
BAD_STEP = "A {now} lead can't be marked {to}."
WON_BY_CONTRACT = "A lead is marked won by creating its contract."
NO_LEAD = "No lead has this id."
NOTE_REQUIRED = "Write the note first."
NOTE_TOO_LONG = "A note can be at most {limit} characters."
NOT_ASSIGNABLE = "Leads can be assigned to staff who work corporate leads only."
BAD_PRICE = "Enter the agreed price in dollars, e.g. 950 or 1,200.50."

# Personal mailbox domains: the form asks for a work address (a corporate client's, not a patient's).
FREE_MAIL_DOMAINS = frozenset(
    {"gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "aol.com", "icloud.com", "live.com", "msn.com"}
)


async def require_corporate_staff(*, session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in staff member holding manage_services (the corporate desk); PermissionDenied else."""
    return await require_permission(session=session, actor=actor, permission=Permission.manage_services)


def clean(text: str) -> str:
    return " ".join((text or "").split())


def _count(text: str, top: int) -> int | None:
    raw = (text or "").strip().replace(",", "")
    return int(raw) if raw.isdigit() and 0 < int(raw) <= top else None


async def offered_services(*, session: AsyncSession) -> list[tuple[str, str]]:
    """(slug, name) of the catalog's active services, in catalog order: the enquiry's choices."""
    rows = await session.execute(
        select(Service.slug, Service.name).where(Service.is_active.is_(True)).order_by(Service.position)
    )
    return [(slug, name) for slug, name in rows.tuples()]


def enquiry_problems(data: EnquiryCreate, offered: set[str]) -> dict[str, str]:
    """What is wrong with an enquiry as typed, by field; `offered` are the catalog's service slugs."""
    problems: dict[str, str] = {}
    for field, label, limit, message in (
        ("company", "The company name", MAX_COMPANY, COMPANY_REQUIRED),
        ("contact_name", "Your name", MAX_CONTACT, CONTACT_REQUIRED),
        ("site_location", "The city or ZIP code", MAX_LOCATION, LOCATION_REQUIRED),
    ):
        value = clean(getattr(data, field))
        if not value:
            problems[field] = message
        elif len(value) > limit:
            problems[field] = TOO_LONG.format(field=label, limit=limit)
    email = (data.email or "").strip().lower()
    local, _, domain = email.partition("@")
    if not local or "." not in domain or len(email) > 320 or " " in email:
        problems["email"] = EMAIL_REQUIRED
    elif domain in FREE_MAIL_DOMAINS:
        problems["email"] = FREE_MAIL
    try:
        if not e164_phone(data.phone):
            problems["phone"] = PHONE_REQUIRED
    except ValidationFailed as error:
        problems["phone"] = error.message
    if _count(data.site_count, MAX_SITES) is None:
        problems["site_count"] = SITES_BAD
    if _count(data.headcount, MAX_HEADCOUNT) is None:
        problems["headcount"] = HEADCOUNT_BAD
    if not data.services:
        problems["services"] = SERVICES_REQUIRED
    elif len(data.services) > MAX_SERVICES or not set(data.services) <= offered:
        problems["services"] = SERVICES_BAD
    if len(clean(data.dates_wanted)) > MAX_DATES:
        problems["dates_wanted"] = TOO_LONG.format(field="Dates", limit=MAX_DATES)
    if len(data.message.strip()) > MAX_MESSAGE:
        problems["message"] = TOO_LONG.format(field="The message", limit=MAX_MESSAGE)
    return problems


def parse_price(text: str) -> int:
    """Dollars as typed ("950", "$1,200.50") to cents, or ValidationFailed."""
    return amount_cents(text, message=BAD_PRICE, least=0, most=MAX_PRICE_CENTS)


def zip_time_zone(zip_code: str) -> str:
    """The IANA time zone of a US ZIP code (event days are shown in the venue's local time)."""
    found = zipcodes.matching(zip_code) if len(zip_code or "") == 5 and zip_code.isdigit() else []
    return (found[0].get("timezone") if found else None) or "America/New_York"
