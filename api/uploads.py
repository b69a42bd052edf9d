"""Help-desk files over HTTP: the browser uploads an attachment before sending its message (ReactPy's
websocket cannot carry a file), and anyone allowed downloads it. Errors are JSON `{code, message}`.

- `POST /api/uploads`: multipart form with one `file`, from a signed-in browser (the session cookies)
  carrying the CSRF token in `X-CSRF-Token` (double submit: equal to the `mv_csrf` cookie). Answers 201
  `{id, filename, size, content_type}`: a staged attachment of the uploader, claimed when the message or
  ticket it goes with is sent. 401 not_signed_in, 403 csrf_failed, 411 length_required, 413 too_large,
  415 unsupported_type, 400 no_file or empty_file, 429 too_many_uploads, 400 malformed_upload.
- `GET /api/attachments/{id}`: the file as a download (`Content-Disposition: attachment`, `nosniff`), for
  whoever app/services/support_attachments.py allows; 401 not_signed_in, 404 not_found for anyone else.

Every upload endpoint (this one, ad images, product photos, enrollment documents and photo, careers CVs)
reads its body through `upload_form`, the one place that parses multipart: a body that is not
multipart/form-data with a boundary, that python-multipart cannot parse, or that ends before its closing
boundary (a cut connection: the file would be stored truncated) answers 400 `malformed_upload`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import parse_options_header
from starlette.datastructures import FormData, UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from api.deps import SessionDep, SignedInDep, signed_in
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
MALFORMED = (
    "The upload could not be read (it was incomplete or not a file form). Choose the file and try again."
)
MAX_BOUNDARY = 70  # RFC 2046 §5.1.1


class MalformedUpload(Exception):
    """The body is not a complete multipart/form-data form; `answer` is the 400 to send."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.answer = JSONResponse({"code": "malformed_upload", "message": MALFORMED}, status_code=400)


class _CompleteMultiPartParser(MultiPartParser):
    """Starlette's parser, but a form must end with its closing boundary, and python-multipart's own parse
    errors (which Starlette lets through as a 500) are refusals like Starlette's."""

    ended = False

    def on_end(self) -> None:
        self.ended = True

    async def parse(self) -> FormData:
        try:
            form = await super().parse()
        except FormParserError as exc:
            for file in self._files_to_close_on_error:
                file.close()
            raise MultiPartException(str(exc)) from exc
        if not self.ended:
            await form.close()
            raise MultiPartException("The body ended before the closing boundary.")
        return form


def error_answer(status: int, code: str, message: str) -> JSONResponse:
    """A refusal as every endpoint answers it: `{code, message}` with its status."""
    return JSONResponse({"code": code, "message": message}, status_code=status)


def refusal(exc: ServiceError) -> JSONResponse:
    """A service's refusal as an answer (its code's status)."""
    return error_answer(_STATUS.get(exc.code, exc.status_code), exc.code, exc.message)


def refused_upload(request: Request) -> JSONResponse | None:
    """Why an upload is refused before its body is read (not from this site's page: 403; no or too large a
    Content-Length: 411, 413), or None. Every upload endpoint starts with it."""
    same_site = origin_allowed(request.headers.get("origin"), request.headers.get("host", ""))
    if not same_site or not csrf_matches(request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)):
        return error_answer(
            403, "csrf_failed", "This upload did not come from this site. Reload the page and retry."
        )
    limit = get_settings().upload_max_bytes
    length = request.headers.get("content-length", "")
    if not length.isdigit():
        return error_answer(411, "length_required", "The upload must say how large it is.")
    if int(length) > limit + MULTIPART_OVERHEAD:
        return error_answer(413, "too_large", f"Files can be at most {limit / (1024 * 1024):g} MB.")
    return None


async def uploader(
    session: SessionDep, request: Request, *, not_signed_in: str = NOT_SIGNED_IN
) -> Principal | Response:
    """The signed-in person behind an upload from this site's page, or the answer refusing it (401, or
    `refused_upload`'s)."""
    actor = await signed_in(session, request)
    if actor is None:
        return error_answer(401, "not_signed_in", not_signed_in)
    refused = refused_upload(request)
    return refused if refused is not None else actor


@asynccontextmanager
async def upload_form(request: Request, *, max_fields: int = 1) -> AsyncIterator[FormData]:
    """The request's multipart form (at most one file and `max_fields` parts of 1 KB), closed on leaving;
    MalformedUpload for anything that is not a complete multipart/form-data body. A URL-encoded form
    cannot carry a file: it is an empty form (the endpoint answers no_file) and is not read."""
    media_type, params = parse_options_header(request.headers.get("content-type", ""))
    if media_type == b"application/x-www-form-urlencoded":
        yield FormData()
        return
    boundary = params.get(b"boundary", b"")
    if media_type != b"multipart/form-data" or not 0 < len(boundary) <= MAX_BOUNDARY:
        raise MalformedUpload("not multipart/form-data with a boundary")
    parser = _CompleteMultiPartParser(
        request.headers, request.stream(), max_files=1, max_fields=max_fields, max_part_size=1024
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise MalformedUpload(exc.message) from exc
    try:
        yield form
    finally:
        await form.close()


async def read_one_file(request: Request, *, missing: str) -> tuple[str, bytes] | JSONResponse:
    """The multipart form's one `file`: its name and contents (read up to one byte over UPLOAD_MAX_BYTES,
    so the service can say it is too large), or 400 no_file saying `missing`, or 400 malformed_upload."""
    try:
        async with upload_form(request) as form:
            file = form.get("file")
            if not isinstance(file, UploadFile):
                return error_answer(400, "no_file", missing)
            return file.filename or "", await file.read(get_settings().upload_max_bytes + 1)
    except MalformedUpload as exc:
        return exc.answer


async def public_image(open_image: Callable[..., Awaitable[tuple[Path, str]]], **lookup: Any) -> Response:
    """A public image (an ad's creative, a product photo) by the service that finds it: `nosniff`, cached for a
    day, or the service's refusal (404 not_found)."""
    try:
        path, content_type = await open_image(**lookup)
    except ServiceError as exc:
        return refusal(exc)
    return FileResponse(
        path,
        media_type=content_type,
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=86400"},
    )


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
    actor = await uploader(session, request)
    if isinstance(actor, Response):
        return actor
    read = await read_one_file(request, missing="Choose a file to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        staged = await stage_attachment(session=session, actor=actor, filename=filename, data=data)
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse(staged.model_dump(), status_code=201)


@router.get("/attachments/{attachment_id}", response_model=None)
async def download(attachment_id: str, actor: SignedInDep, session: SessionDep) -> Response:
    """Download an attachment the signed-in user may see."""
    if actor is None:
        return error_answer(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        found = await open_attachment(session=session, actor=actor, attachment_id=attachment_id)
    except ServiceError as exc:
        return refusal(exc)
    if not found.path.is_file():
        return error_answer(404, "not_found", "This file is no longer available.")
    return private_download(
        found.path, media_type=found.attachment.content_type, filename=found.attachment.filename
    )
