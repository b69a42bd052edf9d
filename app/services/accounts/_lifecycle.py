"""The account's own lifecycle: its saved visit address, an e-mail change, deletion with a grace period,
and what the signed-in home greets it with (the VIP welcome once, the onboarding checklist).

Deletion: `request_account_deletion` (the person re-types their e-mail address) schedules it
`ACCOUNT_DELETION_GRACE_DAYS` ahead and signs out every other session; `cancel_account_deletion` undoes it
meanwhile; `delete_due_accounts` (the periodic job, `SYSTEM`) then erases the person (`_erasure`: what is
deleted, what is kept for the books without the person, files on disk included) and leaves the identity row
as an anonymous, banned tombstone (`deleted-<id>@deleted.invalid`), because the kept visits and orders
reference it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.audit import record
from app.auth.errors import AuthApiError
from app.auth.sessions import delete_other_sessions, load_user_row
from app.auth.users import update_user
from app.principal import Principal
from app.services.accounts._erasure import erase_person
from app.services.accounts._sessions import audit_own
from app.services.accounts._waitlist import _invite_origin
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.shared.addresses import address_problems
from app.services.shared.signed_in import identity_of, require_account, require_identity
from app.settings import get_settings
from models.account import (
    AccountRead,
    AccountState,
    AccountStatus,
    AddressRead,
    ChecklistItem,
    Role,
    SavedAddress,
    Welcome,
)
from models.audit import AuditAction
from models.base import utcnow
from models.booking import Appointment, AppointmentStatus
from models.catalog import ServiceLocation
from models.identity import OneTimeToken, User, as_utc
from models.provider import Provider, WeeklyHours

MAX_EMAIL = 320
MAX_CONFIRMATION = 320
UPCOMING = (AppointmentStatus.held, AppointmentStatus.pending, AppointmentStatus.confirmed)
WRONG_CONFIRMATION = "That is not your account's e-mail address. Type it exactly to confirm."
ALREADY_SCHEDULED = "Your account is already scheduled for deletion."
PROVIDER_HAS_VISITS = (
    "You have upcoming visits with patients. Complete or cancel them before deleting your account, "
    "so nobody waits for a visit that will not happen."
)
PATIENT_HAS_VISITS = (
    "You have upcoming visits. Cancel them first (My Appointments), so no provider travels to a visit "
    "that will not happen."
)
SAME_EMAIL = "That is already your e-mail address."
ENTER_EMAIL = "Please enter the new e-mail address."
DELETED_DOMAIN = "deleted.invalid"
BANNED_FOREVER = datetime(9999, 1, 1)


# ---- the account's state row ------------------------------------------------------------------------
async def _state(session: AsyncSession, user_id: str) -> AccountState:
    row = await session.get(AccountState, user_id)
    if row is None:
        row = AccountState(user_id=user_id)
        session.add(row)
        await session.flush()
    return row


# ---- status, address, e-mail change -----------------------------------------------------------------
async def get_account_status(*, session: AsyncSession, actor: Principal) -> AccountStatus:
    """The signed-in account's e-mail address, an e-mail change waiting for confirmation, a deletion."""
    account = await require_account(session=session, actor=actor)
    pending = await session.scalar(select(User.email_change).where(User.id == account.id))
    due = await session.scalar(select(AccountState.deletion_due_at).where(AccountState.user_id == account.id))
    return AccountStatus(email=account.email, pending_email=pending or "", deletion_due_at=as_utc(due))


async def get_saved_address(*, session: AsyncSession, actor: Principal) -> AddressRead | None:
    account = await require_account(session=session, actor=actor)
    row = await session.get(SavedAddress, account.id)
    return _address(row) if row else None


def _address(row: SavedAddress) -> AddressRead:
    return AddressRead(address_line=row.address_line, city=row.city, state=row.state, zip_code=row.zip_code)


async def save_address(
    *, session: AsyncSession, actor: Principal, address_line: str, city: str, state: str, zip_code: str
) -> AddressRead:
    """Save the account's visit address (the checks checkout makes for a visit at home)."""
    account = await require_account(session=session, actor=actor)
    problems = address_problems(
        ServiceLocation.home,
        zip_code=(zip_code or "")[:16],
        address_line=(address_line or "")[:400],
        city=(city or "")[:200],
        state=(state or "")[:8],
    )
    if problems:
        raise ValidationFailed(" ".join(problems.values()))
    values = {
        "address_line": " ".join(address_line.split()),
        "city": " ".join(city.split()),
        "state": state.strip().upper(),
        "zip_code": zip_code.strip(),
    }
    row = await session.get(SavedAddress, account.id)
    if row is None:
        row = SavedAddress(user_id=account.id, **values)
        session.add(row)
    else:
        for key, value in values.items():
            setattr(row, key, value)
    await session.flush()
    return _address(row)


