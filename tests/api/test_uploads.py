"""Help-desk files over HTTP (api/uploads.py) against the ASGI app: who may upload (signed in, CSRF
double submit), the size and type limits (magic bytes, not only the name), and who may download what,
attachments of internal notes included."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import sign_in_with_password
from app.principal import Principal
from app.services.accounts.internal import create_account
from app.services.support import open_ticket, reply_to_ticket
from medivisit.main import create_app
from models.account import Role

PASSWORD = "correct-horse-1"
CSRF = "csrf-token-for-tests"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 128
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"


class Browser:
    """A browser of one signed-in person: its session cookies on an httpx client, and the same session
    as the services' actor."""

    def __init__(self, client: httpx.AsyncClient, actor: Principal | None) -> None:
        self.client, self.actor = client, actor

    async def upload(
        self, name: str, data: bytes, *, csrf: str | None = CSRF, headers: dict | None = None
    ) -> httpx.Response:
        sent = {"X-CSRF-Token": csrf} if csrf is not None else {}
        return await self.client.post(
            "/api/uploads", files={"file": (name, data)}, headers={**sent, **(headers or {})}
        )

    async def staged(self, name: str, data: bytes) -> str:
        response = await self.upload(name, data)
        assert response.status_code == 201, response.text
        return response.json()["id"]

    async def download(self, attachment_id: str) -> httpx.Response:
        return await self.client.get(f"/api/attachments/{attachment_id}")


@pytest.fixture
async def browser(identity_env) -> AsyncIterator[Callable]:
    """`await browser(role)`: a new account of `role` signed in on its own client (`None`: signed out)."""
    transport = httpx.ASGITransport(app=create_app())
    clients: list[httpx.AsyncClient] = []

    async def open_browser(role: Role | None) -> Browser:
        client = httpx.AsyncClient(transport=transport, base_url="http://testserver")
        clients.append(client)
        client.cookies.set("mv_csrf", CSRF)
        if role is None:
            return Browser(client, None)
        email = f"{role.value}-{uuid.uuid4().hex[:10]}@medivisit.test"
        async with app_db.unit_of_work() as session:
            await create_account(
                session=session, email=email, password=PASSWORD, role=role, name="Test Person"
            )
        async with app_db.unit_of_work() as session:
            signed_in = await sign_in_with_password(
                session=session, origin=RequestOrigin(), email=email, password=PASSWORD
            )
        client.cookies.set("mv_access", signed_in.access_token)
        return Browser(client, Principal.user(user_id=signed_in.user.id, session_id=signed_in.session_id))

    yield open_browser
    for client in clients:
        await client.aclose()


async def test_a_signed_in_user_uploads_a_file_and_downloads_it_while_staged(browser) -> None:
    patient = await browser(Role.patient)
    response = await patient.upload("C:\\Users\\me\\scan <1>.PNG", PNG)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body == {
        "id": body["id"],
        "filename": "scan _1_.png",
        "size": len(PNG),
        "content_type": "image/png",
    }
    download = await patient.download(body["id"])
    assert download.status_code == 200 and download.content == PNG
    assert download.headers["content-type"] == "image/png"
    assert download.headers["content-disposition"] == "attachment; filename*=utf-8''scan%20_1_.png"
    assert download.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("name", "data", "content_type"),
    [
        ("photo.jpeg", JPEG, "image/jpeg"),
        ("photo.jpg", JPEG, "image/jpeg"),
        ("anim.gif", b"GIF89a" + b"\x00" * 16, "image/gif"),
        ("pic.webp", b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 16, "image/webp"),
        ("invoice.pdf", PDF, "application/pdf"),
        ("notes.txt", "Café opened at 9.\r\n\tThanks!".encode(), "text/plain; charset=utf-8"),
    ],
)
async def test_every_allowed_type_is_accepted_by_its_contents(browser, name, data, content_type) -> None:
    patient = await browser(Role.patient)
    attachment_id = await patient.staged(name, data)
    download = await patient.download(attachment_id)
    assert download.content == data and download.headers["content-type"] == content_type


@pytest.mark.parametrize(
    ("name", "data", "status", "code"),
    [
        ("setup.exe", b"MZ\x90\x00" + b"\x00" * 64, 415, "unsupported_type"),
        ("setup.png", b"MZ\x90\x00" + b"\x00" * 64, 415, "unsupported_type"),  # the name lies
        ("report.pdf", PNG, 415, "unsupported_type"),  # contents of another allowed type
        ("page.html", b"<html><script>alert(1)</script></html>", 415, "unsupported_type"),
        ("binary.txt", b"text\x00with a NUL", 415, "unsupported_type"),
        ("empty.txt", b"", 400, "empty_file"),
    ],
)
async def test_files_are_judged_by_their_contents_and_name(browser, name, data, status, code) -> None:
    patient = await browser(Role.patient)
    response = await patient.upload(name, data)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"]


