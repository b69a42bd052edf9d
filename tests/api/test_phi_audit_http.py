"""A help-desk download over HTTP is audited with the request's client address and User-Agent (hardening
issue, finding 11)."""

from __future__ import annotations

import uuid

from app import db as app_db
from app.services.staff._audit import list_audit
from app.services.support import open_ticket
from models.account import AccountRead, Role
from models.audit import AuditAction
from tests.api.test_uploads import PNG, browser  # noqa: F401 - the fixture

AGENT = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Safari/605.1.15"
)
OWNER = AccountRead(id=str(uuid.uuid4()), email="owner@medivisit.test", role=Role.owner)


async def test_a_staff_download_names_the_client_address_and_browser(browser) -> None:  # noqa: F811
    patient, support = await browser(Role.patient), await browser(Role.support)
    file_id = await patient.staged("rash.png", PNG)
    async with app_db.unit_of_work() as session:
        ticket = await open_ticket(
            session=session,
            actor=patient.actor,
            category="other",
            subject="A rash",
            description="See the photo.",
            attachment_ids=[file_id],
        )
    assert (await patient.download(file_id)).status_code == 200
    response = await support.client.get(f"/api/attachments/{file_id}", headers={"User-Agent": AGENT})
    assert response.status_code == 200 and response.content == PNG
    async with app_db.unit_of_work() as session:
        [entry] = await list_audit(session=session, reader=OWNER, action=AuditAction.attachment_download)
    assert entry.target == "rash.png" and entry.details["ticket_id"] == ticket.id
    assert (entry.ip, entry.user_agent) == ("127.0.0.1", AGENT)
