"""Identity tables of the built-in /auth/v1 service (the Supabase Auth / GoTrue data model), and their
read schemas.

Table names carry an `auth_` prefix: GoTrue keeps them in an `auth` schema, which SQLite lacks.
Secrets are never stored in the clear: refresh tokens and e-mail OTPs are kept as hashes, passwords as
argon2id hashes. Deleting a user cascades to everything below; deleting a session cascades to its
refresh tokens and AMR claims.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, overload

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Boolean, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.base import Base, created_at_column, id_column, utcnow


def _updated_at_column() -> Mapped[datetime]:
    return mapped_column(default=utcnow, onupdate=utcnow)


class User(Base):
    __tablename__ = "auth_users"

    id: Mapped[str] = id_column()
    aud: Mapped[str] = mapped_column(String(255), default="authenticated")
    role: Mapped[str] = mapped_column(String(255), default="authenticated")
    email: Mapped[str | None] = mapped_column(String(320), unique=True, default=None)
    phone: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    encrypted_password: Mapped[str | None] = mapped_column(String(255), default=None)
    email_confirmed_at: Mapped[datetime | None] = mapped_column(default=None)
    phone_confirmed_at: Mapped[datetime | None] = mapped_column(default=None)
    invited_at: Mapped[datetime | None] = mapped_column(default=None)
    confirmation_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    recovery_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    email_change: Mapped[str | None] = mapped_column(String(320), default=None)
    email_change_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    reauthentication_sent_at: Mapped[datetime | None] = mapped_column(default=None)
    last_sign_in_at: Mapped[datetime | None] = mapped_column(default=None)
    banned_until: Mapped[datetime | None] = mapped_column(default=None)
    raw_app_meta_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    raw_user_meta_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    is_anonymous: Mapped[bool] = mapped_column(Boolean, default=False)
    is_sso_user: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = _updated_at_column()

    identities: Mapped[list[Identity]] = relationship(
        back_populates="user",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="Identity.created_at",
    )
    factors: Mapped[list[MfaFactor]] = relationship(
        back_populates="user",
        cascade="all, delete-orphan",
        passive_deletes=True,
        order_by="MfaFactor.created_at",
    )


class Identity(Base):
    __tablename__ = "auth_identities"
    __table_args__ = (UniqueConstraint("provider_id", "provider", name="uq_auth_identities_provider_id"),)

    id: Mapped[str] = id_column()
    provider_id: Mapped[str] = mapped_column(String(255))  # the provider's subject; the user id for email
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    identity_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    provider: Mapped[str] = mapped_column(String(64))
    email: Mapped[str | None] = mapped_column(String(320), default=None, index=True)
    last_sign_in_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = _updated_at_column()

    user: Mapped[User] = relationship(back_populates="identities")


class AuthSession(Base):
    """A signed-in device: one per sign-in, the `session_id` claim of its access tokens."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    aal: Mapped[str] = mapped_column(String(8), default="aal1")
    factor_id: Mapped[str | None] = mapped_column(String(36), default=None)
    not_after: Mapped[datetime | None] = mapped_column(default=None)
    refreshed_at: Mapped[datetime | None] = mapped_column(default=None)
    # The person's last activity (a page load, or input the tab reported): automatic logoff after inactivity.
    active_at: Mapped[datetime | None] = mapped_column(default=None)
    user_agent: Mapped[str | None] = mapped_column(String(512), default=None)
    ip: Mapped[str | None] = mapped_column(String(64), default=None)
    tag: Mapped[str | None] = mapped_column(String(255), default=None)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = _updated_at_column()


class RefreshToken(Base):
    __tablename__ = "auth_refresh_tokens"

    id: Mapped[str] = id_column()
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 hex of the opaque token
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("auth_sessions.id", ondelete="CASCADE"), index=True)
    parent: Mapped[str | None] = mapped_column(String(64), default=None, index=True)  # the parent's hash
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = _updated_at_column()


class MfaAmrClaim(Base):
    """How a session was authenticated (`amr` claim): password, otp, totp, ..."""

    __tablename__ = "auth_mfa_amr_claims"
    __table_args__ = (
        UniqueConstraint("session_id", "authentication_method", name="uq_auth_mfa_amr_claims_session_method"),
    )

    id: Mapped[str] = id_column()
    session_id: Mapped[str] = mapped_column(ForeignKey("auth_sessions.id", ondelete="CASCADE"), index=True)
    authentication_method: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = _updated_at_column()


