"""A person's name is cleaned and bounded by one rule wherever it is set (issue 27, inputs 3;
app.auth.common.clean_person_name): the identity API took control characters, bidi overrides, zero-width
spaces and 3,000-character names in `data.name`, `full_name`, `first_name`, `last_name`. Now NFKC, no
control or invisible format characters (ZWNJ and ZWJ kept: Persian and emoji need them), whitespace
collapsed, at most 100 characters (400 validation_failed past it)."""

from __future__ import annotations

import pytest

from app import db as app_db
from app.auth.common import MAX_PERSON_NAME, NAME_TOO_LONG, clean_person_name
from app.services.accounts.internal import create_account, get_account
from models.account import Role
from tests.api.conftest import unique_email
from tests.api.test_browser_auth import flash, post_form
from tests.factories import present

PASSWORD = "harbor-violet-kettle"
DIRTY = "  Ada\u0007\u0008 \u202eLove\u200blace\ufeff\t\n ｊｒ \u2028"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (DIRTY, "Ada Lovelace jr"),
        ("نیما\u200cجان", "نیما\u200cجان"),  # ZWNJ is part of Persian spelling
        ("👩\u200d⚕️ Doc", "👩\u200d⚕️ Doc"),
        ("\u200b\u200d\u202e", ""),
        ("José\u0301 \ue000Ng", "José\u0301 Ng"),  # a private-use character dropped
        (None, ""),
        (42, ""),
    ],
)
def test_the_shared_name_rule(raw, clean) -> None:
    assert clean_person_name(raw) == clean


async def test_sign_up_cleans_every_name_field(auth_client) -> None:
    data = {
        "name": DIRTY,
        "full_name": DIRTY,
        "first_name": "Ada\u0000"[:3] + "\u0085",
        "last_name": "\u202eX",
        "plan": "a\u0007b",
    }
    answer = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("names"), "password": PASSWORD, "data": data}
    )
    assert answer.status_code == 200, answer.text
    meta = answer.json()["user"]["user_metadata"]
    assert (meta["name"], meta["full_name"], meta["first_name"], meta["last_name"]) == (
        "Ada Lovelace jr",
        "Ada Lovelace jr",
        "Ada",
        "X",
    )
    assert meta["plan"] == "a\u0007b"  # not a name: left to the metadata's own limits


@pytest.mark.parametrize("key", ["name", "full_name", "first_name", "last_name"])
async def test_an_overlong_name_is_refused_on_sign_up_and_on_put_user(auth_client, key) -> None:
    long = "N" * 3000
    refused = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("long"), "password": PASSWORD, "data": {key: long}}
    )
    assert refused.status_code == 400 and refused.json()["error_code"] == "validation_failed", refused.text
    assert NAME_TOO_LONG in refused.json()["msg"]
    session = (
        await auth_client.post("/auth/v1/signup", json={"email": unique_email("short"), "password": PASSWORD})
    ).json()
    headers = {"Authorization": f"Bearer {session['access_token']}"}
    too_long = await auth_client.put(
        "/auth/v1/user", headers=headers, json={"data": {key: "N" * (MAX_PERSON_NAME + 1)}}
    )
    assert too_long.status_code == 400 and too_long.json()["error_code"] == "validation_failed"
    cleaned = await auth_client.put("/auth/v1/user", headers=headers, json={"data": {key: DIRTY}})
    assert cleaned.status_code == 200 and cleaned.json()["user_metadata"][key] == "Ada Lovelace jr"
    at_limit = await auth_client.put(
        "/auth/v1/user", headers=headers, json={"data": {key: "N" * MAX_PERSON_NAME}}
    )
    assert at_limit.status_code == 200


async def test_the_register_form_and_the_cli_use_the_same_rule(auth_client) -> None:
    await post_form(
        auth_client, "/auth/register", name="N" * 150, email=unique_email("form"), password=PASSWORD
    )
    note = flash(auth_client)
    assert note.code == "validation_failed" and note.detail["message"] == NAME_TOO_LONG
    async with app_db.unit_of_work() as session:
        made = await create_account(
            session=session, email=unique_email("cli"), password=PASSWORD, role=Role.patient, name=DIRTY
        )
    async with app_db.unit_of_work() as session:
        found = present(await get_account(session=session, user_id=made.id))
    assert (found.first_name, found.last_name) == ("Ada", "Lovelace jr")
