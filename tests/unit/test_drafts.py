"""Form drafts in the database (hardening issue, finding 12): kept per signed-in user or visitor and form,
never read by anyone else, expired after DRAFT_LIFETIME_DAYS, capped in size and number, refused to a
signed-out session."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.auth.sessions import authenticate, sign_out
from app.principal import SYSTEM, Principal
from app.services.drafts import discard_draft, load_draft, save_draft
from app.services.drafts._drafts import MAX_DRAFTS_PER_OWNER, MAX_TEXT
from app.services.errors import PermissionDenied
from models.account import Role
from models.base import utcnow
from models.draft import FormDraft
from tests.factories import person, present, run, sign_in

KEY = "support:new-request"


async def test_a_draft_comes_back_to_its_owner_only(identity) -> None:
    jordan, sam = await person(Role.patient), await person(Role.support)
    values = {"subject": "Refund", "description": "I was charged twice for my visit.", "urgent": True}
    await run(save_draft, actor=jordan.actor, form_key=KEY, values=values)
    assert await run(load_draft, actor=jordan.actor, form_key=KEY) == values
    # The same user on another device (a new session) has it; nobody else does, not even for the same form.
    assert await run(load_draft, actor=await sign_in(jordan.id), form_key=KEY) == values
    assert await run(load_draft, actor=sam.actor, form_key=KEY) is None
    assert await run(load_draft, actor=Principal.visitor("v-123"), form_key=KEY) is None
    assert await run(load_draft, actor=SYSTEM, form_key=KEY) is None
    # A visitor's drafts are their cookie's.
    await run(save_draft, actor=Principal.visitor("v-123"), form_key=KEY, values={"subject": "Mine"})
    assert await run(load_draft, actor=Principal.visitor("v-123"), form_key=KEY) == {"subject": "Mine"}
    assert await run(load_draft, actor=Principal.visitor("v-456"), form_key=KEY) is None
    assert await run(load_draft, actor=Principal.visitor(""), form_key=KEY) is None
    assert await run(load_draft, actor=jordan.actor, form_key=KEY) == values  # untouched by the visitor's

    await run(save_draft, actor=jordan.actor, form_key=KEY, values={"subject": "Refund, again"})
    assert await run(load_draft, actor=jordan.actor, form_key=KEY) == {"subject": "Refund, again"}
    await run(discard_draft, actor=jordan.actor, form_key=KEY)
    assert await run(load_draft, actor=jordan.actor, form_key=KEY) is None
    assert await run(load_draft, actor=Principal.visitor("v-123"), form_key=KEY) == {"subject": "Mine"}


async def test_a_signed_out_session_neither_reads_nor_writes_drafts(identity) -> None:
    jordan = await person(Role.patient)
    await run(save_draft, actor=jordan.actor, form_key=KEY, values={"subject": "Private"})
    async with app_db.unit_of_work() as session:
        who = await authenticate(session=session, authorization=f"Bearer {jordan.access_token}")
        await sign_out(session=session, actor=who, scope="local")
    with pytest.raises(PermissionDenied):
        await run(load_draft, actor=jordan.actor, form_key=KEY)
    with pytest.raises(PermissionDenied):
        await run(save_draft, actor=jordan.actor, form_key=KEY, values={"subject": "x"})


async def test_drafts_expire_and_are_swept(identity) -> None:
    jordan = await person(Role.patient)
    long_ago = utcnow() - timedelta(days=8)
    await run(save_draft, actor=jordan.actor, form_key="old", values={"a": "1"}, now=long_ago)
    assert await run(load_draft, actor=jordan.actor, form_key="old") is None
    await run(save_draft, actor=jordan.actor, form_key="new", values={"a": "2"})
    async with app_db.unit_of_work() as session:
        keys = list(await session.scalars(select(FormDraft.form_key)))
    assert keys == ["new"]


async def test_drafts_are_capped_in_size_and_number(identity) -> None:
    visitor = Principal.visitor("capped")
    huge = {f"field{n}": "x" * (MAX_TEXT + 10) for n in range(30)} | {"n" * 100: "long name", "obj": {"a": 1}}
    await run(save_draft, actor=visitor, form_key=KEY, values=huge)
    kept = present(await run(load_draft, actor=visitor, form_key=KEY))
    assert len(kept) == 20 and all(isinstance(v, str) and len(v) == MAX_TEXT for v in kept.values())
    for n in range(MAX_DRAFTS_PER_OWNER + 5):
        await run(
            save_draft,
            actor=visitor,
            form_key=f"form-{n}",
            values={"a": str(n)},
            now=utcnow() + timedelta(seconds=n),
        )
    async with app_db.unit_of_work() as session:
        count = await session.scalar(select(func.count()).select_from(FormDraft))
    assert count == MAX_DRAFTS_PER_OWNER
    assert await run(load_draft, actor=visitor, form_key=f"form-{MAX_DRAFTS_PER_OWNER + 4}") == {"a": "54"}
