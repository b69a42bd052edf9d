"""Who a browser connection is signed in as (`app.services.signed_in`): the access token checked by the
identity service, its session still there, and a pending second factor not yet a sign-in."""

from __future__ import annotations

import uuid

import pyotp
import pytest

from app import db as app_db
from app.auth import mfa
from app.auth.common import RequestOrigin
from app.auth.sessions import authenticate, sign_in_with_password, sign_out
from app.services.accounts import (
    get_two_factor,
    identity_of,
    require_identity,
    resolve_viewer,
    start_totp_setup,
)
from app.services.accounts.internal import create_account
from app.services.errors import PermissionDenied
from models.account import Role

PASSWORD = "correct-horse-1"

ORIGIN = RequestOrigin(ip="127.0.0.1")


async def sign_in(email: str):  # noqa: ANN201 - AuthSessionRead
    async with app_db.unit_of_work() as session:
        return await sign_in_with_password(session=session, origin=ORIGIN, email=email, password=PASSWORD)


async def new_account() -> str:
    email = f"viewer-{uuid.uuid4().hex[:10]}@medivisit.test"
    async with app_db.unit_of_work() as session:
        await create_account(
            session=session, email=email, password=PASSWORD, role=Role.provider, name="Priya Shah"
        )
    return email


async def viewer(token: str):  # noqa: ANN201
    async with app_db.unit_of_work() as session:
        return await resolve_viewer(session=session, access_token=token)


async def test_a_valid_token_resolves_to_the_account_and_its_session(identity) -> None:
    result = await sign_in(await new_account())
    found = await viewer(result.access_token)
    assert found is not None and found.account.name == "Priya Shah" and found.account.role == Role.provider
    assert (found.actor.user_id, found.actor.session_id) == (result.user.id, result.session_id)


@pytest.mark.parametrize("token", ["", "garbage", "a.b.c"])
async def test_a_bad_token_is_nobody(identity, token) -> None:
    assert await viewer(token) is None


async def test_a_signed_out_session_is_nobody_and_its_actions_stop(identity) -> None:
    result = await sign_in(await new_account())
    found = await viewer(result.access_token)
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {result.access_token}")
        await sign_out(session=session, actor=who, scope="local")
    assert await viewer(result.access_token) is None
    async with app_db.unit_of_work() as session:
        assert await identity_of(session=session, actor=found.actor) is None
        with pytest.raises(PermissionDenied):
            await require_identity(session=session, actor=found.actor)


async def test_a_user_with_totp_is_signed_in_only_after_the_code(identity) -> None:
    email = await new_account()
    first = await sign_in(email)
    actor = (await viewer(first.access_token)).actor
    async with app_db.unit_of_work() as session:
        setup = await start_totp_setup(session=session, actor=actor)
        assert setup.qr_code.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and len(setup.secret) == 32
        assert not (await get_two_factor(session=session, actor=actor)).enabled
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {first.access_token}")
        challenge = await mfa.challenge(session=session, actor=who, origin=ORIGIN, factor_id=setup.factor_id)
        await mfa.verify(
            session=session,
            actor=who,
            origin=ORIGIN,
            factor_id=setup.factor_id,
            challenge_id=challenge.id,
            code=pyotp.TOTP(setup.secret).now(),
        )
    async with app_db.unit_of_work() as session:
        assert (await get_two_factor(session=session, actor=actor)).enabled
    second = await sign_in(email)  # the password alone: aal1
    assert await viewer(second.access_token) is None
    assert await viewer(first.access_token) is not None  # the session that gave the code is aal2


async def test_starting_setup_again_replaces_the_abandoned_attempt(identity) -> None:
    result = await sign_in(await new_account())
    actor = (await viewer(result.access_token)).actor
    async with app_db.unit_of_work() as session:
        first = await start_totp_setup(session=session, actor=actor)
    async with app_db.unit_of_work() as session:
        second = await start_totp_setup(session=session, actor=actor)
        identity_now = await require_identity(session=session, actor=actor)
    assert first.factor_id != second.factor_id
    assert [f.id for f in identity_now.user.factors] == [second.factor_id]
