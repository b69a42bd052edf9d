"""Help-desk files over HTTP: the browser uploads an attachment before sending its message (ReactPy's
websocket cannot carry a file), and anyone allowed downloads it. Errors are JSON `{code, message}`.

- `POST /api/uploads`: multipart form with one `file`, from a signed-in browser (the session cookies)
  carrying the CSRF token in `X-CSRF-Token` (double submit: equal to the `mv_csrf` cookie). Answers 201
  `{id, filename, size, content_type}`: a staged attachment of the uploader, claimed when the message or
  ticket it goes with is sent. 401 not_signed_in, 403 csrf_failed, 411 length_required, 413 too_large,
  415 unsupported_type, 400 no_file or empty_file, 429 too_many_uploads.
- `GET /api/attachments/{id}`: the file as a download (`Content-Disposition: attachment`, `nosniff`), for
  whoever app/services/support_attachments.py allows; 401 not_signed_in, 404 not_found for anyone else.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.datastructures import UploadFile

from app.api.deps import SessionDep, signed_in
from app.auth.web import CSRF_COOKIE, CSRF_HEADER, csrf_matches, origin_allowed
from app.principal import Principal
from app.services.errors import ServiceError
from app.services.support import open_attachment, stage_attachment
from app.settings import get_settings

router = APIRouter(prefix="/api", tags=["help desk files"])

# Room for the multipart boundaries and headers around the file itself.
MULTIPART_OVERHEAD = 64 * 1024
# Refusals the services signal by code, answered with the fitting HTTP status.
_STATUS = {
    "too_large": 413,
    "unsupported_type": 415,
    "empty_file": 400,
    "too_many_uploads": 429,
    "quota_exceeded": 413,
    "storage_full": 507,
}
NOT_SIGNED_IN = "Please sign in to upload or download files."


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


def _refusal(exc: ServiceError) -> JSONResponse:
    return _error(_STATUS.get(exc.code, exc.status_code), exc.code, exc.message)


def refused_upload(request: Request) -> JSONResponse | None:
    """Why an upload is refused before its body is read (not from this site's page: 403; no or too large a
    Content-Length: 411, 413), or None. Every upload endpoint starts with it."""
    same_site = origin_allowed(request.headers.get("origin"), request.headers.get("host", ""))
    if not same_site or not csrf_matches(request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)):
        return _error(
            403, "csrf_failed", "This upload did not come from this site. Reload the page and retry."
        )
    limit = get_settings().upload_max_bytes
    length = request.headers.get("content-length", "")
    if not length.isdigit():
        return _error(411, "length_required", "The upload must say how large it is.")
    if int(length) > limit + MULTIPART_OVERHEAD:
        return _error(413, "too_large", f"Files can be at most {limit / (1024 * 1024):g} MB.")
    return None


async def uploader(
    session: SessionDep, request: Request, *, not_signed_in: str = NOT_SIGNED_IN
) -> tuple[Principal | None, Response | None]:
    """The signed-in person behind an upload from this site's page, or the answer refusing it (401, or
    `refused_upload`'s)."""
    actor = await signed_in(session, request)
    if actor is None:
        return None, _error(401, "not_signed_in", not_signed_in)
    refused = refused_upload(request)
    return (None, refused) if refused is not None else (actor, None)


async def read_one_file(request: Request, *, missing: str) -> tuple[str, bytes] | JSONResponse:
    """The multipart form's one `file`: its name and contents (read up to one byte over UPLOAD_MAX_BYTES,
    so the service can say it is too large), or 400 no_file saying `missing`."""
    async with request.form(max_files=1, max_fields=1, max_part_size=1024) as form:
        file = form.get("file")
        if not isinstance(file, UploadFile):
            return _error(400, "no_file", missing)
        return file.filename or "", await file.read(get_settings().upload_max_bytes + 1)


def private_download(path: Path, *, media_type: str, filename: str) -> FileResponse:
    """A stored file as a download nobody caches or runs (`attachment`, `nosniff`, a sandboxing CSP)."""
    return FileResponse(
        path,
        media_type=media_type,
        filename=filename,
        content_disposition_type="attachment",
        headers={
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, no-store",
            "Content-Security-Policy": "default-src 'none'; sandbox",
        },
    )


@router.post(
    "/uploads",
    status_code=201,
    responses={201: {"description": "`{id, filename, size, content_type}` of the staged file"}},
)
async def upload(request: Request, session: SessionDep) -> Response:
    """Stage one file (PNG, JPEG, GIF, WebP, PDF or text, at most 5 MB) for a help-desk message."""
    actor, refused = await uploader(session, request)
    if refused is not None:
        return refused
    read = await read_one_file(request, missing="Choose a file to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        staged = await stage_attachment(session=session, actor=actor, filename=filename, data=data)
    except ServiceError as exc:
        return _refusal(exc)
    return JSONResponse(staged.model_dump(), status_code=201)


@router.get("/attachments/{attachment_id}", response_model=None)
async def download(attachment_id: str, request: Request, session: SessionDep) -> Response:
    """Download an attachment the signed-in user may see."""
    actor = await signed_in(session, request)
    if actor is None:
        return _error(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        found = await open_attachment(session=session, actor=actor, attachment_id=attachment_id)
    except ServiceError as exc:
        return _refusal(exc)
    if not found.path.is_file():
        return _error(404, "not_found", "This file is no longer available.")
    return private_download(
        found.path, media_type=found.attachment.content_type, filename=found.attachment.filename
    )
