"""The sign-up waitlist (SPEC §1; SIGNUPS=waitlist).

`join_waitlist` is what /register does in waitlist mode (the identity API then refuses sign-ups, so nobody
skips the queue). An owner or admin approves an entry: that creates an invited identity user (if there is
none yet) and e-mails an invitation through the identity service, a GoTrue `invite` link
(`/auth/v1/verify?token=…&type=invite&redirect_to=<site>/reset-password`) that signs the person in and lands
them on the screen where they choose their password.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.auth.common import RequestOrigin, normalize_email, now
from app.auth.errors import AuthApiError
from app.auth.mailer import send_otp_email
from app.auth.sessions import find_user_by_email
from app.auth.users import create_email_user
from app.principal import Principal
from app.services.accounts._admin import split_name
from app.services.domain_events import WaitlistApproved
from app.services.errors import NotFound, PermissionDenied, ServiceError, Unavailable, ValidationFailed
from app.services.shared.accounts import is_admin
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.account import AccountRead
from models.audit import AuditAction
from models.identity import User
from models.waitlist import WaitlistEntry, WaitlistEntryRead, WaitlistStatus

INVALID_EMAIL = "Please enter a valid e-mail address."
WAITLIST_DENIED = "Only an owner or admin can manage the waitlist."
ENTRY_NOT_FOUND = "This waitlist entry no longer exists."
ALREADY_JOINED = "This person has already joined."
INVITE_PATH = "/reset-password"
MAX_PAGE = 100


def _require_admin(by: AccountRead) -> AccountRead:
    if not is_admin(by):
        raise PermissionDenied(WAITLIST_DENIED)
    return by


async def join_waitlist(*, session: AsyncSession, email: str, name: str | None = None) -> WaitlistEntryRead:
    """Put an address on the waitlist. Joining twice is harmless: the same entry comes back."""
    try:
        email = normalize_email(email)
    except AuthApiError:
        raise ValidationFailed(INVALID_EMAIL) from None
    name = " ".join((name or "").split())[:200]
    entry = await session.scalar(select(WaitlistEntry).where(WaitlistEntry.email == email))
    if entry is None:
        try:
            async with session.begin_nested():
                entry = WaitlistEntry(email=email, name=name, status=WaitlistStatus.pending, created_at=now())
                session.add(entry)
        except IntegrityError:  # the same address joined at the same moment
            entry = await session.scalar(select(WaitlistEntry).where(WaitlistEntry.email == email))
            assert entry is not None
    elif name and not entry.name:
        entry.name = name
        await session.flush()
    return WaitlistEntryRead.of(entry)


async def list_waitlist(
    *,
    session: AsyncSession,
    actor: Principal,
    status: WaitlistStatus | None = WaitlistStatus.pending,
    limit: int = MAX_PAGE,
) -> list[WaitlistEntryRead]:
    """Entries, oldest first (first come, first served); pending ones unless `status` says otherwise."""
    by = await require_account(session=session, actor=actor)
    _require_admin(by)
    query = select(WaitlistEntry)
    if status is not None:
        query = query.where(WaitlistEntry.status == status)
    limit = max(1, min(int(limit), MAX_PAGE))
    rows = await session.scalars(query.order_by(WaitlistEntry.created_at, WaitlistEntry.id).limit(limit))
    return [WaitlistEntryRead.of(row) for row in rows]


def _invite_origin() -> RequestOrigin:
    """Where the e-mail link points: the published identity API (never a request's Host header)."""
    settings = get_settings()
    api_url = settings.api_external_url or settings.site_url.rstrip("/") + "/auth/v1"
    return RequestOrigin(api_url=api_url.rstrip("/"))


async def send_invitation(*, session: AsyncSession, email: str, name: str = "") -> User:
    """E-mail an invitation to `email` (an invited identity user is created if there is none yet).

    Also used by staff management to invite a new staff member. `email` must be normalized.
    """
    user = await find_user_by_email(session, email)
    if user is None:
        user = await create_email_user(session, email=email, password_hash=None, data=split_name(name))
    settings = get_settings()
    try:
        await send_otp_email(
            session=session,
            user=user,
            kind="invite",
            origin=_invite_origin(),
            redirect_to=settings.site_url.rstrip("/") + INVITE_PATH,
        )
    except AuthApiError as exc:
        if exc.status == 429:
            raise ServiceError("An invitation was sent moments ago. Please wait a minute.") from None
        raise Unavailable("The invitation could not be sent. Please try again.") from None
    return user


async def approve_waitlist_entry(
    *, session: AsyncSession, actor: Principal, entry_id: str
) -> WaitlistEntryRead:
    """Approve an entry and e-mail the invitation. Approving again re-sends it until the person has joined."""
    by = await require_account(session=session, actor=actor)
    by = _require_admin(by)
    entry = await session.get(WaitlistEntry, entry_id)
    if entry is None:
        raise NotFound(ENTRY_NOT_FOUND)
    user = await find_user_by_email(session, entry.email)
    if user is not None and user.email_confirmed_at is not None:
        if entry.status == WaitlistStatus.approved:
            raise ValidationFailed(ALREADY_JOINED)
    else:
        user = await send_invitation(session=session, email=entry.email, name=entry.name)
    if entry.status != WaitlistStatus.approved:
        await events.publish_event(session, WaitlistApproved(entry_id=entry.id, user_id=user.id))
        entry.status = WaitlistStatus.approved
        entry.approved_at = now()
        entry.approved_by = by.id
    await session.flush()
    await audit.record(
        session=session,
        actor_id=by.id,
        actor_email=by.email,
        action=AuditAction.waitlist_approve,
        target=entry.email,
        ip="",
        user_agent="",
        details={"entry_id": entry.id, "invited": user.email_confirmed_at is None},
    )
    return WaitlistEntryRead.of(entry)
