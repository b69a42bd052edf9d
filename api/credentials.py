"""Credential files over HTTP (issue 13), opened in the browser rather than downloaded, for who
app/services/enrollment allows (credential reviewers, audited; the applicant; a listed provider's photo for
everybody). Errors are JSON `{code, message}`.

- `GET /api/enrollment/documents/{id}`: a credential document (PDF, image or text) with
  `Content-Disposition: inline`; 401 not_signed_in, 404 not_found for anyone not allowed.
- `GET /api/enrollment/photos/{application_id}`: an applicant's photo (the provider's profile photo once
  listed); 404 not_found when not allowed.

The pages never frame these files (their policy has `frame-src 'none'`): an image is shown with `<img>`, a
PDF opens in its own tab. Each response brings its own policy: `nosniff` (the stored type is the one the
upload's contents were checked to be), `default-src 'none'` (nothing a file holds may load or run anything),
`sandbox` for everything but PDFs (Chromium's PDF viewer refuses sandboxed documents, and a PDF's policy
already forbids every fetch), never cached by shared caches.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from api.deps import SessionDep, SignedInDep, signed_in
from app.principal import Principal
from app.services.enrollment import CredentialFile, open_applicant_photo, open_credential_file
from app.services.errors import ServiceError

router = APIRouter(prefix="/api/enrollment", tags=["credential files"])
NOT_SIGNED_IN = "Please sign in to open credential documents."
GONE = "This file is no longer available."
PDF = "application/pdf"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def inline_file(found: CredentialFile) -> Response:
    """The file, shown in the browser (never run, never sniffed)."""
    if not found.path.is_file():
        return _error(404, "not_found", GONE)
    policy = "default-src 'none'" if found.content_type == PDF else "default-src 'none'; sandbox"
    return FileResponse(
        found.path,
        media_type=found.content_type,
        filename=found.filename,
        content_disposition_type="inline",
        headers={
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, no-store",
            "Content-Security-Policy": policy,
            "Cross-Origin-Resource-Policy": "same-origin",
        },
    )


@router.get("/documents/{document_id}", response_model=None)
async def credential_document(document_id: str, actor: SignedInDep, session: SessionDep) -> Response:
    """Open a credential document the signed-in user may see."""
    if actor is None:
        return _error(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        found = await open_credential_file(session=session, actor=actor, document_id=document_id[:36])
    except ServiceError as exc:
        return _error(exc.status_code, exc.code, exc.message)
    return inline_file(found)


@router.get("/photos/{application_id}", response_model=None)
async def applicant_photo(application_id: str, request: Request, session: SessionDep) -> Response:
    """An applicant's photo: a listed provider's for everybody, else for reviewers and the applicant."""
    actor = await signed_in(session, request) or Principal.visitor("")
    try:
        found = await open_applicant_photo(session=session, actor=actor, application_id=application_id[:36])
    except ServiceError as exc:
        return _error(exc.status_code, exc.code, exc.message)
    return inline_file(found)
