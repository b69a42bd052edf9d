"""The sign-up waitlist: joining (idempotent, validated), who may list and approve, and the invitation an
approval e-mails over real SMTP (an `invite` link to the identity service that lands on /reset-password)."""

from __future__ import annotations

import re
import uuid
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import select

from app import db as app_db
from app.auth.sessions import find_user_by_email
from app.principal import Principal
from app.services.accounts import approve_waitlist_entry, join_waitlist, list_waitlist
from app.services.errors import NotFound, PermissionDenied, ServiceError, ValidationFailed
from app.settings import get_settings
from models.account import Role
from models.audit import AuditEntry
from models.waitlist import WaitlistStatus
from tests.conftest import html_part
from tests.factories import Person, person, present


@pytest.fixture
async def owner(configured) -> Person:
    return await person(Role.owner, "Olive Owner")


@pytest.fixture
async def admin(configured) -> Person:
    return await person(Role.admin, "Adam Admin")


@pytest.fixture
def mail_env(configured, monkeypatch):
    """Room under the instance-wide e-mail limit, and a known site address."""
    from app import ratelimit

    monkeypatch.setenv("RATE_LIMIT_EMAIL_SENT", "100000")
    monkeypatch.setenv("SITE_URL", "http://app.medivisit.test")
    get_settings.cache_clear()
    ratelimit.reset()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()
    ratelimit.reset()


def address(prefix: str = "wait") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@medivisit.test"


async def join(email: str, name: str | None = None):  # noqa: ANN201
    async with app_db.unit_of_work() as session:
        return await join_waitlist(session=session, email=email, name=name)


async def test_joining_is_idempotent_and_lower_cases_the_address(configured) -> None:
    email = address()
    first = await join(f"  {email.upper()} ", "  Ada   Lovelace ")
    assert (first.email, first.name, first.status) == (email, "Ada Lovelace", WaitlistStatus.pending)
    again = await join(email, "Someone Else")
    assert again.id == first.id and again.name == "Ada Lovelace"

    unnamed = await join(address())
    assert unnamed.name == ""
    named_later = await join(unnamed.email, "Grace Hopper")
    assert named_later.id == unnamed.id and named_later.name == "Grace Hopper"


@pytest.mark.parametrize("bad", ["", "   ", "not-an-email", "a@", "@b.co"])
async def test_joining_needs_a_valid_address(configured, bad) -> None:
    with pytest.raises(ValidationFailed, match="valid e-mail"):
        await join(bad)


@pytest.mark.parametrize("role", [Role.patient, Role.provider, Role.management, Role.hr, Role.support])
async def test_only_owner_and_admin_list_and_approve(configured, role, admin) -> None:
    entry = await join(address())
    someone = (await person(role)).actor
    for actor in (someone, Principal.visitor("visitor-1")):
        with pytest.raises(PermissionDenied):
            async with app_db.unit_of_work() as session:
                await list_waitlist(session=session, actor=actor)
        with pytest.raises(PermissionDenied):
            async with app_db.unit_of_work() as session:
                await approve_waitlist_entry(session=session, actor=actor, entry_id=entry.id)
    async with app_db.unit_of_work() as session:
        pending = await list_waitlist(session=session, actor=admin.actor)
    assert entry.id in [e.id for e in pending]


async def test_owner_approval_invites_by_email(mail_env, smtp, owner) -> None:
    entry = await join(address("invitee"), "Ada Lovelace")
    async with app_db.unit_of_work() as session:
        approved = await approve_waitlist_entry(session=session, actor=owner.actor, entry_id=entry.id)
    assert approved.status == WaitlistStatus.approved and approved.approved_by == owner.id
    assert approved.approved_at is not None

    [message] = smtp.wait_for(1)
    assert message["To"] == entry.email and "invited" in message["Subject"].lower()
    match = re.search(r'href="([^"]+)"', html_part(message))
    link = urlsplit(unescape(present(match).group(1)))
    assert f"{link.scheme}://{link.netloc}{link.path}" == "http://app.medivisit.test/auth/v1/verify"
    query = parse_qs(link.query)
    assert query["type"] == ["invite"]
    assert query["redirect_to"] == ["http://app.medivisit.test/reset-password"]
    assert re.fullmatch(r"[0-9a-f]{56}", query["token"][0])

    async with app_db.unit_of_work() as session:
        user = present(await find_user_by_email(session, entry.email))
        pending = await list_waitlist(session=session, actor=owner.actor)
        approved_list = await list_waitlist(
            session=session, actor=owner.actor, status=WaitlistStatus.approved
        )
        audit = await session.scalar(
            select(AuditEntry).where(
                AuditEntry.action == "waitlist_approve", AuditEntry.target == entry.email
            )
        )
    assert user.invited_at is not None and user.email_confirmed_at is None
    assert user.encrypted_password is None
    assert (user.raw_user_meta_data["first_name"], user.raw_user_meta_data["last_name"]) == (
        "Ada",
        "Lovelace",
    )
    assert "role" not in user.raw_user_meta_data
    assert entry.id not in [e.id for e in pending] and entry.id in [e.id for e in approved_list]
    assert audit.actor_id == owner.id and audit.details == {"entry_id": entry.id, "invited": True}

    # A second approval re-sends the invitation, but not within a minute of the last one.
    with pytest.raises(ServiceError, match="moments ago"):
        async with app_db.unit_of_work() as session:
            await approve_waitlist_entry(session=session, actor=owner.actor, entry_id=entry.id)


async def test_approving_someone_who_already_has_an_account_sends_nothing(mail_env, smtp, admin) -> None:
    from app.services.accounts.internal import create_account

    email = address("member")
    async with app_db.unit_of_work() as session:
        await create_account(session=session, email=email, password="member-pass-1", role="patient")
    entry = await join(email)
    async with app_db.unit_of_work() as session:
        approved = await approve_waitlist_entry(session=session, actor=admin.actor, entry_id=entry.id)
    assert approved.status == WaitlistStatus.approved
    with pytest.raises(ValidationFailed, match="already joined"):
        async with app_db.unit_of_work() as session:
            await approve_waitlist_entry(session=session, actor=admin.actor, entry_id=entry.id)
    assert [m for m in smtp.messages if email in (m["To"] or "")] == []


async def test_approving_a_missing_entry(configured, owner) -> None:
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await approve_waitlist_entry(session=session, actor=owner.actor, entry_id=str(uuid.uuid4()))
