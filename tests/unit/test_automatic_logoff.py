"""Automatic logoff, enforced by the server (issue 10, finding 4): a session idle past its person's limit
(15 minutes for staff roles, 60 for everybody else) or older than its absolute lifetime can no longer
refresh, call the identity API or run a single service command from an open tab.

Time is moved by writing the session's `active_at` / `created_at` into the past, as if the person had
walked away that long ago.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.errors import AuthApiError
from app.auth.sessions import authenticate, refresh, sign_in_with_password
from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.signed_in import require_account
from models.account import Role
from models.identity import AuthSession
from tests.factories import PASSWORD, person


async def _signed_in(role: Role):  # noqa: ANN202 - (Principal, AuthSessionRead)
    someone = await person(role, "Ida Idle")
    async with app_db.unit_of_work() as session:
        signed = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=someone.account.email, password=PASSWORD
        )
    return Principal.user(user_id=signed.user.id, session_id=signed.session_id), signed


async def _idle_for(session_id: str, **ago: float) -> None:
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(AuthSession)
            .where(AuthSession.id == session_id)
            .values(active_at=datetime.now(UTC) - timedelta(**ago))
        )


async def _refused_everywhere(actor, signed) -> None:  # noqa: ANN001
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await require_account(session=session, actor=actor)
    with pytest.raises(AuthApiError) as api:
        async with app_db.unit_of_work() as session:
            await authenticate(session=session, authorization=f"Bearer {signed.access_token}")
    assert api.value.code == "session_expired"
    with pytest.raises(AuthApiError) as renewal:
        async with app_db.unit_of_work() as session:
            await refresh(session=session, origin=RequestOrigin(), refresh_token=signed.refresh_token)
    assert renewal.value.code == "session_expired"


@pytest.mark.parametrize(
    ("role", "still_on", "ended"),
    [(Role.support, 13, 17), (Role.owner, 13, 17), (Role.patient, 55, 62), (Role.provider, 55, 62)],
)
async def test_an_idle_session_ends_after_its_roles_limit(configured, role, still_on, ended) -> None:
    actor, signed = await _signed_in(role)
    await _idle_for(signed.session_id, minutes=still_on)
    async with app_db.unit_of_work() as session:
        assert (await require_account(session=session, actor=actor)).id == actor.user_id
    await _idle_for(signed.session_id, minutes=ended)
    await _refused_everywhere(actor, signed)


async def test_a_busy_session_still_ends_after_its_absolute_lifetime(configured) -> None:
    actor, signed = await _signed_in(Role.patient)
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(AuthSession)
            .where(AuthSession.id == signed.session_id)
            .values(
                created_at=datetime.now(UTC) - timedelta(hours=12, minutes=1), active_at=datetime.now(UTC)
            )
        )
    await _refused_everywhere(actor, signed)