class MfaFactor(Base):
    __tablename__ = "auth_mfa_factors"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    friendly_name: Mapped[str] = mapped_column(String(255), default="")
    factor_type: Mapped[str] = mapped_column(String(16), default="totp")
    status: Mapped[str] = mapped_column(String(16), default="unverified")
    secret: Mapped[str] = mapped_column(String(255))
    phone: Mapped[str] = mapped_column(String(32), default="")
    last_challenged_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = _updated_at_column()

    user: Mapped[User] = relationship(back_populates="factors")


class MfaChallenge(Base):
    __tablename__ = "auth_mfa_challenges"

    id: Mapped[str] = id_column()
    factor_id: Mapped[str] = mapped_column(ForeignKey("auth_mfa_factors.id", ondelete="CASCADE"), index=True)
    ip_address: Mapped[str] = mapped_column(String(64), default="")
    verified_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class OneTimeToken(Base):
    """An e-mail OTP / link token: `token_hash` is hex(sha224(email + otp)), `pkce_`-prefixed under PKCE."""

    __tablename__ = "auth_one_time_tokens"
    __table_args__ = (UniqueConstraint("user_id", "token_type", name="uq_auth_one_time_tokens_user_type"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), index=True)
    # confirmation_token, recovery_token, email_change_token_new, reauthentication_token
    token_type: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(Text, index=True)
    relates_to: Mapped[str] = mapped_column(String(320))  # the address the token was sent to
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = _updated_at_column()


class FlowState(Base):
    """A PKCE flow: the `code_challenge` of a sign-up / magic link / recovery and the auth code it yields."""

    __tablename__ = "auth_flow_states"

    id: Mapped[str] = id_column()
    user_id: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="CASCADE"), default=None, index=True
    )
    auth_code: Mapped[str] = mapped_column(String(64), unique=True)
    code_challenge: Mapped[str] = mapped_column(String(128))
    code_challenge_method: Mapped[str] = mapped_column(String(8))
    provider_type: Mapped[str] = mapped_column(String(32), default="email")
    authentication_method: Mapped[str] = mapped_column(String(32))
    auth_code_issued_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = _updated_at_column()


# ---- read schemas ------------------------------------------------------------------------------
@overload
def as_utc(value: datetime) -> datetime: ...
@overload
def as_utc(value: None) -> None: ...
@overload
def as_utc(value: datetime | None) -> datetime | None: ...
def as_utc(value: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; every stored time is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


def rfc3339(value: datetime | None) -> str | None:
    value = as_utc(value)
    return None if value is None else value.astimezone(UTC).isoformat().replace("+00:00", "Z")


class IdentityRead(BaseModel):
    identity_id: str
    id: str
    user_id: str
    identity_data: dict[str, Any]
    provider: str
    email: str | None
    last_sign_in_at: datetime | None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: Identity) -> IdentityRead:
        return cls(
            identity_id=row.id,
            id=row.provider_id,
            user_id=row.user_id,
            identity_data=dict(row.identity_data or {}),
            provider=row.provider,
            email=row.email,
            last_sign_in_at=as_utc(row.last_sign_in_at),
            created_at=as_utc(row.created_at),
            updated_at=as_utc(row.updated_at),
        )

    def wire(self) -> dict[str, Any]:
        data = {
            "identity_id": self.identity_id,
            "id": self.id,
            "user_id": self.user_id,
            "identity_data": self.identity_data,
            "provider": self.provider,
            "last_sign_in_at": rfc3339(self.last_sign_in_at),
            "created_at": rfc3339(self.created_at),
            "updated_at": rfc3339(self.updated_at),
        }
        if self.email:
            data["email"] = self.email
        return data


