"""Automation (issue 15 part 4): Test connection, signed deliveries, the outbox, retries, 410 and
Redeliver, against a real local HTTP receiver (tests/webhook_receiver.py), with every signature verified by
the `standardwebhooks` package (a peer nobody here wrote). Time is driven with `now=`; nothing sleeps.
On SQLite and, with TEST_DATABASE_URL, PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from app import db as app_db
from app.principal import SYSTEM
from app.services.automation import (
    CONNECTED,
    ERROR,
    EVENT_TYPES,
    FAILED,
    RETRY_DELAYS,
    connect_webhook,
    disconnect,
    get_delivery,
    get_integration,
    list_deliveries,
    list_workflow_templates,
    redeliver,
    reveal_secret,
    rotate_secret,
    set_event_type,
    set_header_auth,
    set_simulation,
    watch_signups,
    workflow_json,
)
from app.services.automation._urls import URL_CREDENTIALS, URL_PRIVATE, URL_SCHEME, check_url
from app.services.automation.internal import deliver_due_webhooks, emit_event
from app.services.booking import CheckoutLine, hold_slot, place_order
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.settings import get_settings
from models.account import Role
from models.audit import AuditEntry
from models.automation import AutomationDelivery, AutomationIntegration, DeliveryStatus
from models.catalog import ServiceLocation
from tests.conftest import free_port
from tests.factories import ZIP, person, present, provider, run
from tests.webhook_receiver import DROP, Receiver

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)


@pytest.fixture
def receiver():
    with Receiver() as server:
        yield server


def verify(secret: str, received) -> dict:  # noqa: ANN001 - a Received
    """The payload, as the standardwebhooks package verifies it (raises when the signature is wrong)."""
    return Webhook(secret).verify(received.body, received.headers)


async def connect(owner, receiver: Receiver) -> str:  # noqa: ANN001 - a Person
    """Connect the receiver; returns the signing secret."""
    result = await run(connect_webhook, actor=owner.actor, webhook_url=receiver.url())
    assert result.message == CONNECTED
    return (await run(reveal_secret, actor=owner.actor)).secret


async def deliveries(event_type: str | None = None) -> list[AutomationDelivery]:
    async with app_db.unit_of_work() as session:
        query = select(AutomationDelivery).order_by(AutomationDelivery.created_at)
        if event_type:
            query = query.where(AutomationDelivery.event_type == event_type)
        return list((await session.scalars(query)).all())


# ---- Test connection ---------------------------------------------------------------------------------
async def test_a_passing_test_connects_with_a_signed_test_event(identity, receiver) -> None:
    owner = await person(Role.owner, "Olivia Bennett")
    before = await run(get_integration, actor=owner.actor)
    assert not before.connected and not before.has_secret
    assert {e.group for e in before.event_types} == {
        "provider",
        "patient",
        "appointment",
        "payment",
        "system",
        "support",
    }

    result = await run(connect_webhook, actor=owner.actor, webhook_url=receiver.url())

    assert (result.outcome, result.message, result.status_code) == ("connected", CONNECTED, 200)
    secret = (await run(reveal_secret, actor=owner.actor)).secret
    assert secret.startswith("whsec_")
    (request,) = receiver.wait_for(1)
    payload = verify(secret, request)
    assert payload["eventType"] == "system.connection_test"
    assert payload["source"] == "medivisit" and payload["environment"] == "development"
    assert datetime.fromisoformat(payload["timestamp"]).tzinfo is not None
    assert request.headers["webhook-id"].startswith("msg_")
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "A" * 43 + "=").verify(request.body, request.headers)
    after = await run(get_integration, actor=owner.actor)
    assert after.connected and after.webhook_url == receiver.url() and after.secret_hint.endswith(secret[-4:])
    async with app_db.unit_of_work() as session:
        row = present(await session.get(AutomationIntegration, "default"))
        assert row.secret_sealed.startswith("enc:v1:") and secret not in row.secret_sealed
        audit = (
            await session.scalars(select(AuditEntry).where(AuditEntry.action == "automation_test"))
        ).one()
        assert audit.details["outcome"] == "connected" and secret not in json.dumps(audit.details)
    log = await run(list_deliveries, actor=owner.actor)
    assert [(d.event_type, d.status) for d in log.items] == [
        ("system.connection_test", DeliveryStatus.delivered)
    ]


async def test_failed_and_error_tests_leave_it_disconnected(identity, receiver) -> None:
    admin = await person(Role.admin, "Adrian Cole")
    receiver.answer(500)
    failed = await run(connect_webhook, actor=admin.actor, webhook_url=receiver.url())
    assert (failed.outcome, failed.message, failed.status_code) == ("failed", FAILED, 500)
    closed = f"http://127.0.0.1:{free_port()}/webhook/x"
    error = await run(connect_webhook, actor=admin.actor, webhook_url=closed)
    assert (error.outcome, error.message, error.status_code) == ("error", ERROR, None)
    receiver.answer(DROP)
    dropped = await run(connect_webhook, actor=admin.actor, webhook_url=receiver.url())
    assert dropped.message == ERROR
    state = await run(get_integration, actor=admin.actor)
    assert not state.connected and state.webhook_url == receiver.url()
    assert not state.can_rotate  # admins may not rotate the secret; owners may


async def test_only_owners_and_admins(identity, receiver) -> None:
    for role in (Role.patient, Role.provider, Role.management, Role.support):
        someone = await person(role)
        for fn, kw in (
            (get_integration, {}),
            (connect_webhook, {"webhook_url": receiver.url()}),
            (list_deliveries, {}),
            (list_workflow_templates, {}),
            (set_event_type, {"event_type": "appointment.created", "enabled": False}),
        ):
            with pytest.raises(PermissionDenied):
                await run(fn, actor=someone.actor, **kw)
    admin = await person(Role.admin)
    with pytest.raises(PermissionDenied):
        await run(rotate_secret, actor=admin.actor)
    assert receiver.requests == []


def test_urls_are_checked_for_ssrf(monkeypatch) -> None:
    monkeypatch.setenv("APP_ENV", "production")
    get_settings.cache_clear()
    try:
        for bad, reason in (
            ("file:///etc/passwd", URL_SCHEME),
            ("ftp://n8n.example.com/x", URL_SCHEME),
            ("javascript:alert(1)", URL_SCHEME),
            ("https://user:pw@n8n.example.com/webhook/x", URL_CREDENTIALS),
            ("http://127.0.0.1:5678/webhook/x", URL_PRIVATE),
            ("http://localhost:5678/webhook/x", URL_PRIVATE),
            ("http://10.1.2.3/webhook/x", URL_PRIVATE),
            ("http://169.254.169.254/latest/meta-data", URL_PRIVATE),
            ("http://[::1]/webhook/x", URL_PRIVATE),
            ("http://[::ffff:192.168.1.1]/webhook/x", URL_PRIVATE),
        ):
            with pytest.raises(ValidationFailed) as refused:
                check_url(bad)
            assert refused.value.message == reason, bad
        assert (
            check_url("  https://n8n.example.com/webhook/medivisit  ")
            == "https://n8n.example.com/webhook/medivisit"
        )
        with pytest.raises(ValidationFailed):
            check_url("https://n8n.example.com/" + "a" * 2100)
        monkeypatch.setenv("AUTOMATION_ALLOW_PRIVATE_URLS", "true")
        get_settings.cache_clear()
        assert check_url("http://127.0.0.1:5678/webhook/x")
    finally:
        get_settings.cache_clear()


# ---- events from the domain ------------------------------------------------------------------------------
async def test_a_booking_produces_a_signed_delivery(identity, receiver) -> None:
    owner = await person(Role.owner)
    patient = await person(name="Jordan Park")  # before connecting: no patient.signup event in the way
    ana = await provider(
        "Ana Reyes", zip_codes=[ZIP], offers={"iv-hydration": ("150", (ServiceLocation.home,))}
    )
    secret = await connect(owner, receiver)
    held = await run(
        hold_slot,
        actor=patient.actor,
        service_slug="iv-hydration",
        provider_id=ana,
        starts_at=NINE,
        zip_code=ZIP,
        location=ServiceLocation.home,
        now=NOW,
    )
    line = CheckoutLine(
        hold_id=held.id,
        location=ServiceLocation.home,
        address_line="12 Main Street",
        city="New York",
        state="NY",
        zip_code=ZIP,
        notes="Gate code 1234",
    )
    order = await run(place_order, actor=patient.actor, lines=[line], now=NOW)

    assert await deliver_due_webhooks(now=NOW) == 1
    _test, request = receiver.wait_for(2)
    payload = verify(secret, request)
    assert payload["eventType"] == "appointment.created"
    assert payload["appointmentId"] == order.appointments[0].id and payload["orderNumber"] == order.number
    assert payload["patientId"] == patient.id and payload["providerId"] == ana
    # Ids, no clinical text unless the owner opts in for the type:
    assert (
        "notes" not in payload and "serviceName" not in payload and "Gate code" not in request.body.decode()
    )
    (delivery,) = await deliveries("appointment.created")
    assert delivery.status == DeliveryStatus.delivered and delivery.attempts == 1


async def test_clinical_text_only_when_opted_in_and_disabled_types_skipped(identity, receiver) -> None:
    owner = await person(Role.owner)
    secret = await connect(owner, receiver)
    await run(set_event_type, actor=owner.actor, event_type="support.ticket_created", detailed=True)
    await run(set_event_type, actor=owner.actor, event_type="payment.failed", enabled=False)
    async with app_db.unit_of_work() as session:
        await emit_event(
            session=session,
            event_type="support.ticket_created",
            fields={"ticketId": "t1"},
            details={"subject": "Bruise after blood draw"},
        )
        assert not await emit_event(session=session, event_type="payment.failed", fields={"paymentId": "p1"})
        await emit_event(
            session=session,
            event_type="appointment.canceled",
            fields={"appointmentId": "a1"},
            details={"notes": "x"},
        )
    assert await deliver_due_webhooks() == 2
    bodies = {p["eventType"]: p for p in (verify(secret, r) for r in receiver.wait_for(3)[1:])}
    assert bodies["support.ticket_created"]["subject"] == "Bruise after blood draw"
    assert "notes" not in bodies["appointment.canceled"]
    state = await run(get_integration, actor=owner.actor)
    flags = {e.name: (e.enabled, e.detailed) for e in state.event_types}
    assert flags["payment.failed"] == (False, False) and flags["support.ticket_created"] == (True, True)
    assert len(EVENT_TYPES) == 31


async def test_nothing_is_queued_for_a_rolled_back_change_or_when_disconnected(identity, receiver) -> None:
    owner = await person(Role.owner)
    async with app_db.unit_of_work() as session:  # not connected yet: skipped (SPEC §5)
        assert not await emit_event(session=session, event_type="system.error", fields={"code": "E1"})
    await connect(owner, receiver)
    with pytest.raises(RuntimeError):
        async with app_db.unit_of_work() as session:
            assert await emit_event(session=session, event_type="system.error", fields={"code": "E2"})
            raise RuntimeError("the change fails")
    assert await deliveries("system.error") == []
    await run(disconnect, actor=owner.actor)
    async with app_db.unit_of_work() as session:
        assert not await emit_event(session=session, event_type="system.error", fields={"code": "E3"})
    assert await deliver_due_webhooks() == 0


async def test_patient_signup_is_queued_with_the_new_account(identity, receiver) -> None:
    watch_signups()
    owner = await person(Role.owner)
    secret = await connect(owner, receiver)
    patient = await person(Role.patient, "Jordan Lee")
    await person(Role.support)  # staff accounts are not patient signups
    assert await deliver_due_webhooks() == 1
    payload = verify(secret, receiver.wait_for(2)[1])
    assert payload == payload | {"eventType": "patient.signup", "userId": patient.id}


# ---- retries, 410, Redeliver -----------------------------------------------------------------------------
async def test_a_failing_receiver_is_retried_on_schedule_and_logged(identity, receiver) -> None:
    owner = await person(Role.owner)
    secret = await connect(owner, receiver)
    receiver.default = 503
    async with app_db.unit_of_work() as session:
        await emit_event(session=session, event_type="payment.succeeded", fields={"paymentId": "p1"}, now=NOW)
    (row,) = await deliveries("payment.succeeded")

    at = NOW
    assert await deliver_due_webhooks(now=at) == 1  # at once
    for number, delay in enumerate(RETRY_DELAYS[:4], start=2):
        assert await deliver_due_webhooks(now=at + delay - timedelta(seconds=1)) == 0  # not due yet
        at += delay
        assert await deliver_due_webhooks(now=at) == 1
        assert len(receiver.wait_for(number + 1)) == number + 1
    receiver.default = 200
    at += RETRY_DELAYS[4]
    assert await deliver_due_webhooks(now=at) == 1

    requests = receiver.wait_for(7)[1:]
    assert {r.headers["webhook-id"] for r in requests} == {row.message_id}  # one id: receivers deduplicate
    assert len({r.body for r in requests}) == 1 and all(verify(secret, r) for r in requests)
    detail = await run(get_delivery, actor=owner.actor, delivery_id=row.id)
    assert detail.delivery.status == DeliveryStatus.delivered and detail.delivery.attempts == 6
    assert [(a.number, a.status_code, a.ok) for a in detail.attempts] == [
        (6, 200, True),
        *((n, 503, False) for n in range(5, 0, -1)),
    ]
    assert [a.attempted_at for a in reversed(detail.attempts)] == [
        NOW,
        NOW + RETRY_DELAYS[0],
        NOW + sum(RETRY_DELAYS[:2], timedelta()),
        NOW + sum(RETRY_DELAYS[:3], timedelta()),
        NOW + sum(RETRY_DELAYS[:4], timedelta()),
        NOW + sum(RETRY_DELAYS[:5], timedelta()),
    ]
    assert all('"nope"' in a.response_excerpt for a in detail.attempts[1:])
    assert all(a.duration_ms >= 0 for a in detail.attempts)


async def test_attempts_run_out_and_redeliver_sends_again(identity, receiver) -> None:
    owner = await person(Role.owner)
    secret = await connect(owner, receiver)
    receiver.default = 500
    async with app_db.unit_of_work() as session:
        await emit_event(session=session, event_type="payment.refunded", fields={"paymentId": "p1"}, now=NOW)
    at = NOW
    assert await deliver_due_webhooks(now=at) == 1
    for delay in RETRY_DELAYS:
        at += delay
        assert await deliver_due_webhooks(now=at) == 1
    assert await deliver_due_webhooks(now=at + timedelta(days=30)) == 0
    (row,) = await deliveries("payment.refunded")
    assert row.status == DeliveryStatus.failed and row.attempts == len(RETRY_DELAYS) + 1 == 10

    receiver.default = 200
    queued = await run(redeliver, actor=owner.actor, delivery_id=row.id, now=at)
    assert queued.status == DeliveryStatus.pending
    with pytest.raises(ValidationFailed):
        await run(redeliver, actor=owner.actor, delivery_id=row.id, now=at)
    assert receiver.requests[-1].headers["webhook-id"] == row.message_id
    count = len(receiver.requests)
    assert await deliver_due_webhooks(now=at) == 1  # the job sends it, not the request
    verify(secret, receiver.wait_for(count + 1)[-1])
    detail = await run(get_delivery, actor=owner.actor, delivery_id=row.id)
    assert detail.delivery.status == DeliveryStatus.delivered
    assert (detail.attempts[0].number, detail.attempts[0].trigger.value) == (11, "redeliver")
    with pytest.raises(NotFound):
        await run(get_delivery, actor=owner.actor, delivery_id="nope")


async def test_410_gone_disconnects_and_fails_what_was_queued(identity, receiver) -> None:
    owner = await person(Role.owner)
    await connect(owner, receiver)
    receiver.answer(410)
    async with app_db.unit_of_work() as session:
        for n in range(3):
            await emit_event(session=session, event_type="system.error", fields={"n": n}, now=NOW)
    assert await deliver_due_webhooks(now=NOW) == 1  # stops at the 410
    state = await run(get_integration, actor=owner.actor)
    assert not state.connected and "410" in state.disabled_reason
    assert {d.status for d in await deliveries("system.error")} == {DeliveryStatus.failed}
    assert await deliver_due_webhooks(now=NOW + timedelta(days=1)) == 0
    async with app_db.unit_of_work() as session:
        assert (
            await session.scalar(
                select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "automation_disabled")
            )
            == 1
        )
    with pytest.raises(ValidationFailed):
        await run(redeliver, actor=owner.actor, delivery_id=(await deliveries("system.error"))[0].id)


# ---- secrets, header auth, simulation, templates ---------------------------------------------------------
async def test_rotation_signs_with_both_secrets_and_the_header_token_is_sent(identity, receiver) -> None:
    owner = await person(Role.owner)
    old = await connect(owner, receiver)
    rotated = await run(rotate_secret, actor=owner.actor, now=datetime.now(UTC))
    assert rotated.secret != old and rotated.previous_valid_until is not None
    await run(
        set_header_auth, actor=owner.actor, header_name="X-MediVisit-Token", header_token="s3cret-token"
    )
    with pytest.raises(ValidationFailed):
        await run(set_header_auth, actor=owner.actor, header_name="webhook-id", header_token="x")
    with pytest.raises(ValidationFailed):
        await run(set_header_auth, actor=owner.actor, header_name="X-Token", header_token="a\r\nb")
    async with app_db.unit_of_work() as session:
        await emit_event(session=session, event_type="system.report_generation", fields={"report": "daily"})
    assert await deliver_due_webhooks() == 1
    request = receiver.wait_for(2)[1]
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    assert verify(old, request) == verify(rotated.secret, request)
    assert request.headers["x-medivisit-token"] == "s3cret-token"
    async with app_db.unit_of_work() as session:
        row = present(await session.get(AutomationIntegration, "default"))
        assert row.header_token_sealed.startswith("enc:v1:") and "s3cret" not in row.header_token_sealed


async def test_simulation_mode_makes_no_request(identity, receiver) -> None:
    owner = await person(Role.owner)
    await run(set_simulation, actor=owner.actor, enabled=True)
    result = await run(connect_webhook, actor=owner.actor, webhook_url=receiver.url())
    assert result.message == CONNECTED and "Simulation" in result.detail
    async with app_db.unit_of_work() as session:
        await emit_event(session=session, event_type="appointment.completed", fields={"appointmentId": "a1"})
    assert await deliver_due_webhooks() == 1
    assert receiver.requests == []
    log = await run(list_deliveries, actor=owner.actor)
    assert {d.status for d in log.items} == {DeliveryStatus.simulated}
    detail = await run(get_delivery, actor=owner.actor, delivery_id=log.items[0].id)
    assert detail.attempts[0].simulated


async def test_the_log_paginates(identity, receiver) -> None:
    owner = await person(Role.owner)
    await connect(owner, receiver)
    async with app_db.unit_of_work() as session:
        for n in range(25):
            await emit_event(session=session, event_type="system.error", fields={"n": n})
    first = await run(list_deliveries, actor=owner.actor, page=1)
    second = await run(list_deliveries, actor=owner.actor, page=2)
    assert (first.total, first.pages, len(first.items), len(second.items)) == (26, 2, 20, 6)
    pending = await run(list_deliveries, actor=owner.actor, status="pending")
    assert pending.total == 25
    with pytest.raises(ValidationFailed):
        await run(list_deliveries, actor=owner.actor, status="bogus")


async def test_workflow_templates_are_importable_n8n_workflows(identity) -> None:
    owner = await person(Role.owner)
    listed = await run(list_workflow_templates, actor=owner.actor)
    assert [(t.id, t.difficulty) for t in listed] == [
        ("appointment-reminder", "easy"),
        ("patient-onboarding", "medium"),
        ("feedback-collection", "easy"),
        ("referral-program", "advanced"),
    ]
    for template in listed:
        workflow = workflow_json(template.id)
        assert workflow["settings"] == workflow["settings"] | {
            "executionTimeout": 3600,
            "saveExecutionProgress": True,
            "saveManualExecutions": True,
        }
        trigger = workflow["nodes"][0]
        assert trigger["type"] == "n8n-nodes-base.webhook"
        assert f"/webhook/{trigger['parameters']['path']}" == template.webhook_path
        names = {n["name"] for n in workflow["nodes"]}
        assert len(names) == len(workflow["nodes"]) == template.nodes
        for source, outputs in workflow["connections"].items():
            assert source in names and all(link["node"] in names for link in outputs["main"][0])
    with pytest.raises(NotFound):
        workflow_json("nope")
    assert SYSTEM.is_system


async def test_the_domain_hooks_queue_their_events(identity, receiver) -> None:
    """One call in each domain: the visit lifecycle, the 24-hour reminder, the ledger's collected payment,
    the help desk's tickets; each event only with its own transaction."""
    from app.services.appointments import complete_appointment, start_appointment
    from app.services.appointments.internal import send_due_reminders
    from app.services.support import set_ticket_status
    from models.booking import AppointmentStatus
    from tests.factories import new_ticket, visit

    owner = await person(Role.owner)
    patient = await person(name="Jordan Park")
    nurse = await person(Role.provider, "Ana Reyes")
    support = await person(Role.support, "Sam Rivera")
    ana = await provider("Ana Reyes", owner=nurse)
    now = datetime.now(UTC)
    started = await visit(patient, ana, now - timedelta(hours=1), status=AppointmentStatus.confirmed)
    soon = await visit(patient, ana, now + timedelta(hours=12), status=AppointmentStatus.confirmed)
    await connect(owner, receiver)

    read = await run(start_appointment, actor=nurse.actor, appointment_id=started, now=now)
    assert read.payment is not None  # pay at visit: the nurse records what they collected at Complete
    await run(
        complete_appointment,
        actor=nurse.actor,
        appointment_id=started,
        now=now,
        collected=read.payment.total,
        method="cash",
    )
    assert await run(send_due_reminders, now=now) == 1
    ticket = await new_ticket(patient)
    await run(set_ticket_status, actor=support.actor, ticket_id=ticket.id, status="resolved")

    queued = [
        (d.event_type, json.loads(d.body))
        for d in await deliveries()
        if d.event_type != "system.connection_test"
    ]
    assert [kind for kind, _ in queued] == [
        "appointment.updated",  # in progress
        "payment.succeeded",
        "appointment.completed",
        "appointment.reminder_due",
        "support.ticket_created",
        "support.ticket_resolved",
    ]
    by_kind = dict(queued)
    assert by_kind["payment.succeeded"]["appointmentId"] == started
    assert by_kind["payment.succeeded"]["amountCents"] > 0
    assert by_kind["appointment.reminder_due"]["appointmentId"] == soon
    assert by_kind["support.ticket_resolved"]["ticketId"] == ticket.id
    assert "subject" not in by_kind["support.ticket_created"]  # no ticket text unless opted in
