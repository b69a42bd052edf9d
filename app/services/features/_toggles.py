"""Reading and switching feature toggles: administrators (owner, admin, master admin) and staff holding
toggle_features. A change is audited and published after commit, so every process applies it at once
(app/flags.py); resetting a toggle gives the server's setting back."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events, flags
from app.auth.common import normalize_email
from app.auth.errors import AuthApiError
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features import _payment_modes as payment_modes
from app.services.features._catalogue import BUSINESS, BY_KEY, FEATURES, Feature
from app.services.shared.accounts import is_admin, is_owner
from app.services.shared.signed_in import require_account
from app.services.shared.staff_access import permissions_of
from app.services.validation import amount_cents
from models.account import AccountRead
from models.audit import AuditAction
from models.base import utcnow
from models.feature import FeatureRead, FeatureSetting
from models.identity import User, as_utc
from models.staff import Permission

DENIED = "You don't have the toggle_features permission."
OWNERS_ONLY = "Only owners and admins change the business settings."
UNKNOWN = "There is no such feature toggle."
BAD_SWITCH = "Choose on or off."
BAD_CHOICE = "Choose one of the options."
BAD_DATE = "Enter a date as YYYY-MM-DD, or leave it empty for every day."
BAD_EMAIL = "Enter an e-mail address, like support@example.com."
BAD_MINUTES = "Enter a whole number of minutes from 0 to 240."
MAX_MINUTES = 240
BAD_COUNT = "Enter a whole number from 1 to 20."
MAX_COUNT = 20
MAX_PERCENT = 25
PERCENT_DECIMALS = 3  # sales tax rates such as New York City's 8.875 %
BAD_PERCENT = "Enter a percentage from 0 to 25 with at most three decimals, e.g. 2.5 or 8.875."
MAX_MONEY_CENTS = 50_000
BAD_MONEY = "Enter an amount in dollars from $0.00 to ${most}, e.g. 6.95."


def checked_percent(value: Any) -> str:
    """A percentage as typed ("2.5", "8.875 %") in its stored form ("2.5"), or ValidationFailed."""
    text = str(value if value is not None else "").strip().removesuffix("%").strip()
    if not text or len(text) > 16:
        raise ValidationFailed(BAD_PERCENT)
    try:
        percent = Decimal(text)
    except InvalidOperation:
        raise ValidationFailed(BAD_PERCENT) from None
    if not percent.is_finite() or not 0 <= percent <= MAX_PERCENT:
        raise ValidationFailed(BAD_PERCENT)
    step = Decimal(1).scaleb(-PERCENT_DECIMALS)
    if percent != percent.quantize(step):  # compared once the range is known: quantizing 1e30 raises
        raise ValidationFailed(BAD_PERCENT)
    stored = f"{percent.quantize(step):f}".rstrip("0").rstrip(".")
    return stored or "0"


def checked_money(value: Any, most_cents: int = MAX_MONEY_CENTS) -> str:
    """Dollars as typed ("$6.95", "75") in their stored form ("6.95", "75.00"), or ValidationFailed; at most
    `most_cents` (the setting's own cap: `Feature.most_cents`)."""
    message = BAD_MONEY.format(most=f"{most_cents // 100:,}.{most_cents % 100:02d}")
    cents = amount_cents(str(value if value is not None else ""), message=message, most=most_cents)
    return f"{cents // 100}.{cents % 100:02d}"


async def _toggler(session: AsyncSession, actor: Principal) -> AccountRead:
    account = await require_account(session=session, actor=actor)
    if is_admin(account) or Permission.toggle_features in await permissions_of(
        session=session, account=account
    ):
        return account
    raise PermissionDenied(DENIED)


def _checked(feature: Feature, value: Any) -> Any:
    if feature.kind == "switch":
        if not isinstance(value, bool):
            raise ValidationFailed(BAD_SWITCH)
        return value
    if feature.kind == "choice":
        if value not in {key for key, _label in feature.choices}:
            raise ValidationFailed(BAD_CHOICE)
        return value
    if feature.kind == "email":
        try:
            return normalize_email(value)
        except AuthApiError:
            raise ValidationFailed(BAD_EMAIL) from None
    if feature.kind == "minutes":
        try:
            minutes = int(str(value).strip())
        except ValueError:
            raise ValidationFailed(BAD_MINUTES) from None
        if not 0 <= minutes <= MAX_MINUTES:
            raise ValidationFailed(BAD_MINUTES)
        return minutes
    if feature.kind == "count":
        try:
            count = int(str(value).strip())
        except ValueError:
            raise ValidationFailed(BAD_COUNT) from None
        if not 1 <= count <= MAX_COUNT:
            raise ValidationFailed(BAD_COUNT)
        return count
    if feature.kind == "percent":
        return checked_percent(value)
    if feature.kind == "money":
        return checked_money(value, feature.most_cents)
    text = str(value or "").strip()[:10]
    if text:
        try:
            text = date.fromisoformat(text).isoformat()
        except ValueError:
            raise ValidationFailed(BAD_DATE) from None
    return text


async def list_features(
    *, session: AsyncSession, actor: Principal, group: str = "toggle"
) -> list[FeatureRead]:
    """The console's toggles, or (`group="business"`, owners and admins) the business settings."""
    account = await _toggler(session, actor)
    if group == "business" and not (is_owner(account) or is_admin(account)):
        raise PermissionDenied(OWNERS_ONLY)
    catalogue = BUSINESS if group == "business" else FEATURES
    rows = {row.key: row for row in await session.scalars(select(FeatureSetting))}
    editors = {
        user.id: user
        for user in await session.scalars(
            select(User).where(User.id.in_({r.updated_by for r in rows.values() if r.updated_by}))
        )
    }
    return [_read(feature, rows.get(feature.key), editors) for feature in catalogue]


def _read(feature: Feature, row: FeatureSetting | None, editors: Mapping[str, User | None]) -> FeatureRead:
    editor = editors.get(row.updated_by) if row is not None and row.updated_by else None
    return FeatureRead(
        key=feature.key,
        label=feature.label,
        description=feature.description,
        kind=feature.kind,
        choices=list(feature.choices),
        value=row.value if row is not None else feature.default(),
        default=feature.default(),
        overridden=row is not None,
        updated_at=as_utc(row.updated_at) if row is not None else None,
        updated_by_name=(editor.email if editor is not None else None),
    )


async def _changeable(session: AsyncSession, actor: Principal, key: str) -> tuple[AccountRead, Feature]:
    """The signed-in toggler and the setting `key`, if they may change it (set it or reset it): a business
    setting only an owner or admin."""
    account = await _toggler(session, actor)
    feature = BY_KEY.get(key)
    if feature is None:
        raise NotFound(UNKNOWN)
    if feature.group == "business" and not (is_owner(account) or is_admin(account)):
        raise PermissionDenied(OWNERS_ONLY)
    return account, feature


async def set_feature(*, session: AsyncSession, actor: Principal, key: str, value: Any) -> FeatureRead:
    """Switch `key` to `value` for every process, now."""
    account, feature = await _changeable(session, actor, key)
    value = _checked(feature, value)
    if key == payment_modes.KEY:
        payment_modes.usable_choice(value)  # never a marketplace without a way to pay
    row = await session.get(FeatureSetting, key, with_for_update=True)
    before = row.value if row is not None else feature.default()
    if row is None:
        row = FeatureSetting(key=key, value=value)
        session.add(row)
    row.value, row.updated_at, row.updated_by = value, utcnow(), account.id
    await session.flush()
    await _record(session, account, actor, AuditAction.feature_toggle, key, {"from": before, "to": value})
    await events.publish_on_commit(session, flags.TOPIC, {"key": key})
    return _read(feature, row, {account.id: await session.get(User, account.id)})


async def reset_feature(*, session: AsyncSession, actor: Principal, key: str) -> FeatureRead:
    """Give `key` the server's setting back."""
    account, feature = await _changeable(session, actor, key)
    row = await session.get(FeatureSetting, key, with_for_update=True)
    if row is not None:
        before = row.value
        await session.delete(row)
        await _record(
            session, account, actor, AuditAction.feature_toggle, key, {"from": before, "to": "server setting"}
        )
        await events.publish_on_commit(session, flags.TOPIC, {"key": key})
    return _read(feature, None, {})


async def _record(
    session: AsyncSession,
    account: AccountRead,
    actor: Principal,
    action: AuditAction,
    key: str,
    details: dict[str, object],
) -> None:
    await audit.record(
        session=session,
        actor_id=account.id,
        actor_email=account.email,
        action=action,
        target=f"feature {key}",
        ip=actor.ip,
        user_agent=actor.user_agent,
        details=details,
    )