class FactorRead(BaseModel):
    id: str
    friendly_name: str
    factor_type: str
    status: str
    phone: str
    last_challenged_at: datetime | None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: MfaFactor) -> FactorRead:
        return cls(
            id=row.id,
            friendly_name=row.friendly_name or "",
            factor_type=row.factor_type,
            status=row.status,
            phone=row.phone or "",
            last_challenged_at=as_utc(row.last_challenged_at),
            created_at=as_utc(row.created_at),
            updated_at=as_utc(row.updated_at),
        )

    def wire(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "friendly_name": self.friendly_name,
            "factor_type": self.factor_type,
            "status": self.status,
            "created_at": rfc3339(self.created_at),
            "updated_at": rfc3339(self.updated_at),
            "phone": self.phone,
        }
        if self.last_challenged_at:
            data["last_challenged_at"] = rfc3339(self.last_challenged_at)
        return data


_OPTIONAL_TIMES = (
    "email_confirmed_at",
    "phone_confirmed_at",
    "confirmed_at",
    "confirmation_sent_at",
    "recovery_sent_at",
    "email_change_sent_at",
    "last_sign_in_at",
    "banned_until",
)


class UserRead(BaseModel):
    """A user as GoTrue shows it (`models.User`)."""

    model_config = ConfigDict(frozen=True)

    id: str
    aud: str
    role: str
    email: str
    phone: str
    app_metadata: dict[str, Any]
    user_metadata: dict[str, Any]
    identities: list[IdentityRead]
    factors: list[FactorRead]
    created_at: datetime
    updated_at: datetime
    is_anonymous: bool
    email_confirmed_at: datetime | None = None
    phone_confirmed_at: datetime | None = None
    confirmation_sent_at: datetime | None = None
    recovery_sent_at: datetime | None = None
    new_email: str | None = None
    email_change_sent_at: datetime | None = None
    last_sign_in_at: datetime | None = None
    banned_until: datetime | None = None

    @property
    def confirmed_at(self) -> datetime | None:
        return self.email_confirmed_at or self.phone_confirmed_at

    @property
    def has_verified_factor(self) -> bool:
        return any(f.status == "verified" for f in self.factors)

    @classmethod
    def of(cls, row: User) -> UserRead:
        """`row` must have `identities` and `factors` loaded."""
        return cls(
            id=row.id,
            aud=row.aud,
            role=row.role,
            email=row.email or "",
            phone=row.phone or "",
            app_metadata=dict(row.raw_app_meta_data or {}),
            user_metadata=dict(row.raw_user_meta_data or {}),
            identities=[IdentityRead.of(i) for i in row.identities],
            factors=[FactorRead.of(f) for f in row.factors],
            created_at=as_utc(row.created_at),
            updated_at=as_utc(row.updated_at),
            is_anonymous=bool(row.is_anonymous),
            email_confirmed_at=as_utc(row.email_confirmed_at),
            phone_confirmed_at=as_utc(row.phone_confirmed_at),
            confirmation_sent_at=as_utc(row.confirmation_sent_at),
            recovery_sent_at=as_utc(row.recovery_sent_at),
            new_email=row.email_change or None,
            email_change_sent_at=as_utc(row.email_change_sent_at),
            last_sign_in_at=as_utc(row.last_sign_in_at),
            banned_until=as_utc(row.banned_until),
        )

    def wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "aud": self.aud,
            "role": self.role,
            "email": self.email,
            "phone": self.phone,
            "app_metadata": self.app_metadata,
            "user_metadata": self.user_metadata,
            "identities": [i.wire() for i in self.identities],
            "created_at": rfc3339(self.created_at),
            "updated_at": rfc3339(self.updated_at),
            "is_anonymous": self.is_anonymous,
        }
        for name in _OPTIONAL_TIMES:
            value = getattr(self, name)
            if value is not None:
                data[name] = rfc3339(value)
        if self.new_email:
            data["new_email"] = self.new_email
        if self.factors:
            data["factors"] = [f.wire() for f in self.factors]
        return data


class AuthSessionRead(BaseModel):
    """A signed-in session as GoTrue answers it (`AccessTokenResponse`)."""

    access_token: str
    token_type: str = "bearer"
    expires_in: int
    expires_at: int
    refresh_token: str
    user: UserRead
    session_id: str
    aal: str
    weak_password: dict[str, Any] | None = None

    def wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "expires_in": self.expires_in,
            "expires_at": self.expires_at,
            "refresh_token": self.refresh_token,
            "user": self.user.wire(),
        }
        if self.weak_password:
            data["weak_password"] = self.weak_password
        return data
