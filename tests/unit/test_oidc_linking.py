"""Signing in with verified OpenID Connect claims: link by verified e-mail, create, refuse, never grant roles."""

from __future__ import annotations

import secrets

import pytest

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.oidc import OidcError, sign_in_with_claims
from app.auth.sessions import find_user_by_email
from app.auth.users import create_email_user
from app.services.accounts import account_of
from models.account import Role
from tests.factories import present

ISSUER = "https://id.example.test"
ORIGIN = RequestOrigin(ip="127.0.0.1", user_agent="pytest", api_url="http://testserver/auth/v1")


def _claims(email: str, **extra) -> dict:
    return {"sub": secrets.token_hex(6), "email": email, "email_verified": True, **extra}


async def _sign_in(claims: dict):
    async with app_db.unit_of_work() as session:
        return await sign_in_with_claims(session=session, origin=ORIGIN, issuer=ISSUER, claims=claims)


async def test_new_person_gets_an_account_with_profile_claims_and_no_privileges(configured) -> None:
    email = f"new-{secrets.token_hex(3)}@example.com"
    signed_in = await _sign_in(
        _claims(email, given_name="Ana", family_name="Diaz", picture="https://img.test/a.png", role="owner")
    )
    assert signed_in.user.email == email and signed_in.access_token
    async with app_db.unit_of_work() as session:
        account = account_of(present(await find_user_by_email(session, email)))
    assert (account.name, account.profile_image, account.role) == (
        "Ana Diaz",
        "https://img.test/a.png",
        Role.patient,
    )


async def test_verified_email_links_to_the_existing_account_and_the_subject_is_remembered(configured) -> None:
    email = f"known-{secrets.token_hex(3)}@example.com"
    async with app_db.unit_of_work() as session:
        existing = await create_email_user(
            session, email=email, password_hash=None, data={"first_name": "Kim"}
        )
    claims = _claims(email.upper(), given_name="Other")
    first = await _sign_in(claims)
    assert first.user.id == existing.id
    # The same subject signs in again even if the provider later stops sending the e-mail.
    second = await _sign_in({"sub": claims["sub"], "email_verified": False})
    assert second.user.id == existing.id
    async with app_db.unit_of_work() as session:
        assert account_of(present(await find_user_by_email(session, email))).first_name == "Kim"


async def test_unverified_email_is_never_linked_or_created(configured) -> None:
    email = f"unverified-{secrets.token_hex(3)}@example.com"
    with pytest.raises(OidcError):
        await _sign_in(_claims(email, email_verified=False))
    async with app_db.unit_of_work() as session:
        assert await find_user_by_email(session, email) is None


async def test_waitlist_mode_refuses_new_accounts_but_signs_in_existing_ones(configured, monkeypatch) -> None:
    from app.settings import get_settings

    known = f"member-{secrets.token_hex(3)}@example.com"
    async with app_db.unit_of_work() as session:
        await create_email_user(session, email=known, password_hash=None, data={})
    monkeypatch.setenv("SIGNUPS", "waitlist")
    get_settings.cache_clear()
    try:
        with pytest.raises(OidcError, match="closed"):
            await _sign_in(_claims(f"stranger-{secrets.token_hex(3)}@example.com"))
        assert (await _sign_in(_claims(known))).user.email == known
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
