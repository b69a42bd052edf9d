"""The integration's settings, for owners and admins: the webhook URL and Test connection (SPEC §4: connected
only once a test passes; SPEC §8's three messages), disconnecting, simulation mode, the Header Auth token,
the signing secret (shown on request, rotated by an owner with a day's overlap) and the per-type switches
(SPEC §5) with their opt-in to clinical text. Every change is audited; secrets never enter the log."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, events
from app.auth.sealed import seal, unseal
from app.principal import Principal
from app.services.automation._access import integration_row, may_rotate, require_administrator
from app.services.automation._catalogue import BY_NAME, EVENT_TYPES, TEST_EVENT
from app.services.automation._delivery import AUTOMATION_TOPIC, attempt_row, fail_pending, rotating
from app.services.automation._emit import encode, envelope
from app.services.automation._signing import hint, new_message_id, new_secret
from app.services.automation._transport import Target, send
from app.services.automation._urls import check_url
from app.services.errors import PermissionDenied, ValidationFailed
from models.account import AccountRead
from models.audit import AuditAction
from models.automation import (
    MAX_HEADER_NAME,
    MAX_HEADER_TOKEN,
    AttemptTrigger,
    AutomationDelivery,
    AutomationIntegration,
    DeliveryStatus,
    EventTypeRead,
    IntegrationRead,
    RevealedSecretRead,
    TestResultRead,
)
from models.identity import as_utc

CONNECTED = "Successfully connected to n8n"
FAILED = "Failed to connect to n8n"
ERROR = "Error connecting to n8n"
ROTATION_OVERLAP = timedelta(hours=24)
UNKNOWN_TYPE = "Unknown event type."
HEADER_NAME_BAD = "Use letters, digits and dashes for the header name, e.g. X-MediVisit-Token."
HEADER_NAME_RESERVED = "This header is set by the server; choose another name, e.g. X-MediVisit-Token."
HEADER_NAME_REQUIRED = "Give the header's name as set in n8n's Header Auth credential."
HEADER_TOKEN_REQUIRED = "Enter the header value (the token n8n expects)."
HEADER_TOKEN_BAD = f"The token can be at most {MAX_HEADER_TOKEN} characters, without line breaks."
_HEADER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")
_RESERVED = ("webhook-", "content-", "host", "user-agent", "transfer-encoding", "connection", "cookie")
TEST_MESSAGE = "Test event from MediVisit: the connection works."


async def _audit(
    session: AsyncSession, account: AccountRead | None, actor: Principal, action: AuditAction, **details: Any
) -> None:
    if account is None:
        await audit.record(
            session=session,
            actor_id=None,
            actor_email="",
            action=action,
            target="automation",
            ip=None,
            user_agent=None,
            details=details,
        )
    else:
        await audit.record_by(
            session=session, account=account, actor=actor, action=action, target="automation", details=details
        )


def _read(row: AutomationIntegration | None, account: AccountRead | None, now: datetime) -> IntegrationRead:
    disabled = set(row.disabled_types or []) if row else set()
    detailed = set(row.detailed_types or []) if row else set()
    secret = unseal(row.secret_sealed) if row is not None and row.secret_sealed else ""
    return IntegrationRead(
        webhook_url=row.webhook_url if row else "",
        connected=bool(row and row.connected),
        connected_at=as_utc(row.connected_at) if row else None,
        disabled_reason=row.disabled_reason if row else "",
        simulation=bool(row and row.simulation),
        has_secret=bool(secret),
        secret_hint=hint(secret),
        rotating_until=as_utc(row.previous_secret_until) if row is not None and rotating(row, now) else None,
        header_name=row.header_name if row else "",
        has_header_token=bool(row and row.header_token_sealed),
        event_types=[
            EventTypeRead(
                name=e.name,
                label=e.label,
                group=e.group,
                enabled=e.name not in disabled,
                detailed=e.has_details and e.name in detailed,
                has_details=e.has_details,
            )
            for e in EVENT_TYPES
        ],
        can_rotate=may_rotate(account),
    )


async def get_integration(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> IntegrationRead:
    account = await require_administrator(session=session, actor=actor)
    return _read(await integration_row(session), account, now or datetime.now(UTC))


async def connect_webhook(
    *, session: AsyncSession, actor: Principal, webhook_url: str, now: datetime | None = None
) -> TestResultRead:
    """Keep `webhook_url` and send it a real signed test event (simulated in simulation mode). A 2xx answer
    connects the integration; anything else leaves it disconnected. The request is made before anything is
    written, so no transaction waits on the network."""
    account = await require_administrator(session=session, actor=actor)
    url = check_url(webhook_url)
    now = now or datetime.now(UTC)
    row = await integration_row(session)
    secret = unseal(row.secret_sealed) if row is not None and row.secret_sealed else new_secret()
    probe = AutomationIntegration(
        webhook_url=url,
        secret_sealed=seal(secret),
        previous_secret_sealed=row.previous_secret_sealed if row else "",
        header_name=row.header_name if row else "",
        header_token_sealed=row.header_token_sealed if row else "",
        simulation=bool(row and row.simulation),
    )
    message_id = new_message_id()
    body = encode(envelope(TEST_EVENT, {"message": TEST_MESSAGE, "test": True}, now))
    target = Target.of(probe, rotating=row is not None and rotating(row, now), url=url)
    outcome = await send(target, message_id=message_id, body=body)

    row = await integration_row(session, create=True)
    assert row is not None
    if row.webhook_url != url:
        row.connected = False
    row.webhook_url, row.secret_sealed, row.updated_at = url, probe.secret_sealed, now
    row.connected = outcome.ok
    if outcome.ok:
        row.connected_at, row.disabled_reason = now, ""
    delivery = AutomationDelivery(
        message_id=message_id,
        event_type=TEST_EVENT,
        body=body,
        status=(
            DeliveryStatus.simulated
            if outcome.simulated
            else DeliveryStatus.delivered
            if outcome.ok
            else DeliveryStatus.failed
        ),
        attempts=1,
        manual=False,
        last_status_code=outcome.status_code,
        finished_at=now,
        created_at=now,
    )
    session.add(delivery)
    await session.flush()
    session.add(
        attempt_row(
            delivery_id=delivery.id, number=1, trigger=AttemptTrigger.test, url=url, outcome=outcome, at=now
        )
    )
    await events.publish_on_commit(session, AUTOMATION_TOPIC, {"delivery_id": delivery.id})
    kind = "connected" if outcome.ok else "failed" if outcome.status_code is not None else "error"
    await _audit(
        session,
        account,
        actor,
        AuditAction.automation_test,
        host=urlsplit(url).hostname,
        outcome=kind,
        http_status=outcome.status_code,
        simulated=outcome.simulated,
    )
    message = {"connected": CONNECTED, "failed": FAILED, "error": ERROR}[kind]
    detail = (
        "Simulation mode: no request was made."
        if outcome.simulated
        else f"n8n answered HTTP {outcome.status_code}."
        if outcome.status_code is not None
        else outcome.error
    )
    return TestResultRead(outcome=kind, message=message, status_code=outcome.status_code, detail=detail)


async def disconnect(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> IntegrationRead:
    """Stop sending: events are skipped from now on and what was queued is failed (Redeliver after a new
    test sends any of it again)."""
    account = await require_administrator(session=session, actor=actor)
    now = now or datetime.now(UTC)
    row = await integration_row(session, create=True)
    assert row is not None
    row.connected, row.disabled_reason, row.updated_at = False, "", now
    await session.flush()
    await fail_pending(session, now)
    await events.publish_on_commit(session, AUTOMATION_TOPIC, {"connected": False})
    await _audit(session, account, actor, AuditAction.automation_update, connected=False)
    return _read(row, account, now)


async def set_simulation(
    *, session: AsyncSession, actor: Principal, enabled: bool, now: datetime | None = None
) -> IntegrationRead:
    """Simulation mode (the seed's behaviour, for demos): tests and events are logged as simulated and no
    request is made."""
    account = await require_administrator(session=session, actor=actor)
    now = now or datetime.now(UTC)
    row = await integration_row(session, create=True)
    assert row is not None
    row.simulation, row.updated_at = bool(enabled), now
    await _audit(session, account, actor, AuditAction.automation_update, simulation=bool(enabled))
    return _read(row, account, now)


async def set_event_type(
    *,
    session: AsyncSession,
    actor: Principal,
    event_type: str,
    enabled: bool | None = None,
    detailed: bool | None = None,
    now: datetime | None = None,
) -> IntegrationRead:
    """Switch one event type on or off (SPEC §5), or its opt-in to clinical text."""
    account = await require_administrator(session=session, actor=actor)
    known = BY_NAME.get(event_type)
    if known is None:
        raise ValidationFailed(UNKNOWN_TYPE)
    now = now or datetime.now(UTC)
    row = await integration_row(session, create=True)
    assert row is not None
    changes: dict[str, Any] = {"event_type": event_type}
    if enabled is not None:
        off = set(row.disabled_types or [])
        off.discard(event_type) if enabled else off.add(event_type)
        row.disabled_types = sorted(off)
        changes["enabled"] = bool(enabled)
    if detailed is not None and known.has_details:
        on = set(row.detailed_types or [])
        on.add(event_type) if detailed else on.discard(event_type)
        row.detailed_types = sorted(on)
        changes["clinical_text"] = bool(detailed)
    row.updated_at = now
    await _audit(session, account, actor, AuditAction.automation_update, **changes)
    return _read(row, account, now)


async def set_header_auth(
    *,
    session: AsyncSession,
    actor: Principal,
    header_name: str,
    header_token: str,
    now: datetime | None = None,
) -> IntegrationRead:
    """The header n8n's Header Auth checks (name and value); both blank removes it. A blank value with a
    name keeps the stored value under the new name."""
    account = await require_administrator(session=session, actor=actor)
    name, token = (header_name or "").strip(), (header_token or "").strip()
    now = now or datetime.now(UTC)
    row = await integration_row(session, create=True)
    assert row is not None
    if not name and not token:
        row.header_name, row.header_token_sealed = "", ""
    else:
        if not name:
            raise ValidationFailed(HEADER_NAME_REQUIRED)
        if len(name) > MAX_HEADER_NAME or not _HEADER_NAME.match(name):
            raise ValidationFailed(HEADER_NAME_BAD)
        if name.lower().startswith(_RESERVED):
            raise ValidationFailed(HEADER_NAME_RESERVED)
        if not token and not row.header_token_sealed:
            raise ValidationFailed(HEADER_TOKEN_REQUIRED)
        if len(token) > MAX_HEADER_TOKEN or any(ord(c) < 32 or ord(c) == 127 for c in token):
            raise ValidationFailed(HEADER_TOKEN_BAD)
        row.header_name = name
        if token:
            row.header_token_sealed = seal(token)
    row.updated_at = now
    await _audit(session, account, actor, AuditAction.automation_update, header_name=row.header_name or None)
    return _read(row, account, now)


async def reveal_secret(*, session: AsyncSession, actor: Principal) -> RevealedSecretRead:
    """The signing secret, for pasting into the receiver's verification (audited; made if there is none)."""
    account = await require_administrator(session=session, actor=actor)
    row = await integration_row(session, create=True)
    assert row is not None
    if not row.secret_sealed:
        row.secret_sealed = seal(new_secret())
    await _audit(session, account, actor, AuditAction.automation_secret_view)
    return RevealedSecretRead(secret=unseal(row.secret_sealed), previous_valid_until=None)


async def rotate_secret(
    *, session: AsyncSession, actor: Principal, now: datetime | None = None
) -> RevealedSecretRead:
    """A new signing secret (owners only). For a day every message is signed with both the new and the old
    one, so the receiver can switch without missing an event."""
    account = await require_administrator(session=session, actor=actor)
    if not may_rotate(account):
        raise PermissionDenied("Only an owner can rotate the signing secret.")
    now = now or datetime.now(UTC)
    row = await integration_row(session, create=True)
    assert row is not None
    until = now + ROTATION_OVERLAP if row.secret_sealed else None
    row.previous_secret_sealed, row.previous_secret_until = row.secret_sealed, until
    secret = new_secret()
    row.secret_sealed, row.updated_at = seal(secret), now
    await _audit(
        session,
        account,
        actor,
        AuditAction.automation_secret_rotate,
        previous_valid_until=until.isoformat() if until else None,
    )
    return RevealedSecretRead(secret=secret, previous_valid_until=until)
