"""Test data for every layer: people (signed in, with a live identity session), and one unit of work per call.

`person()` makes a real account through the operator's service and a real identity session for it, so the
returned `actor` passes the same re-check a browser tab's Principal does; sign it out or demote it and the
services refuse it, as they would a real tab.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import load_user_row, start_session
from app.principal import Principal
from app.services.accounts import create_account
from models.account import AccountRead, Role
from models.staff import ROLE_GRANTS, Permission, StaffMember

PASSWORD = "correct-horse-1"
T = TypeVar("T")


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