async def remove_address(*, session: AsyncSession, actor: Principal) -> None:
    account = await require_account(session=session, actor=actor)
    await session.execute(delete(SavedAddress).where(SavedAddress.user_id == account.id))


async def request_email_change(*, session: AsyncSession, actor: Principal, new_email: str) -> AccountStatus:
    """Start the identity service's secure e-mail change: a link to the new address and one to the current
    one; the address changes only once both are followed (app/auth/otp.py), and the old one is told."""
    identity = await require_identity(session=session, actor=actor)
    wanted = (new_email or "").strip().lower()
    if not wanted:
        raise ValidationFailed(ENTER_EMAIL)
    if len(wanted) > MAX_EMAIL:
        raise ValidationFailed(f"An e-mail address has at most {MAX_EMAIL} characters.")
    if wanted == (identity.user.email or "").lower():
        raise ValidationFailed(SAME_EMAIL)
    settings = get_settings()
    try:
        await update_user(
            session=session,
            actor=identity,
            origin=_invite_origin(),
            email=wanted,
            redirect_to=settings.site_url.rstrip("/") + "/dashboard/settings",
        )
    except AuthApiError as exc:
        raise ValidationFailed(_email_change_refusal(exc)) from exc
    # The identity core audits the request (AuditAction.email_change_request), once.
    return await get_account_status(session=session, actor=actor)


def _email_change_refusal(exc: AuthApiError) -> str:
    return {
        "email_exists": "Another account already uses that e-mail address.",
        "validation_failed": "Please enter a valid e-mail address, like name@example.com.",
        "email_address_invalid": "Please enter a valid e-mail address, like name@example.com.",
        "over_email_send_rate_limit": "We just sent you a link. Please wait a minute before asking again.",
        "insufficient_aal": "Sign in with your authenticator code first, then change your e-mail address.",
    }.get(exc.code, "We could not start the e-mail change. Please check the address and try again.")


async def cancel_email_change(*, session: AsyncSession, actor: Principal) -> AccountStatus:
    """Forget a pending e-mail change: its links stop working."""
    account = await require_account(session=session, actor=actor)
    await session.execute(update(User).where(User.id == account.id).values(email_change=None))
    await session.execute(
        delete(OneTimeToken).where(
            OneTimeToken.user_id == account.id, OneTimeToken.token_type.like("email_change%")
        )
    )
    return await get_account_status(session=session, actor=actor)


# ---- deletion ---------------------------------------------------------------------------------------
async def _upcoming_visits_refusal(session: AsyncSession, account: AccountRead, moment: datetime) -> str:
    """Why the account may not be deleted now (upcoming visits, as provider or patient), or ''."""
    upcoming = Appointment.status.in_(UPCOMING) & (Appointment.ends_at > moment)
    as_provider = exists(
        select(Appointment.id)
        .join(Provider, Provider.id == Appointment.provider_id)
        .where(Provider.user_id == account.id, upcoming)
    )
    if await session.scalar(select(as_provider)):
        return PROVIDER_HAS_VISITS
    as_patient = exists(select(Appointment.id).where(Appointment.patient_id == account.id, upcoming))
    if await session.scalar(select(as_patient)):
        return PATIENT_HAS_VISITS
    return ""


async def request_account_deletion(
    *, session: AsyncSession, actor: Principal, confirm_email: str, now: datetime | None = None
) -> AccountStatus:
    """Schedule the account's deletion after the grace period, once the person re-typed their e-mail
    address; every other session is signed out. Refused while visits are ahead."""
    account = await require_account(session=session, actor=actor)
    moment = now or utcnow()
    if (confirm_email or "")[:MAX_CONFIRMATION].strip().lower() != account.email.lower():
        raise ValidationFailed(WRONG_CONFIRMATION)
    refusal = await _upcoming_visits_refusal(session, account, moment)
    if refusal:
        raise ValidationFailed(refusal)
    state = await _state(session, account.id)
    if state.deletion_due_at is not None:
        raise ValidationFailed(ALREADY_SCHEDULED)
    due = moment + timedelta(days=get_settings().account_deletion_grace_days)
    state.deletion_requested_at, state.deletion_due_at = moment, due
    ended = await delete_other_sessions(session, user_id=account.id, keep=actor.session_id)
    await audit_own(
        session, account, actor, AuditAction.deletion_request, due=due.isoformat(), sessions_ended=ended
    )
    return await get_account_status(session=session, actor=actor)


