"""Who may do what in the forum. Reading is public. Posting, liking and flagging need a signed-in account
(re-checked on every call) and forum posting switched on (the "Forum posting" toggle); posting also needs
the member not to be silenced. Moderating needs the moderate_content permission. Also: the names and
"Verified provider" badges of a page's authors, in two queries for the whole page."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import flags
from app.principal import Principal
from app.services.errors import PermissionDenied
from app.services.shared.accounts import account_of
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import require_permission
from models.account import AccountRead, Role
from models.base import utcnow
from models.forum import ForumAuthorRead, ForumMember
from models.identity import User, as_utc
from models.provider import Provider
from models.staff import Permission

SIGN_IN = "Sign in to take part in the forum."
POSTING_PAUSED = "Posting in the forum is paused for now. You can still read every discussion."
GONE = "Former member"


def when(moment: datetime) -> str:
    """'Dec 3, 2026 at 14:05 UTC': a silence's end, in words."""
    moment = as_utc(moment)
    return f"{moment:%b} {moment.day}, {moment.year} at {moment:%H:%M} UTC"


def silenced_until(member: ForumMember | None) -> datetime | None:
    """When the member's silence ends, if they are silenced now."""
    if member is None or member.silenced_until is None:
        return None
    until = as_utc(member.silenced_until)
    return until if until > utcnow() else None


async def require_member(session: AsyncSession, actor: Principal) -> AccountRead:
    """The signed-in account, while forum posting is open (likes and flags)."""
    if not actor.is_user:
        raise PermissionDenied(SIGN_IN, code="sign_in_required")
    account = await require_account(session=session, actor=actor)
    if not flags.forum_posting_open():
        raise PermissionDenied(POSTING_PAUSED, code="forum_posting_closed")
    return account


async def require_poster(session: AsyncSession, actor: Principal) -> tuple[AccountRead, ForumMember]:
    """The signed-in account and its standing, if it may post now (not silenced)."""
    account = await require_member(session, actor)
    member = await session.get(ForumMember, account.id)
    if member is None:
        member = ForumMember(user_id=account.id, approved_posts=0, silence_reason="")
        session.add(member)
        await session.flush()
    until = silenced_until(member)
    if until is not None:
        raise PermissionDenied(
            f"A moderator has paused your posting until {when(until)}. Reason: {member.silence_reason}",
            code="silenced",
        )
    return account, member


async def require_moderator(session: AsyncSession, actor: Principal) -> AccountRead:
    return await require_permission(session=session, actor=actor, permission=Permission.moderate_content)


async def is_forum_moderator(*, session: AsyncSession, actor: Principal) -> bool:
    """Whether `actor` holds moderate_content now; never raises for visitors."""
    if not actor.is_user:
        return False
    try:
        await require_moderator(session, actor)
    except PermissionDenied:
        return False
    return True


async def authors_of(session: AsyncSession, user_ids: Iterable[str]) -> dict[str, ForumAuthorRead]:
    """Each author's display name and badge: a provider account whose profile is verified (an approved
    enrollment publishes the profile verified) gets "Verified provider"."""
    ids = sorted({i for i in user_ids if i})
    if not ids:
        return {}
    # A deleted account's tombstone is shown as a former member (its posts' text was removed too).
    accounts = {
        user.id: account_of(user)
        for user in await session.scalars(select(User).where(User.id.in_(ids)))
        if not (user.raw_app_meta_data or {}).get("deleted")
    }
    verified = set(
        await session.scalars(
            select(Provider.user_id).where(Provider.user_id.in_(ids), Provider.is_verified.is_(True))
        )
    )
    found = {}
    for user_id in ids:
        account = accounts.get(user_id)
        found[user_id] = ForumAuthorRead(
            id=user_id,
            name=account.name if account is not None else GONE,
            verified_provider=account is not None and account.role == Role.provider and user_id in verified,
        )
    return found
