"""The admin console's domain (issue 15 part 3), on a real database (and PostgreSQL with TEST_DATABASE_URL)
and a real SMTP server: who may use each query and command (the permission matrix, checked in the service),
the role rules, the VIP and free-access flags, disabling (sign-in refused, sessions ended), forced
sign-out, the accounts search, the outbox with codes and links redacted, the unknown paths, the system's
health and the periodic jobs' recorded runs."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import delete, func, select

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.errors import AuthApiError
from app.auth.sessions import sign_in_with_password
from app.migrate import head_revision
from app.outbox import send_email
from app.principal import SYSTEM, Principal
from app.services.accounts.internal import get_account
from app.services.admin import (
    change_user_role,
    disable_user,
    enable_user,
    force_sign_out,
    get_outbox_message,
    get_system_health,
    get_user,
    list_outbox,
    list_unknown_paths,
    list_users,
    record_job_run,
    redact,
    set_user_flags,
)
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.feedback import record_unknown_path
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from medivisit.periodic import Job, run_once
from models.account import Role
from models.admin import JobRun
from models.audit import AuditAction, AuditEntry
from models.identity import AuthSession, User
from models.mail import OutboxStatus
from tests.factories import PASSWORD, Person, ServiceCall, person, present, run, sign_in, unique_email


async def flagged(role: Role, **flags: bool) -> Person:
    someone = await person(role)
    async with app_db.unit_of_work() as session:
        user = await session.get(User, someone.account.id)
        user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), **flags}
    return someone


async def audit_of(action: AuditAction, target: str) -> list[AuditEntry]:
    async with app_db.unit_of_work() as session:
        rows = await session.scalars(
            select(AuditEntry).where(AuditEntry.action == action.value, AuditEntry.target == target)
        )
        return list(rows)


async def sessions_of(user_id: str) -> int:
    async with app_db.unit_of_work() as session:
        return await session.scalar(
            select(func.count()).select_from(AuthSession).where(AuthSession.user_id == user_id)
        )


# ---- the permission matrix --------------------------------------------------------------------------
ALLOWED = {"owner", "admin", "master admin"}
EVERYONE = ("patient", "provider", "management", "hr", "support", "admin", "owner", "master admin")


async def someone_who_is(kind: str) -> Person:
    if kind == "master admin":  # the flag without the owner or admin role
        return await flagged(Role.patient, is_master_admin=True)
    return await person(Role(kind))


@pytest.mark.parametrize("kind", EVERYONE)
async def test_every_query_and_command_is_for_administrators_only(configured, kind: str) -> None:
    me = await someone_who_is(kind)
    target = await person(Role.patient, "Tara Target")
    async with app_db.unit_of_work() as session:
        mail = await send_email(
            session=session, recipients=["t@medivisit.test"], subject="Hi", html="<p>Hi</p>"
        )
    calls: dict[str, ServiceCall] = {
        "get_outbox_message": (get_outbox_message, {"message_id": mail.id}),
        "list_users": (list_users, {}),
        "get_user": (get_user, {"user_id": target.account.id}),
        "change_user_role": (change_user_role, {"user_id": target.account.id, "role": "provider"}),
        "set_user_flags": (set_user_flags, {"user_id": target.account.id, "is_vip": True}),
        "disable_user": (disable_user, {"user_id": target.account.id}),
        "enable_user": (enable_user, {"user_id": target.account.id}),
        "force_sign_out": (force_sign_out, {"user_id": target.account.id}),
        "list_outbox": (list_outbox, {}),
        "list_unknown_paths": (list_unknown_paths, {}),
        "get_system_health": (get_system_health, {}),
    }
    for name, (fn, kwargs) in calls.items():
        if kind in ALLOWED:
            await run(fn, actor=me.actor, **kwargs)
        else:
            with pytest.raises(PermissionDenied, match="Only an owner or admin"):
                await run(fn, actor=me.actor, **kwargs)
            assert name


async def test_a_visitor_an_ended_session_and_the_system_are_refused(configured) -> None:
    admin = await person(Role.admin)
    for actor in (Principal.visitor("v-1"), SYSTEM):
        with pytest.raises(PermissionDenied):
            await run(list_users, actor=actor)
    async with app_db.unit_of_work() as session:
        await session.execute(delete(AuthSession).where(AuthSession.user_id == admin.account.id))
    with pytest.raises(PermissionDenied, match="session has ended"):
        await run(list_outbox, actor=admin.actor)


async def test_a_demoted_admin_is_refused_at_once(configured) -> None:
    owner, admin = await person(Role.owner), await person(Role.admin)
    await run(list_users, actor=admin.actor)
    await run(change_user_role, actor=owner.actor, user_id=admin.account.id, role="patient")
    with pytest.raises(PermissionDenied):
        await run(list_users, actor=admin.actor)


# ---- roles ------------------------------------------------------------------------------------------
async def test_an_admin_changes_ordinary_roles_but_never_makes_or_changes_an_admin(configured) -> None:
    admin, other_admin = await person(Role.admin), await person(Role.admin)
    patient = await person(Role.patient)
    changed = await run(change_user_role, actor=admin.actor, user_id=patient.account.id, role="provider")
    assert changed.role == Role.provider
    assert [e.details for e in await audit_of(AuditAction.role_change, patient.account.email)] == [
        {"from": "patient", "to": "provider", "via": "ui"}
    ]
    for role in ("admin", "owner"):
        with pytest.raises(PermissionDenied):
            await run(change_user_role, actor=admin.actor, user_id=patient.account.id, role=role)
    with pytest.raises(PermissionDenied, match="Only an owner"):
        await run(change_user_role, actor=admin.actor, user_id=other_admin.account.id, role="patient")
    seen = await run(get_user, actor=admin.actor, user_id=other_admin.account.id)
    assert (seen.roles_grantable, seen.may_manage) == ([], False)
    # The admin holds no staff permissions, so offers only the roles that grant none (issue 27; the
    # console used to offer support, hr and management too).
    seen = await run(get_user, actor=admin.actor, user_id=patient.account.id)
    assert seen.roles_grantable == [Role.patient]


@pytest.mark.parametrize("kind", ["owner", "master admin"])
async def test_an_owner_or_master_admin_grants_admin_but_nobody_changes_their_own_role(
    configured, kind: str
) -> None:
    me = await someone_who_is(kind)
    patient = await person(Role.patient)
    assert (
        await run(change_user_role, actor=me.actor, user_id=patient.account.id, role="admin")
    ).role == Role.admin
    with pytest.raises(PermissionDenied, match="your own role"):
        await run(change_user_role, actor=me.actor, user_id=me.account.id, role="support")
    assert (await run(get_user, actor=me.actor, user_id=me.account.id)).roles_grantable == []


async def test_bad_role_and_unknown_account(configured) -> None:
    owner, patient = await person(Role.owner), await person(Role.patient)
    with pytest.raises(ValidationFailed, match="Unknown role"):
        await run(change_user_role, actor=owner.actor, user_id=patient.account.id, role="emperor")
    for user_id in ("nope", "x" * 5000, ""):
        with pytest.raises(NotFound):
            await run(get_user, actor=owner.actor, user_id=user_id)


# ---- flags, disabling, forced sign-out ----------------------------------------------------------
async def test_vip_and_free_access_flags_are_set_in_app_metadata_and_audited(configured) -> None:
    admin, patient = await person(Role.admin), await person(Role.patient)
    shown = await run(
        set_user_flags, actor=admin.actor, user_id=patient.account.id, is_vip=True, has_free_access=True
    )
    assert (shown.is_vip, shown.has_free_access) == (True, True)
    account = present(await run(get_account, user_id=patient.account.id))
    assert (account.is_vip, account.has_free_access) == (True, True)
    await run(set_user_flags, actor=admin.actor, user_id=patient.account.id, is_vip=False)
    account = present(await run(get_account, user_id=patient.account.id))
    assert (account.is_vip, account.has_free_access) == (False, True)
    entries = await audit_of(AuditAction.account_flags, patient.account.email)
    assert sorted(str(e.details) for e in entries) == sorted(
        [
            str({"is_vip": {"from": False, "to": True}, "has_free_access": {"from": False, "to": True}}),
            str({"is_vip": {"from": True, "to": False}}),
        ]
    )
    with pytest.raises(ValidationFailed):
        await run(set_user_flags, actor=admin.actor, user_id=patient.account.id, is_vip="yes")
    with pytest.raises(PermissionDenied, match="your own account"):
        await run(set_user_flags, actor=admin.actor, user_id=admin.account.id, has_free_access=True)


async def test_a_disabled_account_cannot_sign_in_and_its_sessions_end(configured) -> None:
    admin = await person(Role.admin)
    patient = await person(Role.patient)
    second = await sign_in(patient.account.id)
    assert await sessions_of(patient.account.id) == 2
    shown = await run(disable_user, actor=admin.actor, user_id=patient.account.id)
    assert (shown.disabled, shown.active_sessions) == (True, 0)
    assert await sessions_of(patient.account.id) == 0
    for actor in (patient.actor, second):
        with pytest.raises(PermissionDenied):
            await run(require_account, actor=actor)
    with pytest.raises(AuthApiError, match="banned"):
        async with app_db.unit_of_work() as session:
            await sign_in_with_password(
                session=session, origin=RequestOrigin(), email=patient.account.email, password=PASSWORD
            )
    [entry] = await audit_of(AuditAction.account_disable, patient.account.email)
    assert (entry.actor_email, entry.details) == (admin.account.email, {"sessions_ended": 2})
    page = await run(list_users, actor=admin.actor, query=patient.account.email)
    assert [u.disabled for u in page.users] == [True]

    assert not (await run(enable_user, actor=admin.actor, user_id=patient.account.id)).disabled
    async with app_db.unit_of_work() as session:
        await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=patient.account.email, password=PASSWORD
        )
    assert len(await audit_of(AuditAction.account_enable, patient.account.email)) == 1


async def test_only_an_owner_disables_an_admin_and_nobody_disables_themselves(configured) -> None:
    owner, admin, other = await person(Role.owner), await person(Role.admin), await person(Role.admin)
    with pytest.raises(PermissionDenied, match="Only an owner"):
        await run(disable_user, actor=admin.actor, user_id=other.account.id)
    with pytest.raises(PermissionDenied, match="your own account"):
        await run(disable_user, actor=owner.actor, user_id=owner.account.id)
    assert (await run(disable_user, actor=owner.actor, user_id=other.account.id)).disabled


async def test_an_owner_email_keeps_its_flags_and_cannot_be_disabled(configured, monkeypatch) -> None:
    address = unique_email("boss")
    monkeypatch.setenv("OWNER_EMAILS", address)
    get_settings.cache_clear()
    boss = await person(Role.owner, email=address)
    other_owner = await person(Role.owner)
    for fn, kwargs in ((disable_user, {}), (set_user_flags, {"is_vip": False})):
        with pytest.raises(PermissionDenied, match="OWNER_EMAILS"):
            await run(fn, actor=other_owner.actor, user_id=boss.account.id, **kwargs)
    shown = await run(get_user, actor=other_owner.actor, user_id=boss.account.id)
    assert (shown.owner_email, shown.is_master_admin, shown.is_vip) == (True, True, True)


async def test_force_sign_out_ends_every_session_now(configured) -> None:
    owner, provider = await person(Role.owner), await person(Role.provider)
    await sign_in(provider.account.id)
    assert (await run(get_user, actor=owner.actor, user_id=provider.account.id)).active_sessions == 2
    assert await run(force_sign_out, actor=owner.actor, user_id=provider.account.id) == 2
    with pytest.raises(PermissionDenied):
        await run(require_account, actor=provider.actor)
    [entry] = await audit_of(AuditAction.force_sign_out, provider.account.email)
    assert entry.details == {"sessions_ended": 2}
    # the account itself stays usable: a new sign-in works
    await sign_in(provider.account.id)


async def test_two_administrators_disabling_at_once_leave_one_audit_entry(configured, monkeypatch) -> None:
    """Both read the account as enabled before either writes (on SQLite, where nothing holds the row, an
    event makes them meet; on PostgreSQL the row lock makes the second wait for the first's commit)."""
    from app.services.admin import _users

    owner, admin, patient = await person(Role.owner), await person(Role.admin), await person(Role.patient)
    arrived, both = 0, asyncio.Event()
    original = _users._set_banned

    async def meet_first(session, *args, **kwargs):  # noqa: ANN001, ANN202
        nonlocal arrived
        if session.bind.dialect.name == "sqlite":
            arrived += 1
            if arrived == 2:
                both.set()
            await both.wait()
        return await original(session, *args, **kwargs)

    monkeypatch.setattr(_users, "_set_banned", meet_first)
    results = await asyncio.gather(
        run(disable_user, actor=owner.actor, user_id=patient.account.id),
        run(disable_user, actor=admin.actor, user_id=patient.account.id),
        return_exceptions=True,
    )
    assert all(not isinstance(r, BaseException) and r.disabled for r in results), results
    assert await sessions_of(patient.account.id) == 0
    assert len(await audit_of(AuditAction.account_disable, patient.account.email)) == 1


# ---- the accounts search ----------------------------------------------------------------------------
async def test_search_by_name_or_email_with_a_role_filter_fifty_a_page(configured) -> None:
    admin = await person(Role.admin)
    marker = unique_email("zed").split("@")[0]
    for n in range(53):
        await person(Role.patient, f"Quentin Zebedee{n}", email=f"{marker}-{n}@medivisit.test")
    await person(Role.support, "Quentin Zebedee-support", email=f"{marker}-s@medivisit.test")
    first = await run(list_users, actor=admin.actor, query=marker)
    assert (first.total, len(first.users), first.page_size) == (54, 50, 50)
    second = await run(list_users, actor=admin.actor, query=marker, page=2)
    assert len(second.users) == 4
    assert not {u.id for u in first.users} & {u.id for u in second.users}
    by_name = await run(list_users, actor=admin.actor, query="quentin zebedee-support")
    assert [u.role for u in by_name.users] == [Role.support]
    patients = await run(list_users, actor=admin.actor, query=marker, role="patient")
    assert patients.total == 53
    assert (await run(list_users, actor=admin.actor, query="%")).total == 0  # a wildcard is a character
    with pytest.raises(ValidationFailed, match="at most 200"):
        await run(list_users, actor=admin.actor, query="x" * 201)
    with pytest.raises(ValidationFailed):
        await run(list_users, actor=admin.actor, role="emperor")
    with pytest.raises(ValidationFailed):
        await run(list_users, actor=admin.actor, page=0)


async def test_on_postgresql_the_search_uses_the_trigram_index(configured) -> None:
    from sqlalchemy import text

    from app.services.admin._users import _filters

    async with app_db.unit_of_work() as session:
        if session.bind.dialect.name != "postgresql":
            pytest.skip("the trigram index is PostgreSQL's (migration 0033)")
        await session.execute(text("SET LOCAL enable_seqscan = off"))  # a near-empty table: force the choice
        statement = select(func.count()).select_from(User).where(*_filters("jordan lee", None))
        compiled = statement.compile(session.bind, compile_kwargs={"literal_binds": True})
        plan = "\n".join((await session.execute(text(f"EXPLAIN {compiled}"))).scalars())
    assert "ix_auth_users_search_trgm" in plan, plan


# ---- the outbox, unknown paths ----------------------------------------------------------------------
async def test_the_outbox_never_hands_out_codes_or_links(configured, smtp_server) -> None:
    admin = await person(Role.admin)
    async with app_db.unit_of_work() as session:
        message = await send_email(
            session=session,
            recipients=["pat@medivisit.test"],
            subject="Your code is 482913",
            html="<p>Hello Pat,</p><p>Your code: <b>482 913</b>.</p>"
            '<p><a href="https://medivisit.test/auth/v1/verify?token=abcDEF123456&type=magiclink">Sign in</a>'
            " or paste https://medivisit.test/auth/v1/verify?token=abcDEF123456</p>",
        )
    page = await run(list_outbox, actor=admin.actor)
    row = next(m for m in page.messages if m.id == message.id)
    assert (row.status, row.subject, row.recipients) == (
        OutboxStatus.sent,
        "Your code is [code hidden]",
        ["pat@medivisit.test"],
    )
    body = await run(get_outbox_message, actor=admin.actor, message_id=message.id)
    assert "482" not in body.text and "abcDEF123456" not in body.text and "https" not in body.text
    assert "Hello Pat," in body.text and "[link hidden]" in body.text and "[code hidden]" in body.text
    with pytest.raises(NotFound):
        await run(get_outbox_message, actor=admin.actor, message_id="missing")
    assert redact("Ticket #1042 is overdue; code 123-456") == "Ticket #1042 is overdue; code [code hidden]"
    assert (await run(list_outbox, actor=admin.actor, status="failed")).total == 0


async def test_a_failed_delivery_shows_in_the_outbox_and_in_health(configured, monkeypatch) -> None:
    admin = await person(Role.admin)
    monkeypatch.setenv("SMTP_URL", "smtp://127.0.0.1:9")  # nothing listens on the discard port
    get_settings.cache_clear()
    async with app_db.unit_of_work() as session:
        await send_email(
            session=session, recipients=["x@medivisit.test"], subject="Receipt", html="<p>Hi</p>"
        )
    failed = await run(list_outbox, actor=admin.actor, status="failed")
    assert [m.subject for m in failed.messages] == ["Receipt"] and failed.messages[0].error
    health = await run(get_system_health, actor=admin.actor)
    assert health.mail_failed_24h == 1 and health.last_mail_failure


async def test_unknown_paths_most_frequent_first(configured) -> None:
    admin = await person(Role.admin)
    async with app_db.unit_of_work() as session:
        for path, times in (("/old-pricing", 3), ("/blog", 1), ("/careers", 5)):
            for _ in range(times):
                await record_unknown_path(session=session, path=path)
    page = await run(list_unknown_paths, actor=admin.actor)
    assert [(p.path, p.hits) for p in page.paths][:3] == [("/careers", 5), ("/old-pricing", 3), ("/blog", 1)]


# ---- health and the jobs' runs ----------------------------------------------------------------------
async def test_health_measures_the_database_and_reads_the_recorded_job_runs(configured) -> None:
    admin = await person(Role.admin)
    counted = Job("Did %d thing(s)", lambda session: _three(), lambda settings: True, every=60)
    broken = Job("Broke %d time(s)", lambda session: _boom(), lambda settings: True, every=600)
    await run_once(counted)
    await run_once(broken)
    health = await run(get_system_health, actor=admin.actor)
    assert health.database_ok and health.database_latency_ms is not None and health.database_latency_ms >= 0
    assert health.database_revision == head_revision() and health.smtp_configured
    jobs = {j.job: j for j in health.jobs}
    assert (jobs["Did N thing(s)"].last_ok, jobs["Did N thing(s)"].last_count) == (True, 3)
    failed = jobs["Broke N time(s)"]
    assert (failed.last_ok, failed.last_success_at, failed.overdue) == (False, None, False)
    assert failed.last_error == "RuntimeError: the disk is full"
    await run_once(broken)  # recorded again: still one row per job
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(func.count()).select_from(JobRun)) == 2
    with pytest.raises(PermissionDenied):
        await run(record_job_run, actor=admin.actor, job="x", every_seconds=1, ok=True)


async def test_two_workers_recording_the_same_job_at_once_keep_one_row(configured) -> None:
    started = asyncio.Event()
    waiting = 0

    async def both_ready() -> None:
        nonlocal waiting
        waiting += 1
        if waiting == 2:
            started.set()
        await started.wait()

    async def record(ok: bool) -> None:
        async with app_db.unit_of_work() as session:
            await both_ready()
            await record_job_run(
                session=session, actor=SYSTEM, job="Same job", every_seconds=60, ok=ok, error="x"
            )

    await asyncio.gather(record(True), record(False), return_exceptions=False)
    async with app_db.unit_of_work() as session:
        rows = list(await session.scalars(select(JobRun).where(JobRun.job == "Same job")))
    assert len(rows) == 1 and rows[0].last_success_at and rows[0].last_failure_at


async def _three() -> int:
    return 3


async def _boom() -> int:
    raise RuntimeError("the disk is full")
