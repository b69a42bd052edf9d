"""The audit log: entries, the owner-only reader with its filters and paging, secrets kept out of details,
and the database refusing UPDATE and DELETE of entries (SQLite and PostgreSQL triggers)."""

from __future__ import annotations

import contextlib
import uuid
from datetime import UTC, datetime, timedelta
from unittest.mock import patch

import pytest
from sqlalchemy import delete, text, update
from sqlalchemy.exc import DBAPIError

from app import db as app_db
from app.audit import record, scrub
from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.staff import read_audit_log
from app.services.staff._audit import list_audit
from models.account import AccountRead, Role
from models.audit import AuditAction, AuditEntry
from tests.factories import person, run

OWNER = AccountRead(id=str(uuid.uuid4()), email="owner@medivisit.test", role=Role.owner)


AT = datetime(2030, 1, 7, 15, 0, tzinfo=UTC)  # entries given explicit, increasing times are read in order


async def add(
    action: AuditAction | str = AuditAction.sign_in, created_at: datetime | None = None, **kw
) -> str:
    """Record an entry; with `created_at`, at that moment (the audit clock pinned) rather than now."""
    values = {
        "actor_id": str(uuid.uuid4()),
        "actor_email": f"a-{uuid.uuid4().hex[:8]}@medivisit.test",
        "target": "t@medivisit.test",
        "ip": "203.0.113.9",
        "user_agent": "pytest",
        **kw,
    }
    clock = patch("app.audit.utcnow", return_value=created_at) if created_at else contextlib.nullcontext()
    with clock:
        async with app_db.unit_of_work() as session:
            entry = await record(session=session, action=action, **values)
    return entry.id


async def test_record_and_read_back_newest_first(configured) -> None:
    marker = f"marker-{uuid.uuid4().hex[:8]}@medivisit.test"
    first = await add(actor_email=marker, details={"method": "password"}, created_at=AT)
    second = await add(
        AuditAction.sign_out,
        actor_email=marker,
        details={"scope": "local"},
        created_at=AT + timedelta(seconds=1),
    )
    async with app_db.unit_of_work() as session:
        entries = await list_audit(session=session, reader=OWNER, actor_query=marker.upper())
    assert [e.id for e in entries] == [second, first]
    newest = entries[0]
    assert (newest.action, newest.ip, newest.user_agent, newest.details) == (
        "sign_out",
        "203.0.113.9",
        "pytest",
        {"scope": "local"},
    )
    assert newest.created_at.tzinfo is not None


async def test_filters_and_paging(configured) -> None:
    actor_id = str(uuid.uuid4())
    ids = []
    for second in range(3):
        ids.append(
            await add(
                AuditAction.mfa_enroll,
                actor_id=actor_id,
                actor_email="pager@medivisit.test",
                created_at=AT + timedelta(seconds=second),
            )
        )
    await add(
        AuditAction.sign_in,
        actor_id=actor_id,
        actor_email="pager@medivisit.test",
        created_at=AT + timedelta(seconds=3),
    )
    async with app_db.unit_of_work() as session:
        by_action = await list_audit(session=session, reader=OWNER, action="mfa_enroll", actor_query=actor_id)
        page = await list_audit(
            session=session, reader=OWNER, action=AuditAction.mfa_enroll, actor_query=actor_id, limit=2
        )
        rest = await list_audit(
            session=session,
            reader=OWNER,
            action="mfa_enroll",
            actor_query=actor_id,
            before=page[-1].created_at,
        )
        capped = await list_audit(session=session, reader=OWNER, limit=10_000)
    assert [e.id for e in by_action] == ids[::-1]
    assert [e.id for e in page + rest] == ids[::-1]
    assert len(capped) <= 100


async def test_actor_query_treats_wildcards_literally(configured) -> None:
    await add(actor_email="percent-user@medivisit.test")
    async with app_db.unit_of_work() as session:
        assert await list_audit(session=session, reader=OWNER, actor_query="percent%user") == []
        assert await list_audit(session=session, reader=OWNER, actor_query="percent_user") == []
        assert await list_audit(session=session, reader=OWNER, actor_query="percent-user")


