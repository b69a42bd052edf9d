"""Careers' files over HTTP (ReactPy's websocket cannot carry a file). Errors are JSON `{code, message}`.

- `POST /api/careers/cv`: multipart form with one `file` (PDF, Word or ODT, at most UPLOAD_MAX_BYTES), from a
  page of this site (CSRF double submit: `X-CSRF-Token` equal to the `mv_csrf` cookie), signed in or not:
  a visitor is known by the `mv_visitor` cookie the page set. Answers 201 `{id, filename, size,
  content_type}`: the CV staged for the application form. 400 no_file / empty_file / no_visitor,
  403 csrf_failed, 411 length_required, 413 too_large, 415 unsupported_type, 429 rate_limited.
- `GET /api/careers/applications/{id}/cv`: the application's CV as a download, for staff with manage_staff
  (audited); 401 not_signed_in, 403 forbidden, 404 not_found.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from api.deps import SessionDep, SignedInDep, signed_in
from api.uploads import NOT_SIGNED_IN, error_answer, private_download, read_one_file, refusal, refused_upload
from app.principal import Principal
from app.services.careers import open_cv, stage_cv
from app.services.errors import RateLimited, ServiceError

router = APIRouter(prefix="/api/careers", tags=["careers files"])

VISITOR_COOKIE = "mv_visitor"  # issued by the page route (medivisit/main.py) to every browser


@router.post("/cv", status_code=201, responses={201: {"description": "`{id, filename, size, content_type}`"}})
async def upload_cv(request: Request, session: SessionDep) -> Response:
    """Stage a CV for the application form (anyone, signed in or not)."""
    if (refused := refused_upload(request)) is not None:
        return refused
    actor = await signed_in(session, request)
    if actor is None:
        visitor = request.cookies.get(VISITOR_COOKIE, "")
        if not visitor:
            return error_answer(400, "no_visitor", "Please reload the page before uploading your CV.")
        actor = Principal.visitor(visitor).from_client(
            ip=request.client.host if request.client else "", user_agent=request.headers.get("user-agent", "")
        )
    read = await read_one_file(request, missing="Choose a file to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        staged = await stage_cv(session=session, actor=actor, filename=filename, data=data)
    except RateLimited as exc:
        answer = refusal(exc)
        answer.headers["Retry-After"] = str(exc.retry_after)
        return answer
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse(staged.model_dump(), status_code=201)


@router.get("/applications/{application_id}/cv", response_model=None)
async def download_cv(application_id: str, actor: SignedInDep, session: SessionDep) -> Response:
    """Download an application's CV (staff with manage_staff; audited)."""
    if actor is None:
        return error_answer(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        found = await open_cv(session=session, actor=actor, application_id=application_id)
    except ServiceError as exc:
        return refusal(exc)
    if not found.path.is_file():
        return error_answer(404, "not_found", "This file is no longer available.")
    return private_download(found.path, media_type=found.cv.content_type, filename=found.cv.filename)
