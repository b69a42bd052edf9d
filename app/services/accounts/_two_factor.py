"""Two-factor authentication settings of the signed-in user: whether a TOTP factor is on, and starting an
enrolment (the QR code and secret) through the identity service (`app.auth.mfa`).

Confirming the code (aal2) and turning the factor off are browser form posts (`/auth/mfa/enable`,
`/auth/mfa/disable` in app/auth/browser.py): both rotate the session's refresh token, which only an HTTP
answer can hand back to the browser's cookies.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import mfa
from app.auth.common import RequestOrigin
from app.principal import Principal
from app.services.errors import ValidationFailed
from app.services.shared.signed_in import require_identity
from models.account import TotpSetup, TwoFactorStatus

ALREADY_ON = "Two-factor authentication is already on."
FRIENDLY_NAME = "Authenticator app"


async def get_two_factor(*, session: AsyncSession, actor: Principal) -> TwoFactorStatus:
    identity = await require_identity(session=session, actor=actor)
    verified = next(
        (f for f in identity.user.factors if f.factor_type == "totp" and f.status == "verified"), None
    )
    return TwoFactorStatus(enabled=verified is not None, factor_id=verified.id if verified else None)


async def start_totp_setup(*, session: AsyncSession, actor: Principal) -> TotpSetup:
    """A new unverified TOTP factor; abandoned earlier attempts are removed first."""
    identity = await require_identity(session=session, actor=actor)
    if identity.user.has_verified_factor:
        raise ValidationFailed(ALREADY_ON)
    origin = RequestOrigin()
    for factor in identity.user.factors:
        if factor.status == "unverified":
            await mfa.unenroll(session=session, actor=identity, factor_id=factor.id, origin=origin)
    enrollment = await mfa.enroll(
        session=session, actor=identity, factor_type="totp", friendly_name=FRIENDLY_NAME, origin=origin
    )
    return TotpSetup(
        factor_id=enrollment.factor.id,
        qr_code=enrollment.qr_code,
        secret=enrollment.secret,
        uri=enrollment.uri,
    )
