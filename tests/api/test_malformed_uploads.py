"""Malformed multipart bodies on every upload endpoint answer 400 with a machine-readable code, never a 500
(issue 27, inputs 1): a boundary that never closes, no boundary at all, garbage, broken part headers.
The careers CV upload is open to visitors; the others need a signed-in browser. Before the fix python-multipart's
parse errors were 500s with a traceback, Starlette's own refusals a bare `{"detail"}`, and a body cut before its
closing boundary was stored as a truncated file."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from api.uploads import MALFORMED
from app import db as app_db
from app.auth.common import RequestOrigin
from app.auth.sessions import sign_in_with_password
from app.services.accounts.internal import create_account
from medivisit.main import create_app
from models.account import Role

PASSWORD = "correct-horse-1"
CSRF = "csrf-token-for-tests"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 128
ENDPOINTS = [
    "/api/uploads",
    "/api/ads/images",
    "/api/store/products/00000000-0000-4000-8000-000000000000/images",
    "/api/enrollment/documents",
    "/api/enrollment/photo",
    "/api/careers/cv",
]
PART = b'Content-Disposition: form-data; name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n'
BODIES = {
    "never-closed": ("multipart/form-data; boundary=XYZ", b"--XYZ\r\n" + PART + PNG),
    "no-boundary": ("multipart/form-data", b"--XYZ\r\n" + PART + PNG + b"\r\n--XYZ--\r\n"),
    "empty-boundary": ("multipart/form-data; boundary=", b"--\r\n" + PART + PNG + b"\r\n----\r\n"),
    "garbage": ("multipart/form-data; boundary=XYZ", b"\x00\xff garbage \r\n\r\n\r\n--"),
    "broken-part-header": (
        "multipart/form-data; boundary=XYZ",
        b"--XYZ\r\nthis is not a header\r\n\r\n" + PNG + b"\r\n--XYZ--\r\n",
    ),
    "no-disposition": (
        "multipart/form-data; boundary=XYZ",
        b"--XYZ\r\nContent-Type: image/png\r\n\r\n" + PNG + b"\r\n--XYZ--\r\n",
    ),
    "empty": ("multipart/form-data; boundary=XYZ", b""),
    "not-multipart": ("application/json", b'{"file": "scan.png"}'),
}


@pytest.fixture
async def clients(identity_env) -> AsyncIterator[dict[str, httpx.AsyncClient]]:
    transport = httpx.ASGITransport(app=create_app())
    email = f"patient-{uuid.uuid4().hex[:10]}@medivisit.test"
    async with app_db.unit_of_work() as session:
        await create_account(
            session=session, email=email, password=PASSWORD, role=Role.patient, name="Pat Doe"
        )
    async with app_db.unit_of_work() as session:
        signed_in = await sign_in_with_password(
            session=session, origin=RequestOrigin(), email=email, password=PASSWORD
        )
    member = httpx.AsyncClient(transport=transport, base_url="http://testserver")
    member.cookies.set("mv_csrf", CSRF)
    member.cookies.set("mv_access", signed_in.access_token)
    visitor = httpx.AsyncClient(transport=transport, base_url="http://testserver")
    visitor.cookies.set("mv_csrf", CSRF)
    visitor.cookies.set("mv_visitor", uuid.uuid4().hex)
    yield {"member": member, "visitor": visitor}
    await member.aclose()
    await visitor.aclose()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("case", list(BODIES))
async def test_a_malformed_body_is_a_400_with_a_code(clients, endpoint, case) -> None:
    content_type, body = BODIES[case]
    who = "visitor" if endpoint == "/api/careers/cv" else "member"
    answer = await clients[who].post(
        endpoint, content=body, headers={"Content-Type": content_type, "X-CSRF-Token": CSRF}
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "malformed_upload"), answer.text
    assert answer.json()["message"] == MALFORMED


@pytest.mark.parametrize("endpoint", ENDPOINTS)
async def test_a_url_encoded_form_has_no_file(clients, endpoint) -> None:
    who = "visitor" if endpoint == "/api/careers/cv" else "member"
    answer = await clients[who].post(
        endpoint,
        content=b"file=%ZZ&&==",
        headers={"Content-Type": "application/x-www-form-urlencoded", "X-CSRF-Token": CSRF},
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "no_file"), answer.text
