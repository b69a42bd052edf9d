"""The operator's and administrators' account tools: accounts from the command line, roles, the provider
enrolment flag and demo accounts. Roles and flags are written to the server-controlled `app_metadata` only.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.auth.common import normalize_email
from app.auth.errors import AuthApiError
from app.auth.passwords import check_new_password, hash_password
from app.auth.sessions import find_user_by_email
from app.auth.users import create_email_user, mark_email_verified
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.shared.accounts import account_of, is_admin
from app.services.shared.privilege import OWNER_ROLES_DENIED, require_may_give_role
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.account import AccountRead, Role
from models.audit import AuditAction
from models.identity import User

# ---- administration: accounts from the command line, roles, flags -----------------------------
ROLE_DENIED = "Only an owner or admin can change roles."
OWNER_ONLY_ROLE = OWNER_ROLES_DENIED
OWN_ROLE = "You cannot change your own role."
ACCOUNT_EXISTS = "An account with this e-mail address already exists."
ACCOUNT_NOT_FOUND = "No account has this e-mail address."


def _role(value: Role | str) -> Role:
    try:
        return Role(value)
    except ValueError:
        choices = ", ".join(r.value for r in Role)
        raise ValidationFailed(f"Unknown role {value!r}; choose one of {choices}.") from None


def _email(value: object) -> str:
    try:
        return normalize_email(value)
    except AuthApiError as exc:
        raise ValidationFailed(exc.message) from None


def split_name(name: str | None) -> dict[str, str]:
    """SPEC §5: the first word is the first name, the rest the last name."""
    first, _, last = (name or "").strip().partition(" ")
    return {k: v for k, v in {"first_name": first.strip(), "last_name": last.strip()}.items() if v}


async def _user_by_email(session: AsyncSession, email: str) -> User:
    user = await find_user_by_email(session, _email(email))
    if user is None:
        raise NotFound(ACCOUNT_NOT_FOUND)
    return user


async def create_account(
    *,
    session: AsyncSession,
    email: str,
    password: str,
    role: Role | str,
    name: str | None = None,
    confirmed: bool = True,
) -> AccountRead:
    """A password account with a role, made by the operator (`python -m medivisit users create`, demo seeding).

    No actor: this is for the command line and seeders only, never for a screen. The identity service's
    own rules apply (e-mail format, password strength, argon2id hashing).
    """
    email = _email(email)
    role = _role(role)
    try:
        await check_new_password(password, user_inputs=[email, name or ""])
    except AuthApiError as exc:
        raise ValidationFailed(exc.message) from None
    if await find_user_by_email(session, email) is not None:
        raise ValidationFailed(ACCOUNT_EXISTS)
    user = await create_email_user(
        session, email=email, password_hash=await hash_password(password), data=split_name(name)
    )
    user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "role": role.value}
    if confirmed:
        await mark_email_verified(session, user)
    await session.flush()
    await audit.record(
        session=session,
        actor_id=None,
        actor_email="",
        action=AuditAction.account_create,
        target=email,
        ip="",
        user_agent="",
        details={"role": role.value, "confirmed": confirmed},
    )
    return account_of(user)


async def set_role(*, session: AsyncSession, actor: Principal, email: str, role: Role | str) -> AccountRead:
    """Give the account at `email` a role (written to app_metadata only).

    `SYSTEM` is the command line and may give any role. A signed-in actor must be an owner or admin
    (re-checked now), never on their own account, and gives only what they hold (`apply_role`).
    """
    by = None if actor.is_system else await require_account(session=session, actor=actor)
    if by is not None and not is_admin(by):
        raise PermissionDenied(ROLE_DENIED)
    user = await _user_by_email(session, email)
    return await apply_role(session=session, by=by, user_id=user.id, role=role, actor=actor)


async def apply_role(
    *,
    session: AsyncSession,
    by: AccountRead | None,
    user_id: str,
    role: Role | str,
    actor: Principal | None = None,
) -> AccountRead:
    """The role change itself, for a caller that has already checked `by` may change roles at all
        (`set_role`: an administrator; staff management: manage_staff; enrolment: a reviewer); `by=None` is the
        operator. Here the shared rule (app/services/_privilege.py): `by` gives only a role whose permissions
        they hold, to an account that holds nothing they lack (the owner and admin roles, and accounts with
        administration rights, are an owner's); a refusal is audited. `actor` is the connection it came through.
    The account is found by id: one without an e-mail address (signed up by phone) has its role changed too."""
    role = _role(role)
    user = await session.get(User, user_id)
    if user is None:
        raise NotFound(ACCOUNT_NOT_FOUND)
    target = account_of(user)
    previous = target.role
    if by is not None:
        if by.id == user.id:
            raise PermissionDenied(OWN_ROLE)
        await require_may_give_role(session=session, by=by, role=role, target=target, actor=actor)
    user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "role": role.value}
    await session.flush()
    await audit.record(
        session=session,
        actor_id=by.id if by else None,
        actor_email=by.email if by else "",
        action=AuditAction.role_change,
        target=user.email,
        ip=actor.ip if actor is not None else "",
        user_agent=actor.user_agent if actor is not None else "",
        details={"from": previous.value, "to": role.value, "via": "ui" if by else "command line"},
    )
    return account_of(user)


async def mark_enrollment_complete(*, session: AsyncSession, user_id: str) -> AccountRead:
    """Record that a provider finished enrolment (`enrollment_complete` in app_metadata)."""
    user = await session.get(User, user_id)
    if user is None:
        raise NotFound("No account has this id.")
    user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "enrollment_complete": True}
    await session.flush()
    return account_of(user)


# ---- demo accounts (`python -m medivisit seed --demo`; never in production) --------------------------
DEMO_PASSWORD = "Demo-MediVisit-1"
DEMO_DOMAIN = "demo.medivisit.test"
DEMO_PEOPLE = {
    Role.patient: "Jordan Lee",
    Role.provider: "Priya Shah",
    Role.owner: "Olivia Bennett",
    Role.admin: "Adrian Cole",
    Role.management: "Morgan Hayes",
    Role.hr: "Harper Quinn",
    Role.support: "Sam Rivera",
}


def demo_email(role: Role) -> str:
    return f"{role.value}@{DEMO_DOMAIN}"


async def create_demo_accounts(*, session: AsyncSession) -> list[AccountRead]:
    """One confirmed account per role, all with DEMO_PASSWORD; existing ones are left as they are."""
    if get_settings().is_production:
        raise PermissionDenied("Demo accounts are never created with APP_ENV=production.")
    accounts: list[AccountRead] = []
    for role, name in DEMO_PEOPLE.items():
        existing = await find_user_by_email(session, demo_email(role))
        if existing is not None:
            accounts.append(account_of(existing))
            continue
        account = await create_account(
            session=session, email=demo_email(role), password=DEMO_PASSWORD, role=role, name=name
        )
        if role == Role.provider:
            account = await mark_enrollment_complete(session=session, user_id=account.id)
        accounts.append(account)
    return accounts


# Patients of the demo marketplace who book and review visits; nobody signs in as them (no password).
DEMO_PATIENT_DOMAIN = f"patients.{DEMO_DOMAIN}"


async def create_demo_patients(*, session: AsyncSession, names: list[str]) -> list[AccountRead]:
    """A confirmed patient account without a password for each name (first.last@DEMO_PATIENT_DOMAIN);
    existing ones are left as they are. Never in production."""
    if get_settings().is_production:
        raise PermissionDenied("Demo accounts are never created with APP_ENV=production.")
    accounts: list[AccountRead] = []
    for name in names:
        email = f"{name.lower().replace(' ', '.')}@{DEMO_PATIENT_DOMAIN}"
        user = await find_user_by_email(session, email)
        if user is None:
            user = await create_email_user(session, email=email, password_hash=None, data=split_name(name))
            user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "role": Role.patient.value}
            await mark_email_verified(session, user)
        accounts.append(account_of(user))
    await session.flush()
    return accounts