@pytest.mark.parametrize(
    "reader",
    [
        AccountRead(id="a", email="admin@medivisit.test", role=Role.admin),
        AccountRead(id="p", email="patient@medivisit.test", role=Role.patient),
        AccountRead(id="s", email="support@medivisit.test", role=Role.support),
    ],
)
async def test_only_an_owner_reads_the_log(configured, reader) -> None:
    with pytest.raises(PermissionDenied):
        async with app_db.unit_of_work() as session:
            await list_audit(session=session, reader=reader)


async def test_the_staff_audit_page_refuses_a_visitor_and_an_ended_session(configured) -> None:
    """Signed out (the reader=None case of the old API): the staff page re-checks the Principal first."""
    owner = await person(Role.owner)
    ended = Principal.user(user_id=owner.id, session_id=str(uuid.uuid4()))
    for who in (Principal.visitor("visitor-1"), ended):
        with pytest.raises(PermissionDenied):
            await run(read_audit_log, actor=who, time_zone="America/New_York")
    assert isinstance(
        (await run(read_audit_log, actor=owner.actor, time_zone="America/New_York")).entries, list
    )


async def test_a_master_admin_reads_the_log(configured) -> None:
    master = AccountRead(id="m", email="boss@medivisit.test", role=Role.patient, is_master_admin=True)
    async with app_db.unit_of_work() as session:
        assert isinstance(await list_audit(session=session, reader=master, limit=1), list)


def test_details_never_keep_secrets() -> None:
    details = {
        "method": "password",
        "password": "hunter2",
        "new_password": "hunter3",
        "access_token": "eyJ...",
        "refresh_token": "abc",
        "code": "123456",
        "totp_secret": "JBSWY3DP",
        "nonce": "n",
        "link": "https://x/verify?token=1",
        "nested": {"token_hash": "h", "scope": "global"},
        "long": "x" * 2000,
    }
    assert scrub(details) == {
        "method": "password",
        "nested": {"scope": "global"},
        "long": "x" * 500,
    }


async def test_record_scrubs_details(configured) -> None:
    entry_id = await add(details={"password": "hunter2", "reason": "invalid_credentials"})
    async with app_db.unit_of_work() as session:
        row = await session.get(AuditEntry, entry_id)
    assert row.details == {"reason": "invalid_credentials"}


async def test_entries_cannot_be_updated_or_deleted(configured) -> None:
    entry_id = await add(details={"method": "password"})
    statements = [
        update(AuditEntry).where(AuditEntry.id == entry_id).values(action="tampered"),
        delete(AuditEntry).where(AuditEntry.id == entry_id),
        text("UPDATE audit_log SET created_at = :t WHERE id = :id").bindparams(
            t=datetime.now(UTC) - timedelta(days=1), id=entry_id
        ),
        text("DELETE FROM audit_log"),
    ]
    for statement in statements:
        with pytest.raises(DBAPIError, match="append-only"):
            async with app_db.unit_of_work() as session:
                await session.execute(statement)

    # Through the ORM as well: a loaded row changed or deleted fails on flush.
    with pytest.raises(DBAPIError, match="append-only"):
        async with app_db.unit_of_work() as session:
            row = await session.get(AuditEntry, entry_id)
            row.target = "someone-else@medivisit.test"
    with pytest.raises(DBAPIError, match="append-only"):
        async with app_db.unit_of_work() as session:
            await session.delete(await session.get(AuditEntry, entry_id))

    async with app_db.unit_of_work() as session:
        row = await session.get(AuditEntry, entry_id)
    assert row.action == "sign_in" and row.target == "t@medivisit.test"


async def test_truncate_is_refused_on_postgresql(configured, database_url) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("TRUNCATE is PostgreSQL only")
    await add()
    with pytest.raises(DBAPIError, match="append-only"):
        async with app_db.unit_of_work() as session:
            await session.execute(text("TRUNCATE audit_log"))
