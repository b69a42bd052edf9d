"""Feature toggles (issue 15 item 3) in-process on SQLite and, with TEST_DATABASE_URL, PostgreSQL: an
administrator switches sign-ups to the waitlist and /auth/v1 refuses a sign-up at once, with no restart
(the process's copy follows the "features" event); the flash sale and its day; who may switch; every change
audited; resetting gives the server's setting back."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from app import db as app_db
from app import flags
from app.services.catalog import flash_sale_running
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features import list_features, reset_feature, set_feature
from app.services.features.internal import keep_toggles_fresh
from models.account import Role
from models.audit import AuditAction, AuditEntry
from tests.api.conftest import unique_email
from tests.factories import person, run


@pytest.fixture
async def keeper(monkeypatch):
    """This process's keeper of the toggles, as the server runs it; `await keeper()` waits for its next
    load (set off by the "features" event after a commit)."""
    loaded = asyncio.Event()
    original = flags.replace

    def replace(values: dict) -> None:
        original(values)
        loaded.set()

    monkeypatch.setattr(flags, "replace", replace)
    task = asyncio.create_task(keep_toggles_fresh())
    await asyncio.sleep(0)  # let it subscribe before anything is published

    async def next_load() -> None:
        await asyncio.wait_for(loaded.wait(), 10)
        loaded.clear()

    yield next_load
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    original({})


async def signup(client) -> int:  # noqa: ANN001
    answer = await client.post(
        "/auth/v1/signup", json={"email": unique_email("t"), "password": "secret-1234"}
    )
    return answer.status_code


async def test_switching_signups_to_the_waitlist_takes_effect_without_a_restart(auth_client, keeper) -> None:
    owner = await person(Role.owner, "Olive Owner")
    assert await signup(auth_client) == 200
    switched = await run(set_feature, actor=owner.actor, key="signups", value="waitlist")
    assert switched.value == "waitlist" and switched.overridden and switched.default == "open"
    await keeper()
    assert await signup(auth_client) == 422
    assert (await auth_client.get("/auth/v1/settings")).json()["disable_signup"] is True

    back = await run(reset_feature, actor=owner.actor, key="signups")
    assert back.value == "open" and not back.overridden
    await keeper()
    assert await signup(auth_client) == 200

    async with app_db.unit_of_work() as session:
        trail = (
            await session.execute(
                select(AuditEntry.target, AuditEntry.details).where(
                    AuditEntry.action == AuditAction.feature_toggle
                )
            )
        ).all()
    assert sorted(details["to"] for _target, details in trail) == ["server setting", "waitlist"]
    assert {target for target, _details in trail} == {"feature signups"}


async def test_the_flash_sale_and_its_day(auth_client, keeper) -> None:
    admin = await person(Role.admin)
    assert flash_sale_running()  # on every day by default
    await run(set_feature, actor=admin.actor, key="flash_sale", value=False)
    await keeper()
    assert not flash_sale_running()
    await run(set_feature, actor=admin.actor, key="flash_sale", value=True)
    await keeper()
    await run(set_feature, actor=admin.actor, key="flash_sale_day", value="2030-01-07")
    await keeper()
    assert not flash_sale_running(datetime(2030, 1, 8, 17, tzinfo=UTC))
    assert flash_sale_running(datetime(2030, 1, 7, 17, tzinfo=UTC))
    rows = {f.key: f for f in await run(list_features, actor=admin.actor)}
    assert rows["flash_sale_day"].value == "2030-01-07" and rows["flash_sale"].value is True
    with pytest.raises(ValidationFailed, match="YYYY-MM-DD"):
        await run(set_feature, actor=admin.actor, key="flash_sale_day", value="next tuesday")
    with pytest.raises(ValidationFailed, match="on or off"):
        await run(set_feature, actor=admin.actor, key="flash_sale", value="yes")
    with pytest.raises(ValidationFailed, match="options"):
        await run(set_feature, actor=admin.actor, key="signups", value="closed")
    with pytest.raises(NotFound):
        await run(set_feature, actor=admin.actor, key="forum", value=True)


@pytest.mark.parametrize("role", [Role.patient, Role.provider, Role.support, Role.hr, Role.management])
async def test_only_administrators_and_toggle_features_switch(auth_client, role) -> None:
    someone = await person(role)
    with pytest.raises(PermissionDenied):
        await run(list_features, actor=someone.actor)
    with pytest.raises(PermissionDenied):
        await run(set_feature, actor=someone.actor, key="signups", value="waitlist")
