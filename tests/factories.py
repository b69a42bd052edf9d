"""Test data for every layer: people (signed in, with a live identity session), and one unit of work per call.

`person()` makes a real account through the operator's service and a real identity session for it, so the
returned `actor` passes the same re-check a browser tab's Principal does; sign it out or demote it and the
services refuse it, as they would a real tab.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import load_user_row, start_session
from app.principal import SYSTEM, Principal
from app.services.accounts import create_account
from app.services.appointments import add_review
from app.services.catalog import ensure_reference_catalog
from app.services.providers import (
    Hours,
    ServiceOffer,
    create_provider,
    set_service_area,
    set_services,
    set_weekly_hours,
)
from models.account import AccountRead, Role
from models.catalog import ServiceLocation
from models.staff import ROLE_GRANTS, Permission, StaffMember

PASSWORD = "correct-horse-1"
NY = "America/New_York"
WEEKDAYS_NINE_TO_FIVE = tuple(Hours(day, 9 * 60, 17 * 60) for day in range(5))
T = TypeVar("T")

Offers = Mapping[str, tuple[str, tuple[ServiceLocation, ...]]] | Sequence[ServiceOffer]
"""What a provider offers: `{slug: (price, places)}` (no places: everywhere allowed), or `ServiceOffer`s."""


@dataclass(frozen=True)
class Person:
    actor: Principal
    account: AccountRead

    @property
    def id(self) -> str:
        return self.account.id

    @property
    def email(self) -> str:
        return self.account.email


def unique_email(prefix: str = "person") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@medivisit.test"


async def sign_in(user_id: str) -> Principal:
    """A new identity session for the user, as a signed-in Principal."""
    async with app_db.unit_of_work() as session:
        user = await load_user_row(session, user_id)
        assert user is not None, f"no user {user_id}"
        started = await start_session(
            session=session, user=user, method="password", origin=RequestOrigin(ip="127.0.0.1")
        )
    return Principal.user(user_id=user_id, session_id=started.session_id)


async def person(
    role: Role | str = Role.patient,
    name: str = "Test Person",
    *,
    email: str | None = None,
    extras: tuple[Permission, ...] = (),
    active: bool = True,
    staff_row: bool = True,
) -> Person:
    """A signed-in account of `role`; staff roles get a staff row (with `extras` and `active`)."""
    role = Role(role)
    async with app_db.unit_of_work() as session:
        account = await create_account(
            session=session, email=email or unique_email(role.value), password=PASSWORD, role=role, name=name
        )
        if staff_row and (role in ROLE_GRANTS or extras or not active):
            session.add(
                StaffMember(user_id=account.id, extra_permissions=[p.value for p in extras], active=active)
            )
    return Person(await sign_in(account.id), account)


async def run(fn: Callable[..., Awaitable[T]], **kwargs: Any) -> T:
    """Call a service in one unit of work, as a screen's hook does."""
    async with app_db.unit_of_work() as session:
        return await fn(session=session, **kwargs)


async def provider(
    name: str = "Nia Okafor",
    *,
    user_id: str | None = None,
    kind: str = "nurse",
    offers: Offers = (),
    zip_codes: Iterable[str] = (),
    hours: Iterable[Hours] = WEEKDAYS_NINE_TO_FIVE,
    time_zone: str = NY,
    verified: bool = True,
    active: bool = True,
    ratings: Iterable[int] = (),
) -> str:
    """A provider profile made by the operator (SYSTEM), in one unit of work: "First Last" (a one-word
    name gets the last name "Test"), of `user_id`'s account if given, offering `offers` in `zip_codes`,
    working `hours` (none: no hours set), with completed-visit reviews of `ratings`. Returns its id."""
    if isinstance(offers, Mapping):
        offers = [ServiceOffer(slug, Decimal(price), places) for slug, (price, places) in offers.items()]
    zip_codes, hours = list(zip_codes), list(hours)
    first, _, last = name.partition(" ")
    async with app_db.unit_of_work() as session:
        await ensure_reference_catalog(session=session)
        profile = await create_provider(
            session=session,
            actor=SYSTEM,
            first_name=first,
            last_name=last or "Test",
            provider_type=kind,
            user_id=user_id,
            time_zone=time_zone,
            verified=verified,
            active=active,
        )
        if offers:
            await set_services(session=session, actor=SYSTEM, provider_id=profile.id, offers=list(offers))
        if zip_codes:
            await set_service_area(session=session, actor=SYSTEM, provider_id=profile.id, zip_codes=zip_codes)
        if hours:
            await set_weekly_hours(session=session, actor=SYSTEM, provider_id=profile.id, hours=hours)
        for rating in ratings:
            await add_review(session=session, provider_id=profile.id, rating=rating, visit_completed=True)
    return profile.id
