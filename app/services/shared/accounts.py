"""The identity record mapped to the product's account (SPEC §3, §6), reading it back, and the rights its
role gives (owner, admin).

Roles and flags come from the identity's server-controlled `app_metadata` only; user_metadata (which the
user may write) never grants anything.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.settings import get_settings
from models.account import ADMIN_ROLES, AccountRead, Role
from models.identity import User

# Keys of user_metadata that are the profile; everything else a user stores there is public metadata.
PROFILE_KEYS = ("first_name", "last_name", "profile_image", "organization", "phone_number")


def owner_emails() -> frozenset[str]:
    return get_settings().owner_email_set


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def map_account(
    *, user_id: str, email: str, app_metadata: dict[str, Any], user_metadata: dict[str, Any]
) -> AccountRead:
    """SPEC §6: role from server-controlled metadata, else owner for an owner e-mail, else patient.

    Owner e-mails also get isMasterAdmin, isVip and hasFreeAccess; for everyone else those flags come
    from app_metadata and default to false. Nothing in user_metadata can grant a role or a flag.
    """
    is_owner_email = email.lower() in owner_emails()
    try:
        role = Role(app_metadata.get("role") or "")
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
        provider_applicant=app_metadata.get("provider_applicant") is True,
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


def is_owner(actor: AccountRead | None) -> bool:
    """Owner rights: the owner role, or the master-admin flag (OWNER_EMAILS)."""
    return actor is not None and (actor.role == Role.owner or actor.is_master_admin)


def is_admin(actor: AccountRead | None) -> bool:
    """Administration rights (SPEC §6): owner, admin or master admin."""
    return actor is not None and (actor.role in ADMIN_ROLES or actor.is_master_admin)
