"""Profile update (SPEC §5) through `app.services.profile.update_profile`, on SQLite and (with
TEST_DATABASE_URL) PostgreSQL: refused without a signed-in user or once the session ended, the name split on
the first space, empty image/organization/phone keeping their values, only user_metadata written, a blank name
and an invalid phone number refused with a message, phone numbers stored in E.164."""

from __future__ import annotations

import uuid

import pytest

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import authenticate, sign_in_with_password, sign_out
from app.principal import Principal
from app.services.accounts import update_profile
from app.services.accounts.internal import create_account, get_account
from app.services.errors import ValidationFailed
from models.account import AccountRead, Role
from models.identity import User

PASSWORD = "correct-horse-1"


async def signed_in(name: str = "Pat Lee") -> tuple[Principal, str]:
    """A new account, signed in: its Principal reference and access token."""
    email = f"profile-{uuid.uuid4().hex[:10]}@medivisit.test"
    async with app_db.unit_of_work() as session:
        await create_account(session=session, email=email, password=PASSWORD, role=Role.patient, name=name)
    async with app_db.unit_of_work() as session:
        result = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=email, password=PASSWORD
        )
    return Principal.user(user_id=result.user.id, session_id=result.session_id), result.access_token


async def update(
    actor: Principal, name: str, image: str = "", organization: str = "", phone: str = ""
) -> bool:
    async with app_db.unit_of_work() as session:
        return await update_profile(
            session=session,
            actor=actor,
            name=name,
            profile_image=image,
            organization=organization,
            phone_number=phone,
        )


async def account(actor: Principal) -> AccountRead:
    async with app_db.unit_of_work() as session:
        found = await get_account(session=session, user_id=actor.user_id)
    assert found is not None
    return found


async def test_refused_without_a_signed_in_user(identity) -> None:
    assert await update(Principal.visitor("visitor-1"), "Pat Lee") is False


async def test_refused_for_an_unknown_or_ended_session(identity) -> None:
    actor, access = await signed_in("Pat Lee")
    assert (
        await update(Principal.user(user_id=actor.user_id, session_id=str(uuid.uuid4())), "Eve Mallory")
        is False
    )
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {access}")
        await sign_out(session=session, actor=who, scope="local")
    assert await update(actor, "Eve Mallory") is False
    assert (await account(actor)).name == "Pat Lee"


@pytest.mark.parametrize(
    ("name", "first", "last", "shown"),
    [
        ("Mary Ann Smith", "Mary", "Ann Smith", "Mary Ann Smith"),
        ("  Jo   Bloggs ", "Jo", "Bloggs", "Jo Bloggs"),
        ("Prince", "Prince", "", "Prince"),
    ],
)
async def test_the_name_is_split_on_the_first_space(identity, name, first, last, shown) -> None:
    actor, _ = await signed_in("Pat Lee")
    assert await update(actor, name) is True
    found = await account(actor)
    assert (found.first_name, found.last_name, found.name) == (first, last, shown)


async def test_empty_image_and_organization_keep_their_values_an_empty_phone_clears(identity) -> None:
    actor, _ = await signed_in()
    assert (
        await update(actor, "Pat Lee", "https://img.example/pat.png", "Acme Clinic", "+1 212 555 0100")
        is True
    )
    assert await update(actor, "Pat Q Lee", "", "  ", "+1 212 555 0100") is True
    found = await account(actor)
    assert (found.profile_image, found.organization, found.phone_number) == (
        "https://img.example/pat.png",
        "Acme Clinic",
        "+12125550100",
    )
    assert (found.first_name, found.last_name) == ("Pat", "Q Lee")
    assert (
        await update(actor, "Pat Lee", "https://img.example/new.png", "Beta Care", "(646) 555-0199") is True
    )
    found = await account(actor)
    assert (found.profile_image, found.organization, found.phone_number) == (
        "https://img.example/new.png",
        "Beta Care",
        "+16465550199",
    )


async def test_only_user_metadata_is_written(identity) -> None:
    actor, _ = await signed_in()
    async with app_db.unit_of_work() as session:
        before = dict((await session.get(User, actor.user_id)).raw_app_meta_data)
    assert await update(actor, "Owner Person", organization="role=owner") is True
    async with app_db.unit_of_work() as session:
        user = await session.get(User, actor.user_id)
        assert user.raw_app_meta_data == before
        assert user.raw_user_meta_data["organization"] == "role=owner"
    assert (await account(actor)).role == Role.patient


@pytest.mark.parametrize(
    "image", ["javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "/relative.png", "x" * 3000]
)
async def test_an_unacceptable_value_is_refused(identity, image) -> None:
    actor, _ = await signed_in()
    assert await update(actor, "Pat Lee", image) is False
    assert (await account(actor)).profile_image == ""


async def test_an_overlong_name_is_refused(identity) -> None:
    actor, _ = await signed_in()
    with pytest.raises(ValidationFailed, match="at most 100 characters"):
        await update(actor, "P" * 101)
    assert (await account(actor)).name == "Pat Lee"


async def test_a_phone_number_can_be_removed(identity) -> None:
    """Issue 27, inputs 4: an emptied phone field used to keep the stored number for ever."""
    actor, _ = await signed_in()
    assert await update(actor, "Pat Lee", phone="+1 212 555 0100") is True
    assert (await account(actor)).phone_number == "+12125550100"
    assert await update(actor, "Pat Lee", phone="  ") is True
    assert (await account(actor)).phone_number == ""
    async with app_db.unit_of_work() as session:
        assert "phone_number" not in (await session.get(User, actor.user_id)).raw_user_meta_data


async def test_a_name_is_cleaned_of_control_and_invisible_characters(identity) -> None:
    actor, _ = await signed_in()
    assert await update(actor, "  Ada\u0007 \u202eLove\u200blace\t ｊｒ ") is True
    found = await account(actor)
    assert (found.first_name, found.last_name) == ("Ada", "Lovelace jr")


# ---- issue 11, flow 7: a blank name and an invalid phone number are refused with a clear message --------
@pytest.mark.parametrize("name", ["", "   ", "\t\n", "\u3000", "\u200b\u202e"])
async def test_a_blank_name_is_refused_with_a_clear_message(identity, name) -> None:
    actor, _ = await signed_in("Pat Lee")
    with pytest.raises(ValidationFailed, match="Please enter your name."):
        await update(actor, name)
    assert (await account(actor)).name == "Pat Lee"


@pytest.mark.parametrize("phone", ["12345", "+1 555 0100", "call me", "+999 123", "1" * 80])
async def test_an_invalid_phone_number_is_refused_with_a_clear_message(identity, phone) -> None:
    actor, _ = await signed_in()
    with pytest.raises(ValidationFailed, match="Please enter a valid phone number"):
        await update(actor, "Pat Lee", phone=phone)
    assert (await account(actor)).phone_number == ""


@pytest.mark.parametrize(
    ("phone", "stored"),
    [
        ("(212) 555-0100", "+12125550100"),
        ("212.555.0100", "+12125550100"),
        ("+1 212 555 0100", "+12125550100"),
        ("\uff12\uff11\uff12 \uff15\uff15\uff15 \uff10\uff11\uff10\uff10", "+12125550100"),  # full-width
        ("+44 20 7946 0958", "+442079460958"),
    ],
)
async def test_a_valid_phone_number_is_stored_in_e164(identity, phone, stored) -> None:
    actor, _ = await signed_in()
    assert await update(actor, "Pat Lee", phone=phone) is True
    assert (await account(actor)).phone_number == stored
