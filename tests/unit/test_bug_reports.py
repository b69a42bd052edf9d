"""Bug reports: validation, storage, the support e-mail over real SMTP, and what a failed delivery keeps."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.principal import Principal
from app.services.errors import Unavailable, ValidationFailed
from app.services.feedback import FIELDS_REQUIRED, SEND_FAILED, submit_bug_report
from app.settings import get_settings
from models import BugReport, OutboxMessage
from models.bug_report import NOT_LOGGED_IN
from models.mail import OutboxStatus
from tests.conftest import html_part
from tests.factories import person

VISITOR = Principal.visitor("visitor-1")


async def _count(model) -> int:  # noqa: ANN001
    async with app_db.unit_of_work() as session:
        return await session.scalar(select(func.count()).select_from(model))


@pytest.mark.parametrize(
    "fields",
    [
        {"email": "", "title": "t", "description": "d"},
        {"email": "a@b.co", "title": "   ", "description": "d"},
        {"email": "a@b.co", "title": "t", "description": "\n\t "},
    ],
)
async def test_blank_fields_are_refused_and_nothing_is_sent(configured, smtp, fields) -> None:
    before = await _count(BugReport)
    with pytest.raises(ValidationFailed, match=FIELDS_REQUIRED):
        async with app_db.unit_of_work() as session:
            await submit_bug_report(session=session, actor=VISITOR, **fields)
    assert await _count(BugReport) == before
    assert smtp.messages == []


async def test_report_is_stored_and_mailed_to_support_with_user_input_escaped(configured, smtp) -> None:
    async with app_db.unit_of_work() as session:
        report = await submit_bug_report(
            session=session,
            actor=VISITOR,
            email="  pat@example.com ",
            title='<script>alert("x")</script> & more',
            description="Step 1: <img src=x onerror=alert(1)>\nStep 2",
            user_agent="Mozilla/5.0 <Test>",
        )
    assert report.user_id == "Not logged in"
    assert report.email == "pat@example.com"

    [message] = smtp.wait_for(1)
    assert message["To"] == get_settings().support_email
    assert message["Subject"] == 'Bug Report: <script>alert("x")</script> & more'
    body = html_part(message)
    assert "<script>" not in body and "<img" not in body
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in body
    assert "&lt;img src=x onerror=alert(1)&gt;<br>Step 2" in body
    assert "Mozilla/5.0 &lt;Test&gt;" in body and "Not logged in" in body

    async with app_db.unit_of_work() as session:
        stored = await session.get(BugReport, report.id)
        outbox = (
            await session.scalars(select(OutboxMessage).order_by(OutboxMessage.created_at.desc()))
        ).first()
    assert stored.description.startswith("Step 1")
    assert outbox.status == OutboxStatus.sent and outbox.sent_at is not None


async def test_signed_in_reporter_is_recorded_by_id(configured, smtp) -> None:
    reporter = await person()
    async with app_db.unit_of_work() as session:
        report = await submit_bug_report(
            session=session, actor=reporter.actor, email="a@b.co", title="Slow page", description="It is slow"
        )
    assert report.user_id == reporter.id
    assert reporter.id in html_part(smtp.wait_for(1)[0])


async def test_a_reporter_whose_session_ended_is_not_named(configured, smtp) -> None:
    reporter = await person()
    ended = Principal.user(user_id=reporter.id, session_id="ended-session")
    async with app_db.unit_of_work() as session:
        report = await submit_bug_report(
            session=session, actor=ended, email="a@b.co", title="Slow page", description="It is slow"
        )
    assert report.user_id == NOT_LOGGED_IN


async def test_failed_delivery_keeps_nothing_and_says_so(configured, smtp, monkeypatch) -> None:
    from tests.conftest import free_port

    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    get_settings.cache_clear()
    before = await _count(BugReport)
    try:
        with pytest.raises(Unavailable, match=SEND_FAILED):
            async with app_db.unit_of_work() as session:
                await submit_bug_report(
                    session=session, actor=VISITOR, email="a@b.co", title="t", description="d"
                )
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert await _count(BugReport) == before


async def test_a_burst_of_reports_is_cut_off_per_reporter_and_per_address(configured, smtp) -> None:
    """One websocket sent 200 bug reports in 17 s; now a reporter may send 5 in 10 minutes (retries of a
    failed send included), and one client address 10 whatever visitor id it claims."""
    from app.services.errors import RateLimited

    fields = {"email": "pat@example.com", "title": "Broken", "description": "It broke"}
    burst = Principal.visitor("burst-visitor").from_client(ip="10.20.0.1", user_agent="test")
    for _ in range(5):
        async with app_db.unit_of_work() as session:
            await submit_bug_report(session=session, actor=burst, **fields)
    with pytest.raises(RateLimited, match="try again in 10 minutes") as refused:
        async with app_db.unit_of_work() as session:
            await submit_bug_report(session=session, actor=burst, **fields)
    assert 0 < refused.value.retry_after <= 600
    # New visitor ids from the same address: 5 more make 10, then the address is refused.
    for n in range(5):
        async with app_db.unit_of_work() as session:
            actor = Principal.visitor(f"fresh-{n}").from_client(ip="10.20.0.1", user_agent="test")
            await submit_bug_report(session=session, actor=actor, **fields)
    with pytest.raises(RateLimited):
        async with app_db.unit_of_work() as session:
            actor = Principal.visitor("fresh-last").from_client(ip="10.20.0.1", user_agent="test")
            await submit_bug_report(session=session, actor=actor, **fields)
    assert len(smtp.wait_for(10)) == 10
