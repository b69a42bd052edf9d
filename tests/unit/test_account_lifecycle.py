"""The account's own pages (issue 12), against a real database: active sessions (ownership, a revoked
session refused on its next command, its refresh token dead), the e-mail change's pending state, the saved
address, deletion (grace period, cancel, refusals, the job's anonymising with visits and money kept), the
data export (own records only, never internal notes), the VIP welcome once and the onboarding checklist."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.errors import AuthApiError
from app.auth.sessions import load_user_row, refresh, start_session
from app.principal import SYSTEM
from app.services.accounts import (
    cancel_account_deletion,
    cancel_email_change,
    delete_due_accounts,
    describe_device,
    dismiss_onboarding,
    dismiss_vip_welcome,
    export_my_data,
    get_account_status,
    get_saved_address,
    get_welcome,
    list_sessions,
    remove_address,
    request_account_deletion,
    request_email_change,
    save_address,
    sign_out_other_sessions,
    sign_out_session,
)
from app.services.accounts.internal import mark_enrollment_complete
from app.services.errors import NotFound, PermissionDenied, RateLimited, ValidationFailed
from app.services.support import reply_to_ticket
from app.settings import get_settings
from models.account import Role
from models.audit import AuditEntry
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus, Transaction
from models.identity import User
from models.provider import Review
from tests.factories import new_ticket, person, present, provider, run, sign_in, visit

CHROME_WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Safari/537.36"
)
SAFARI_IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)
HOME = {"address_line": "12 Main St", "city": "New York", "state": "ny", "zip_code": "10001"}


def test_devices_are_described_in_plain_words() -> None:
    assert describe_device(CHROME_WINDOWS) == "Chrome on Windows"
    assert describe_device(SAFARI_IPHONE) == "Safari on iPhone"
    assert describe_device("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") == (
        "Firefox on Linux"
    )
    assert describe_device("curl/8.5") == "A program or app"
    assert describe_device("") == "Unknown device"


async def test_sessions_are_listed_this_one_first_and_only_the_owners(identity) -> None:
    me = await person()
    other_device = await sign_in(me.id)
    stranger = await person()
    listed = await run(list_sessions, actor=me.actor)
    assert [s.id for s in listed][0] == me.actor.session_id
    assert [s.current for s in listed] == [True, False]
    assert {s.id for s in listed} == {me.actor.session_id, other_device.session_id}
    assert stranger.actor.session_id not in {s.id for s in listed}
    # Nobody signs out another person's session: it is not found, and it stays.
    with pytest.raises(NotFound):
        await run(sign_out_session, actor=me.actor, session_id=stranger.actor.session_id)
    assert len(await run(list_sessions, actor=stranger.actor)) == 1
    with pytest.raises(PermissionDenied):
        await run(list_sessions, actor=SYSTEM)


async def test_a_revoked_session_is_refused_on_its_next_command_and_cannot_refresh(identity) -> None:
    me = await person()
    async with app_db.unit_of_work() as session:
        user = present(await load_user_row(session, me.id))
        other = await start_session(
            session=session, user=user, method="password", origin=RequestOrigin(user_agent=SAFARI_IPHONE)
        )
    listed = await run(list_sessions, actor=me.actor)
    assert [s.device for s in listed if not s.current] == ["Safari on iPhone"]
    await run(sign_out_session, actor=me.actor, session_id=other.session_id)
    other_actor = me.actor.__class__.user(user_id=me.id, session_id=other.session_id)
    with pytest.raises(PermissionDenied):
        await run(list_sessions, actor=other_actor)
    with pytest.raises(AuthApiError):
        await run(refresh, origin=RequestOrigin(), refresh_token=other.refresh_token)
    assert [s.id for s in await run(list_sessions, actor=me.actor)] == [me.actor.session_id]


async def test_sign_out_everywhere_else_keeps_only_this_session(identity) -> None:
    me = await person()
    others = [await sign_in(me.id) for _ in range(2)]
    assert await run(sign_out_other_sessions, actor=me.actor) == 2
    for other in others:
        with pytest.raises(PermissionDenied):
            await run(get_account_status, actor=other)
    assert (await run(get_account_status, actor=me.actor)).email == me.email
    async with app_db.unit_of_work() as session:
        audited = await session.scalar(
            select(func.count()).where(AuditEntry.actor_id == me.id, AuditEntry.action == "session_revoke")
        )
    assert audited == 1


async def test_saved_address_is_checked_and_own(identity) -> None:
    me = await person()
    with pytest.raises(ValidationFailed):
        await run(save_address, actor=me.actor, **{**HOME, "zip_code": "1"})
    with pytest.raises(ValidationFailed):
        await run(save_address, actor=me.actor, **{**HOME, "address_line": "x" * 300})
    saved = await run(save_address, actor=me.actor, **HOME)
    assert saved.state == "NY"
    assert await run(get_saved_address, actor=me.actor) == saved
    stranger = await person()
    assert await run(get_saved_address, actor=stranger.actor) is None
    await run(remove_address, actor=me.actor)
    assert await run(get_saved_address, actor=me.actor) is None


async def test_email_change_goes_through_the_secure_flow_and_shows_pending(identity, smtp) -> None:
    me = await person()
    taken = await person()
    with pytest.raises(ValidationFailed, match="already uses"):
        await run(request_email_change, actor=me.actor, new_email=taken.email)
    with pytest.raises(ValidationFailed, match="already your"):
        await run(request_email_change, actor=me.actor, new_email=me.email.upper())
    with pytest.raises(ValidationFailed):
        await run(request_email_change, actor=me.actor, new_email="x" * 400 + "@example.com")
    status = await run(request_email_change, actor=me.actor, new_email="New.Address@Example.com")
    assert status.email == me.email and status.pending_email == "new.address@example.com"
    recipients = {to for _sender, tos in smtp.envelopes for to in tos}
    assert {"new.address@example.com", me.email} <= recipients  # a link to the new one, notice to the old
    status = await run(cancel_email_change, actor=me.actor)
    assert status.pending_email == ""


async def test_deletion_waits_the_grace_period_and_can_be_cancelled(identity) -> None:
    me = await person(name="Dana Gone")
    other_device = await sign_in(me.id)
    now = utcnow()
    with pytest.raises(ValidationFailed, match="not your account"):
        await run(request_account_deletion, actor=me.actor, confirm_email="someone@else.test")
    status = await run(request_account_deletion, actor=me.actor, confirm_email=me.email.upper(), now=now)
    assert status.deletion_due_at == now + timedelta(days=get_settings().account_deletion_grace_days)
    with pytest.raises(PermissionDenied):  # every other session was signed out
        await run(get_account_status, actor=other_device)
    with pytest.raises(ValidationFailed, match="already scheduled"):
        await run(request_account_deletion, actor=me.actor, confirm_email=me.email)
    assert await run(delete_due_accounts, actor=SYSTEM, now=now + timedelta(days=13)) == 0
    assert (await run(cancel_account_deletion, actor=me.actor)).deletion_due_at is None
    assert await run(delete_due_accounts, actor=SYSTEM, now=now + timedelta(days=30)) == 0
    assert (await run(get_account_status, actor=me.actor)).email == me.email
    with pytest.raises(PermissionDenied):
        await run(delete_due_accounts, actor=me.actor)


async def test_the_job_anonymises_the_account_and_keeps_visits_and_money(identity) -> None:
    me = await person(name="Dana Gone")
    provider_id = await provider()
    past = utcnow() - timedelta(days=20)
    visit_id = await visit(me, provider_id, past, status=AppointmentStatus.completed)
    async with app_db.unit_of_work() as session:
        session.add(
            Review(provider_id=provider_id, author_id=me.id, author_name="Dana G.", rating=4, comment="Kind")
        )
    await run(save_address, actor=me.actor, **HOME)
    await new_ticket(me)
    now = utcnow()
    await run(request_account_deletion, actor=me.actor, confirm_email=me.email, now=now)
    assert await run(delete_due_accounts, actor=SYSTEM, now=now + timedelta(days=15)) == 1
    with pytest.raises(PermissionDenied):
        await run(get_account_status, actor=me.actor)
    async with app_db.unit_of_work() as session:
        user = await session.get(User, me.id)
        kept = await session.get(Appointment, visit_id)
        money = await session.scalar(select(func.count()).where(Transaction.user_id == me.id))
        review = await session.scalar(select(Review).where(Review.provider_id == provider_id))
    assert user.email.endswith("@deleted.invalid") and user.encrypted_password is None
    assert user.raw_user_meta_data == {}
    assert kept.status == AppointmentStatus.completed and kept.address_line == "" and kept.notes == ""
    assert money == 2  # the booking and the fee stay for the books
    assert review.rating == 4 and review.author_id is None and review.comment == ""
    assert await run(delete_due_accounts, actor=SYSTEM, now=now + timedelta(days=16)) == 0


async def test_providers_and_patients_with_upcoming_visits_are_refused(identity) -> None:
    owner = await person(Role.provider, name="Ada Nurse")
    provider_id = await provider(owner=owner)
    patient = await person()
    await visit(patient, provider_id, utcnow() + timedelta(days=3), status=AppointmentStatus.confirmed)
    with pytest.raises(ValidationFailed, match="upcoming visits with patients"):
        await run(request_account_deletion, actor=owner.actor, confirm_email=owner.email)
    with pytest.raises(ValidationFailed, match="Cancel them first"):
        await run(request_account_deletion, actor=patient.actor, confirm_email=patient.email)


async def test_export_holds_only_the_accounts_own_records_and_no_internal_notes(identity) -> None:
    me = await person(name="Pat Export")
    stranger = await person(name="Sam Stranger")
    agent = await person(Role.support)
    provider_id = await provider()
    await visit(me, provider_id, utcnow() - timedelta(days=5), status=AppointmentStatus.completed)
    await visit(stranger, provider_id, utcnow() - timedelta(days=4), status=AppointmentStatus.completed)
    ticket = await new_ticket(me, "My bill", "Charged twice")
    await new_ticket(stranger, "Stranger's bill", "Their problem")
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="We refunded you.")
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="SECRET NOTE", internal=True)
    await run(save_address, actor=me.actor, **HOME)
    data = await run(export_my_data, actor=me.actor)
    text = repr(data)
    assert data["profile"]["email"] == me.email and data["profile"]["name"] == "Pat Export"
    assert data["addresses"][0]["zip_code"] == "10001"
    assert len(data["visits"]) == 1 and len(data["orders"]) == 1 and len(data["payments"]) == 2
    assert [t["subject"] for t in data["tickets"]] == ["My bill"]
    assert [m["content"] for m in data["tickets"][0]["messages"]] == ["We refunded you."]
    assert "SECRET NOTE" not in text and "Sam Stranger" not in text and stranger.email not in text
    assert data["sessions"][0]["current"] is True
    async with app_db.unit_of_work() as session:
        audited = await session.scalar(
            select(func.count()).where(AuditEntry.actor_id == me.id, AuditEntry.action == "data_export")
        )
    assert audited == 1


async def test_export_is_rate_limited(identity, monkeypatch) -> None:
    monkeypatch.setenv("RATE_LIMIT_DATA_EXPORT", "2")
    get_settings.cache_clear()
    me = await person()
    await run(export_my_data, actor=me.actor)
    await run(export_my_data, actor=me.actor)
    with pytest.raises(RateLimited):
        await run(export_my_data, actor=me.actor)


async def test_vip_welcome_shows_once_on_any_browser(identity) -> None:
    vip = await person()
    async with app_db.unit_of_work() as session:
        await session.execute(
            update(User)
            .where(User.id == vip.id)
            .values(raw_app_meta_data={"role": "patient", "is_vip": True})
        )
    second_browser = await sign_in(vip.id)
    assert (await run(get_welcome, actor=vip.actor)).show_vip is True
    await run(dismiss_vip_welcome, actor=vip.actor)
    assert (await run(get_welcome, actor=second_browser)).show_vip is False
    plain = await person()
    assert (await run(get_welcome, actor=plain.actor)).show_vip is False


async def test_patient_checklist_is_computed_from_data_and_closes_itself(identity) -> None:
    me = await person()
    items = (await run(get_welcome, actor=me.actor)).checklist
    assert [(i.key, i.done) for i in items] == [("address", False), ("booking", False)]
    await run(save_address, actor=me.actor, **HOME)
    items = (await run(get_welcome, actor=me.actor)).checklist
    assert [(i.key, i.done) for i in items] == [("address", True), ("booking", False)]
    await visit(me, await provider(), utcnow() + timedelta(days=2))
    assert (await run(get_welcome, actor=me.actor)).checklist == ()


async def test_provider_checklist_and_dismissal(identity) -> None:
    owner = await person(Role.provider)
    items = (await run(get_welcome, actor=owner.actor)).checklist
    assert [(i.key, i.done) for i in items] == [("enrollment", False), ("hours", False)]
    await provider(owner=owner)  # with weekday hours
    async with app_db.unit_of_work() as session:
        await mark_enrollment_complete(session=session, user_id=owner.id)
    assert (await run(get_welcome, actor=owner.actor)).checklist == ()
    patient = await person()
    await run(dismiss_onboarding, actor=patient.actor)
    assert (await run(get_welcome, actor=patient.actor)).checklist == ()
    staff = await person(Role.support)
    assert (await run(get_welcome, actor=staff.actor)).checklist == ()
