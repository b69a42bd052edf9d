"""Operator account tools: accounts made by the operator, roles (who may grant what), the provider enrolment
flag and demo accounts, all written to the identity's app_metadata only."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import select

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import sign_in_with_password
from app.principal import SYSTEM, Principal
from app.services.accounts import DEMO_PASSWORD, DEMO_PEOPLE, demo_email, set_role
from app.services.accounts.internal import (
    create_account,
    create_demo_accounts,
    get_account,
    mark_enrollment_complete,
)
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.settings import get_settings
from models.account import AccountRead, Role
from models.audit import AuditAction, AuditEntry
from models.identity import User
from tests.factories import PASSWORD, person, present, unique_email


@pytest.fixture
def fast_hashing(configured, monkeypatch):
    monkeypatch.setenv("PASSWORD_HASH_MEMORY_KIB", "1024")
    monkeypatch.setenv("PASSWORD_HASH_TIME_COST", "1")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


async def signed_in(role: Role, **flags: bool) -> Principal:
    """A signed-in account of `role`, with server-side flags (e.g. is_master_admin) in its app_metadata."""
    someone = await person(role)
    if flags:
        async with app_db.unit_of_work() as session:
            user = await session.get(User, someone.id)
            user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), **flags}
    return someone.actor


async def make(role: Role = Role.patient, **kw) -> AccountRead:
    async with app_db.unit_of_work() as session:
        return await create_account(
            session=session, email=unique_email("acct"), password=PASSWORD, role=role, **kw
        )


async def user_row(user_id: str) -> User:
    async with app_db.unit_of_work() as session:
        return await session.get(User, user_id)


async def test_create_account_is_confirmed_named_and_can_sign_in(fast_hashing) -> None:
    address = unique_email("new")
    async with app_db.unit_of_work() as session:
        account = await create_account(
            session=session,
            email=f"  {address.upper()} ",
            password=PASSWORD,
            role="support",
            name="Ada Lovelace",
        )
    assert account.email == address and account.role == Role.support
    assert (account.first_name, account.last_name, account.name) == ("Ada", "Lovelace", "Ada Lovelace")

    row = await user_row(account.id)
    assert row.email_confirmed_at is not None
    password_hash = present(row.encrypted_password)
    assert password_hash.startswith("$argon2id$") and PASSWORD not in password_hash
    assert row.raw_app_meta_data["role"] == "support" and "role" not in row.raw_user_meta_data

    async with app_db.unit_of_work() as session:
        signed_in = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=address, password=PASSWORD
        )
    assert signed_in.user.app_metadata["role"] == "support"


async def test_create_account_splits_the_name_like_a_profile_update(fast_hashing) -> None:
    account = await make(name="  Mary   Ann Smith ")
    assert (account.first_name, account.last_name) == ("Mary", "Ann Smith")
    assert (await make()).name == "User"


async def test_create_account_unconfirmed_cannot_sign_in(fast_hashing) -> None:
    address = unique_email("acct")
    async with app_db.unit_of_work() as session:
        await create_account(
            session=session, email=address, password=PASSWORD, role="patient", confirmed=False
        )
    with pytest.raises(Exception, match="Email not confirmed"):
        async with app_db.unit_of_work() as session:
            await sign_in_with_password(
                session=session, origin=RequestOrigin(), email=address, password=PASSWORD
            )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"email": "not-an-email"}, "invalid format"),
        ({"password": "short"}, "at least 8 characters"),
        ({"password": "password1"}, "too easy to guess"),
        ({"role": "superuser"}, "Unknown role"),
    ],
)
async def test_create_account_validation(fast_hashing, fields, message) -> None:
    values = {"email": unique_email("acct"), "password": PASSWORD, "role": "patient", **fields}
    with pytest.raises(ValidationFailed, match=message):
        async with app_db.unit_of_work() as session:
            await create_account(session=session, **values)


async def test_create_account_refuses_a_taken_address(fast_hashing) -> None:
    account = await make()
    with pytest.raises(ValidationFailed, match="already exists"):
        async with app_db.unit_of_work() as session:
            await create_account(session=session, email=account.email, password=PASSWORD, role="owner")


async def test_set_role_from_the_command_line_and_its_audit_entry(fast_hashing) -> None:
    account = await make()
    async with app_db.unit_of_work() as session:
        changed = await set_role(session=session, actor=SYSTEM, email=account.email.upper(), role=Role.owner)
    assert changed.role == Role.owner
    row = await user_row(account.id)
    assert row.raw_app_meta_data["role"] == "owner" and row.raw_app_meta_data["provider"] == "email"
    assert "role" not in row.raw_user_meta_data
    async with app_db.unit_of_work() as session:
        entry = await session.scalar(
            select(AuditEntry).where(
                AuditEntry.action == AuditAction.role_change, AuditEntry.target == account.email
            )
        )
    assert entry.actor_id is None and entry.details == {
        "from": "patient",
        "to": "owner",
        "via": "command line",
    }


async def test_patient_and_staff_cannot_change_roles(fast_hashing) -> None:
    target = await make()
    for role in (Role.patient, Role.provider, Role.management, Role.hr, Role.support):
        with pytest.raises(PermissionDenied):
            async with app_db.unit_of_work() as session:
                await set_role(
                    session=session, actor=await signed_in(role), email=target.email, role=Role.support
                )
    assert (await get_account_of(target.id)).role == Role.patient


async def get_account_of(user_id: str) -> AccountRead:
    async with app_db.unit_of_work() as session:
        return present(await get_account(session=session, user_id=user_id))


async def test_admin_grants_ordinary_roles_only_the_owner_grants_owner_and_admin(fast_hashing) -> None:
    target = await make()
    admin = await signed_in(Role.admin)
    async with app_db.unit_of_work() as session:
        assert (
            await set_role(session=session, actor=admin, email=target.email, role="provider")
        ).role == "provider"
    for role in (Role.admin, Role.owner):
        with pytest.raises(PermissionDenied, match="Only an owner"):
            async with app_db.unit_of_work() as session:
                await set_role(session=session, actor=admin, email=target.email, role=role)

    owner = await signed_in(Role.owner)
    async with app_db.unit_of_work() as session:
        assert (
            await set_role(session=session, actor=owner, email=target.email, role="admin")
        ).role == "admin"
    # ...and an admin cannot demote an admin (or an owner).
    with pytest.raises(PermissionDenied, match="Only an owner"):
        async with app_db.unit_of_work() as session:
            await set_role(session=session, actor=admin, email=target.email, role=Role.patient)
    # A master admin (OWNER_EMAILS) counts as an owner.
    master = await signed_in(Role.patient, is_master_admin=True)
    async with app_db.unit_of_work() as session:
        assert (await set_role(session=session, actor=master, email=target.email, role="hr")).role == "hr"


async def test_nobody_changes_their_own_role_and_unknown_addresses_are_reported(fast_hashing) -> None:
    me = await person(Role.admin)
    with pytest.raises(PermissionDenied, match="your own role"):
        async with app_db.unit_of_work() as session:
            await set_role(session=session, actor=me.actor, email=me.email, role=Role.support)
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await set_role(session=session, actor=SYSTEM, email=unique_email("nobody"), role=Role.support)
    with pytest.raises(ValidationFailed, match="Unknown role"):
        async with app_db.unit_of_work() as session:
            await set_role(session=session, actor=SYSTEM, email=me.email, role="root")


async def test_mark_enrollment_complete(fast_hashing) -> None:
    account = await make(Role.provider)
    assert account.enrollment_complete is False
    async with app_db.unit_of_work() as session:
        done = await mark_enrollment_complete(session=session, user_id=account.id)
    assert done.enrollment_complete is True
    row = await user_row(account.id)
    assert row.raw_app_meta_data["enrollment_complete"] is True
    assert "enrollment_complete" not in row.raw_user_meta_data
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await mark_enrollment_complete(session=session, user_id=str(uuid.uuid4()))


async def test_demo_accounts_one_per_role_and_idempotent(fast_hashing) -> None:
    async with app_db.unit_of_work() as session:
        first = await create_demo_accounts(session=session)
    assert [a.role for a in first] == list(Role) == list(DEMO_PEOPLE)
    assert [a.email for a in first] == [demo_email(role) for role in Role]
    assert all(a.first_name and a.last_name for a in first)
    assert {a.role: a.enrollment_complete for a in first}[Role.provider] is True
    for account in first:
        assert (await user_row(account.id)).email_confirmed_at is not None

    async with app_db.unit_of_work() as session:
        again = await create_demo_accounts(session=session)
    assert [a.id for a in again] == [a.id for a in first]

    async with app_db.unit_of_work() as session:
        signed_in = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=demo_email(Role.hr), password=DEMO_PASSWORD
        )
    assert signed_in.user.app_metadata["role"] == "hr"


async def test_demo_accounts_never_in_production(fast_hashing, monkeypatch) -> None:
    monkeypatch.setenv("APP_ENV", "production")
    get_settings.cache_clear()
    with pytest.raises(PermissionDenied, match="production"):
        async with app_db.unit_of_work() as session:
            await create_demo_accounts(session=session)
