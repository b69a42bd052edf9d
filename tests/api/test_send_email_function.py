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


async def test_a_burst_from_one_address_is_refused_with_429(client, smtp) -> None:
    """100 messages in 0.7 s used to be accepted; each client address may now send 5 in 10 minutes."""
    import httpx

    from medivisit.main import create_app

    message = {"to": "support@medivisit.test", "subject": "Bug Report: x", "html": "<p>x</p>"}
    answers = [(await client.post("/functions/v1/send-email", json=message)).status_code for _ in range(8)]
    assert answers == [200] * 5 + [429] * 3
    refused = await client.post("/functions/v1/send-email", json=message)
    assert refused.json()["code"] == "rate_limited" and 0 < int(refused.headers["retry-after"]) <= 600
    other = httpx.ASGITransport(app=create_app(), client=("10.30.0.2", 5000))
    async with httpx.AsyncClient(transport=other, base_url="http://testserver") as elsewhere:
        assert (await elsewhere.post("/functions/v1/send-email", json=message)).status_code == 200
    assert len(smtp.wait_for(6)) == 6


async def test_stored_and_sent_html_is_sanitised(client, smtp) -> None:
    html = (
        '<h2>Bug</h2><p onclick="steal()">Click <a href="https://evil.example/login">your account</a></p>'
        '<script>alert(1)</script><img src="https://evil.example/pixel.gif"><table cellpadding="4">'
        '<tr><th align="left">From</th><td style="color:red">pat</td></tr></table>'
    )
    answer = await client.post(
        "/functions/v1/send-email", json={"to": "support@medivisit.test", "subject": "s", "html": html}
    )
    assert answer.status_code == 200
    async with app_db.unit_of_work() as session:
        row = await session.get(OutboxMessage, answer.json()["id"])
    for stored in (row.html, html_part(smtp.wait_for(1)[0])):
        assert "evil.example" not in stored and "<script" not in stored and "onclick" not in stored
        assert "<a" not in stored and "<img" not in stored and "style=" not in stored
        assert (
            "your account" in stored and '<th align="left">From</th>' in stored and "<h2>Bug</h2>" in stored
        )
