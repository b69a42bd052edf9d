"""Credential files over HTTP (api/credentials.py, issue 13): shown inline to credential reviewers and
their applicant with headers that keep them inert (nosniff, their own policy), refused to anyone else as if
they did not exist; an applicant's photo is public only once the provider it became is listed."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import select

from app import db as app_db
from app import storage
from app.settings import get_settings
from models.account import Role
from models.enrollment import CredentialDocument, DocumentKind, ProviderApplication
from tests import factories


@pytest.fixture
async def files(identity_env, client, tmp_path, monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()
    applicant = await factories.person(Role.patient, "Nia Applicant")
    application_id = await factories.application(applicant)
    async with app_db.unit_of_work() as session:
        documents = {d.kind: d.id for d in await session.scalars(select(CredentialDocument))}
    return client, applicant, application_id, documents


def signed_in(client: httpx.AsyncClient, person: factories.Person | None) -> httpx.AsyncClient:
    client.cookies.clear()
    if person is not None:
        client.cookies.set("mv_access", person.access_token)
    return client


async def test_reviewers_and_the_applicant_open_documents_inline_and_nobody_else(files) -> None:
    client, applicant, _application_id, documents = files
    management = await factories.person(Role.management)
    support = await factories.person(Role.support)
    url = f"/api/enrollment/documents/{documents[DocumentKind.malpractice_insurance]}"
    for who in (management, applicant):
        response = await signed_in(client, who).get(url)
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        assert response.headers["content-type"] == "application/pdf"
        assert response.headers["content-disposition"].startswith("inline")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["content-security-policy"] == "default-src 'none'"
        assert response.headers["cache-control"] == "private, no-store"
    image = await signed_in(client, management).get(
        f"/api/enrollment/documents/{documents[DocumentKind.license]}"
    )
    assert image.headers["content-type"] == "image/png"
    assert image.headers["content-security-policy"] == "default-src 'none'; sandbox"
    assert (await signed_in(client, support).get(url)).json()["code"] == "not_found"
    assert (await signed_in(client, None).get(url)).status_code == 401
    assert (await signed_in(client, management).get("/api/enrollment/documents/nope")).status_code == 404


async def test_an_applicants_photo_is_public_only_once_listed(files) -> None:
    client, applicant, application_id, _documents = files
    async with app_db.unit_of_work() as session:
        row = await session.get(ProviderApplication, application_id)
        row.photo_key = await storage.save(factories.png_bytes(64, 64))
    url = f"/api/enrollment/photos/{application_id}"
    assert (await signed_in(client, None).get(url)).status_code == 404
    assert (await signed_in(client, applicant).get(url)).headers["content-type"] == "image/png"
    provider_id = await factories.provider("Nia Applicant", owner=applicant)
    async with app_db.unit_of_work() as session:
        row = await session.get(ProviderApplication, application_id)
        row.provider_id, row.status = provider_id, "approved"
    public = await signed_in(client, None).get(url)
    assert public.status_code == 200 and public.content.startswith(b"\x89PNG")