async def test_the_size_limit_is_five_megabytes(browser) -> None:
    patient = await browser(Role.patient)
    five_mb = 5 * 1024 * 1024
    exactly = await patient.upload("big.txt", b"a" * five_mb)
    assert exactly.status_code == 201 and exactly.json()["size"] == five_mb
    over = await patient.upload("bigger.txt", b"a" * (five_mb + 1))
    assert over.status_code == 413
    assert over.json() == {"code": "too_large", "message": "Files can be at most 5 MB."}
    way_over = await patient.upload("huge.txt", b"a" * (five_mb + 100 * 1024))  # refused by its length
    assert (way_over.status_code, way_over.json()["code"]) == (413, "too_large")


async def test_uploads_need_a_signed_in_browser_and_the_csrf_token(browser) -> None:
    visitor = await browser(None)
    response = await visitor.upload("notes.txt", b"hello")
    assert (response.status_code, response.json()["code"]) == (401, "not_signed_in")
    patient = await browser(Role.patient)
    for csrf in (None, "not-the-cookie"):
        refused = await patient.upload("notes.txt", b"hello", csrf=csrf)
        assert (refused.status_code, refused.json()["code"]) == (403, "csrf_failed")
    other_site = await patient.upload("notes.txt", b"hello", headers={"Origin": "https://evil.example"})
    assert (other_site.status_code, other_site.json()["code"]) == (403, "csrf_failed")
    no_file = await patient.client.post("/api/uploads", data={"other": "x"}, headers={"X-CSRF-Token": CSRF})
    assert (no_file.status_code, no_file.json()["code"]) == (400, "no_file")


async def test_downloads_follow_who_may_see_the_ticket_and_never_give_notes_to_customers(browser) -> None:
    customer, stranger = await browser(Role.patient), await browser(Role.patient)
    support, visitor = await browser(Role.support), await browser(None)
    on_ticket = await customer.staged("insurance.pdf", PDF)
    async with app_db.unit_of_work() as session:
        ticket = await open_ticket(
            session=session,
            actor=customer.actor,
            category="billing",
            subject="Insurance card",
            description="Attached.",
            attachment_ids=[on_ticket],
        )
    on_note = await support.staged("internal.txt", b"Customer is a VIP")
    on_reply = await support.staged("steps.txt", b"1. Sign out\n2. Sign in")
    async with app_db.unit_of_work() as session:
        await reply_to_ticket(
            session=session,
            actor=support.actor,
            ticket_id=ticket.id,
            content="Looked up",
            internal=True,
            attachment_ids=[on_note],
        )
        await reply_to_ticket(
            session=session,
            actor=support.actor,
            ticket_id=ticket.id,
            content="Try this",
            attachment_ids=[on_reply],
        )
    expected = {
        # attachment: (customer, stranger, support)
        on_ticket: (200, 404, 200),
        on_note: (404, 404, 200),
        on_reply: (200, 404, 200),
    }
    for attachment_id, statuses in expected.items():
        seen = [(await who.download(attachment_id)).status_code for who in (customer, stranger, support)]
        assert tuple(seen) == statuses, attachment_id
    refused = await customer.download(on_note)
    assert refused.json()["code"] == "not_found" and b"VIP" not in refused.content
    anonymous = await visitor.download(on_reply)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_signed_in")
    assert (await support.download(str(uuid.uuid4()))).status_code == 404


async def test_daily_and_total_upload_quotas(browser, monkeypatch) -> None:
    """One account uploaded 240 MiB in 35 s; each person now has a daily quota, and all uploads a total."""
    from app.settings import get_settings

    monkeypatch.setenv("UPLOAD_QUOTA_BYTES_PER_DAY", str(3 * 1024 * 1024))
    get_settings.cache_clear()
    patient = await browser(Role.patient)
    megabyte = b"a" * (1024 * 1024)
    for n in range(3):
        assert (await patient.upload(f"part-{n}.txt", megabyte)).status_code == 201
    over = await patient.upload("one-more.txt", megabyte)
    assert over.status_code == 413 and over.json()["code"] == "quota_exceeded"
    assert "3 MB of files a day" in over.json()["message"]
    other = await browser(Role.patient)  # the quota is per person
    assert (await other.upload("mine.txt", megabyte)).status_code == 201

    monkeypatch.setenv("UPLOAD_STORAGE_BYTES", str(4 * 1024 * 1024 + 10))
    get_settings.cache_clear()
    third = await browser(Role.patient)
    full = await third.upload("late.txt", megabyte)
    assert full.status_code == 507 and full.json()["code"] == "storage_full"
    get_settings.cache_clear()
