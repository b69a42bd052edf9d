"""Careers' files over HTTP (api/careers.py) against the ASGI app: a signed-out visitor uploads a CV from
this site's page (CSRF double submit, the visitor cookie, a real PDF/Word/ODT), and only staff with
manage_staff download it; every refusal is a 4xx with a machine-readable code."""

from __future__ import annotations

import httpx

from app.principal import Principal
from app.services.careers import apply_for_job, list_applications, save_posting
from medivisit.main import create_app
from models.account import Role
from models.careers import ApplicationCreate, PostingWrite
from tests.factories import person, run

CSRF = "csrf-token-for-tests"
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"
JOB = PostingWrite(
    title="Scheduler",
    team="Patient support",
    remote=True,
    employment_type="part_time",
    description="Plan the day's visits.",
    status="open",
)


def client(transport: httpx.ASGITransport, **cookies: str) -> httpx.AsyncClient:
    browser = httpx.AsyncClient(transport=transport, base_url="http://testserver")
    for name, value in cookies.items():
        browser.cookies.set(name, value)
    return browser


async def test_a_visitor_uploads_a_cv_and_only_hr_downloads_it(identity_env) -> None:
    transport = httpx.ASGITransport(app=create_app())
    hr, support = await person(Role.hr), await person(Role.support)
    posting = await run(save_posting, actor=hr.actor, data=JOB)
    async with (
        client(transport, mv_csrf=CSRF, mv_visitor="visitor-ada") as visitor,
        client(transport, mv_csrf=CSRF) as cookieless,
    ):

        async def upload(
            browser: httpx.AsyncClient, name: str, data: bytes, csrf: str = CSRF
        ) -> httpx.Response:
            return await browser.post(
                "/api/careers/cv", files={"file": (name, data)}, headers={"X-CSRF-Token": csrf}
            )

        for answer, status, code in (
            (await upload(visitor, "cv.pdf", PDF, csrf="forged"), 403, "csrf_failed"),
            (await upload(cookieless, "cv.pdf", PDF), 400, "no_visitor"),
            (await upload(visitor, "cv.pdf", b"MZ\x90\x00"), 415, "unsupported_type"),
            (await upload(visitor, "cv.pdf", b""), 400, "empty_file"),
        ):
            assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
        staged = await upload(visitor, "Ada's CV.pdf", PDF)
        assert staged.status_code == 201 and staged.json()["filename"] == "Ada's CV.pdf"

    ada = Principal.visitor("visitor-ada")
    form = ApplicationCreate(name="Ada Lovelace", email="ada@example.com", cv_id=staged.json()["id"])
    await run(apply_for_job, actor=ada, slug=posting.slug, data=form)
    (application,) = (await run(list_applications, actor=hr.actor, slug=posting.slug)).applications
    address = f"/api/careers/applications/{application.id}/cv"
    async with (
        client(transport) as signed_out,
        client(transport, mv_access=support.access_token) as support_browser,
        client(transport, mv_access=hr.access_token) as hr_browser,
    ):
        assert (await signed_out.get(address)).status_code == 401
        refused = await support_browser.get(address)
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
        assert (await hr_browser.get("/api/careers/applications/nope/cv")).status_code == 404
        download = await hr_browser.get(address)
    assert download.status_code == 200 and download.content == PDF
    assert download.headers["content-disposition"].startswith("attachment")
    assert download.headers["x-content-type-options"] == "nosniff"