async def cancel_account_deletion(*, session: AsyncSession, actor: Principal) -> AccountStatus:
    account = await require_account(session=session, actor=actor)
    state = await _state(session, account.id)
    if state.deletion_due_at is not None:
        state.deletion_requested_at = state.deletion_due_at = None
        await audit_own(session, account, actor, AuditAction.deletion_cancel)
    return await get_account_status(session=session, actor=actor)


async def delete_due_accounts(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None, limit: int = 100
) -> int:
    """The periodic job (`SYSTEM` only): anonymise the accounts whose grace period is over. An account
    that has visits ahead again (booked during the grace period) waits for them. Answers how many."""
    if not actor.is_system:
        raise PermissionDenied("Only the system deletes accounts.")
    moment = now or utcnow()
    due = await session.scalars(
        select(AccountState.user_id)
        .where(AccountState.deletion_due_at <= moment, AccountState.deleted_at.is_(None))
        .order_by(AccountState.deletion_due_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    done = 0
    for user_id in list(due):
        user = await load_user_row(session, user_id)
        if user is None:
            continue
        account = AccountRead(id=user.id, email=user.email or "")
        if await _upcoming_visits_refusal(session, account, moment):
            continue
        await _anonymise(session, user, moment)
        done += 1
    return done


async def _anonymise(session: AsyncSession, user: User, moment: datetime) -> None:
    user_id, old_email = user.id, user.email or ""
    await erase_person(session, user, moment)
    user.email = f"deleted-{user_id}@{DELETED_DOMAIN}"
    user.phone = None
    user.encrypted_password = None
    user.email_change = None
    user.raw_user_meta_data = {}
    user.raw_app_meta_data = {"deleted": True}
    user.banned_until = BANNED_FOREVER.replace(tzinfo=moment.tzinfo)
    state = await _state(session, user_id)
    state.deleted_at = moment
    await record(
        session=session,
        actor_id=None,
        actor_email="",
        action=AuditAction.account_delete,
        target=user_id,
        ip="",
        user_agent="",
        details={"had_email_domain": old_email.rpartition("@")[2]},
    )


# ---- the signed-in home's welcome -------------------------------------------------------------------
async def get_welcome(*, session: AsyncSession, actor: Principal) -> Welcome:
    """The VIP overlay (a VIP who has not seen it, on any browser) and the onboarding checklist (computed
    from the account's data; empty once everything is done or it was dismissed)."""
    account = await identity_account(session, actor)
    if account is None:
        return Welcome()
    state = await session.get(AccountState, account.id)
    show_vip = account.is_vip and (state is None or state.vip_welcome_seen_at is None)
    if state is not None and state.onboarding_dismissed_at is not None:
        return Welcome(show_vip=show_vip)
    items = await _checklist(session, account)
    if all(item.done for item in items):
        items = ()
    return Welcome(show_vip=show_vip, checklist=items)


async def identity_account(session: AsyncSession, actor: Principal) -> AccountRead | None:
    """The signed-in account, or None (a visitor, or a session that ended): the welcome shows nothing."""
    if await identity_of(session=session, actor=actor) is None:
        return None
    return await require_account(session=session, actor=actor)


async def _checklist(session: AsyncSession, account: AccountRead) -> tuple[ChecklistItem, ...]:
    if account.role == Role.patient:
        has_address = await session.get(SavedAddress, account.id) is not None
        booked = await session.scalar(
            select(exists(select(Appointment.id).where(Appointment.patient_id == account.id)))
        )
        return (
            ChecklistItem(
                key="address", title="Add your address", href="/dashboard/settings#address", done=has_address
            ),
            ChecklistItem(key="booking", title="Book your first visit", href="/services", done=bool(booked)),
        )
    if account.role == Role.provider:
        has_hours = await session.scalar(
            select(
                exists(
                    select(WeeklyHours.id)
                    .join(Provider, Provider.id == WeeklyHours.provider_id)
                    .where(Provider.user_id == account.id)
                )
            )
        )
        return (
            ChecklistItem(
                key="enrollment",
                title="Finish your enrollment",
                href="/provider-enrollment",
                done=account.enrollment_complete,
            ),
            ChecklistItem(
                key="hours", title="Set your working hours", href="/dashboard/services", done=bool(has_hours)
            ),
        )
    return ()


async def dismiss_vip_welcome(*, session: AsyncSession, actor: Principal) -> None:
    """The VIP overlay was seen: it does not show again, on this browser or any other."""
    account = await require_account(session=session, actor=actor)
    state = await _state(session, account.id)
    if state.vip_welcome_seen_at is None:
        state.vip_welcome_seen_at = utcnow()


async def dismiss_onboarding(*, session: AsyncSession, actor: Principal) -> None:
    account = await require_account(session=session, actor=actor)
    state = await _state(session, account.id)
    if state.onboarding_dismissed_at is None:
        state.onboarding_dismissed_at = utcnow()
