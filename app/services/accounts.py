"""Accounts: the identity record mapped to the product's User (SPEC §3, §6), reading it back, and the
operator's tools: accounts from the command line, roles, the provider enrolment flag and demo accounts.

Roles and flags are written to the identity's server-controlled `app_metadata` only; user_metadata (which
the user may write) never grants anything.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.common import normalize_email
from app.auth.errors import AuthApiError
from app.auth.passwords import check_new_password, hash_password
from app.auth.sessions import find_user_by_email
from app.auth.users import create_email_user, mark_email_verified
from app.services import audit
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.settings import get_settings
from models.account import ADMIN_ROLES, AccountRead, Role
from models.audit import AuditAction
from models.identity import User

# Keys of user_metadata that are the profile; everything else a user stores there is public metadata.
PROFILE_KEYS = ("first_name", "last_name", "profile_image", "organization", "phone_number")


def owner_emails() -> frozenset[str]:
    return frozenset(e.strip().lower() for e in get_settings().owner_emails.split(",") if e.strip())


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def map_account(*, user_id: str, email: str, app_metadata: dict, user_metadata: dict) -> AccountRead:
    """SPEC §6: role from server-controlled metadata, else owner for an owner e-mail, else patient.

    Owner e-mails also get isMasterAdmin, isVip and hasFreeAccess; for everyone else those flags come
    from app_metadata and default to false. Nothing in user_metadata can grant a role or a flag.
    """
    is_owner_email = email.lower() in owner_emails()
    try:
        role = Role(app_metadata.get("role"))
    except ValueError:
        role = Role.owner if is_owner_email else Role.patient
    first, last = _text(user_metadata.get("first_name")), _text(user_metadata.get("last_name"))

    def flag(name: str) -> bool:
        return is_owner_email or app_metadata.get(name) is True

    return AccountRead(
        id=user_id,
        email=email,
        name=" ".join(part for part in (first, last) if part) or "User",
        first_name=first,
        last_name=last,
        role=role,
        profile_image=_text(user_metadata.get("profile_image")),
        is_master_admin=flag("is_master_admin"),
        is_vip=flag("is_vip"),
        has_free_access=flag("has_free_access"),
        organization=_text(user_metadata.get("organization")),
        phone_number=_text(user_metadata.get("phone_number")),
        exclusive_service_regions=_strings(app_metadata.get("exclusive_service_regions")),
        exclusive_services=_strings(app_metadata.get("exclusive_services")),
        public_metadata={
            k: v
            for k, v in user_metadata.items()
            if k not in PROFILE_KEYS and k not in {"sub", "email", "email_verified", "phone_verified"}
        },
        enrollment_complete=app_metadata.get("enrollment_complete") is True,
    )


def account_of(user: User) -> AccountRead:
    return map_account(
        user_id=user.id,
        email=user.email or "",
        app_metadata=user.raw_app_meta_data or {},
        user_metadata=user.raw_user_meta_data or {},
    )


async def get_account(*, session: AsyncSession, user_id: str) -> AccountRead | None:
    user = await session.get(User, user_id)
    return account_of(user) if user is not None else None


# ---- administration: accounts from the command line, roles, flags -----------------------------
ROLE_DENIED = "Only an owner or admin can change roles."
OWNER_ONLY_ROLE = "Only an owner can grant or take away the owner and admin roles."
OWN_ROLE = "You cannot change your own role."
ACCOUNT_EXISTS = "An account with this e-mail address already exists."
ACCOUNT_NOT_FOUND = "No account has this e-mail address."


def is_owner(actor: AccountRead | None) -> bool:
    """Owner rights: the owner role, or the master-admin flag (OWNER_EMAILS)."""
    return actor is not None and (actor.role == Role.owner or actor.is_master_admin)


def is_admin(actor: AccountRead | None) -> bool:
    """Administration rights (SPEC §6): owner, admin or master admin."""
    return actor is not None and (actor.role in ADMIN_ROLES or actor.is_master_admin)


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
    """A password account with a role, made by the operator (`python -m app users create`, demo seeding).

    No actor: this is for the command line and seeders only, never for a screen. The identity service's
    own rules apply (e-mail format, password strength, argon2id hashing).
    """
    email = _email(email)
    role = _role(role)
    try:
        check_new_password(password)
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


async def set_role(
    *,
    session: AsyncSession,
    actor: AccountRead | None,
    email: str,
    role: Role | str,
    staff_manager: bool = False,
) -> AccountRead:
    """Give the account at `email` a role (written to app_metadata only).

    `actor=None` is the command line. Otherwise only an owner or admin may, never on their own account,
    and only an owner may grant owner or admin or change the role of an owner or admin.
    `staff_manager=True` is staff management (app.services.staff), which has checked that the actor
    holds manage_staff: that also lets them change roles, within the same limits.
    """
    role = _role(role)
    if actor is not None and not (staff_manager or is_admin(actor)):
        raise PermissionDenied(ROLE_DENIED)
    user = await _user_by_email(session, email)
    previous = account_of(user).role
    if actor is not None:
        if actor.id == user.id:
            raise PermissionDenied(OWN_ROLE)
        if (role in ADMIN_ROLES or previous in ADMIN_ROLES) and not is_owner(actor):
            raise PermissionDenied(OWNER_ONLY_ROLE)
    user.raw_app_meta_data = {**(user.raw_app_meta_data or {}), "role": role.value}
    await session.flush()
    await audit.record(
        session=session,
        actor_id=actor.id if actor else None,
        actor_email=actor.email if actor else "",
        action=AuditAction.role_change,
        target=user.email,
        ip="",
        user_agent="",
        details={"from": previous.value, "to": role.value, "via": "ui" if actor else "command line"},
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


# ---- demo accounts (`python -m app seed --demo`; never in production) --------------------------
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
