"""POST /functions/v1/send-email: stores every message, delivers over SMTP, refuses to be an open relay."""

from __future__ import annotations

from sqlalchemy import select

from app import db as app_db
from app.settings import get_settings
from models import OutboxMessage
from models.mail import OutboxStatus
from tests.conftest import free_port, html_part


async def test_message_to_support_is_stored_and_delivered(client, smtp) -> None:
    response = await client.post(
        "/functions/v1/send-email",
        json={
            "from": "someone@spoof.example",
            "to": "support@medivisit.test",
            "subject": "Bug Report: x",
            "html": "<p>Hello</p>",
            "unknown": True,
        },
    )
    assert response.status_code == 200
    message_id = response.json()["id"]
    [message] = smtp.wait_for(1)
    assert message["Subject"] == "Bug Report: x"
    assert html_part(message).strip() == "<p>Hello</p>"
    assert "spoof.example" not in message["From"]
    async with app_db.unit_of_work() as session:
        row = await session.get(OutboxMessage, message_id)
    assert row.status == OutboxStatus.sent and row.recipients == ["support@medivisit.test"]


async def test_other_recipients_are_refused(client, smtp) -> None:
    response = await client.post(
        "/functions/v1/send-email",
        json={"to": ["support@medivisit.test", "victim@example.com"], "subject": "s", "html": "<p>x</p>"},
    )
    assert response.status_code == 403
    assert "error" in response.json()
    assert smtp.messages == []


async def test_missing_fields_answer_422_with_details(client) -> None:
    response = await client.post("/functions/v1/send-email", json={"to": "support@medivisit.test"})
    assert response.status_code == 422
    missing = {tuple(error["loc"]) for error in response.json()["detail"]}
    assert ("body", "subject") in missing and ("body", "html") in missing


async def test_failed_delivery_answers_502_and_keeps_the_message(client, monkeypatch) -> None:
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    get_settings.cache_clear()
    try:
        response = await client.post(
            "/functions/v1/send-email",
            json={"to": "support@medivisit.test", "subject": "s", "html": "<p>x</p>"},
        )
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert response.status_code == 502
    body = response.json()
    assert body["error"] == "The e-mail could not be delivered"
    async with app_db.unit_of_work() as session:
        row = (await session.scalars(select(OutboxMessage).where(OutboxMessage.id == body["id"]))).one()
    assert row.status == OutboxStatus.failed and row.error
