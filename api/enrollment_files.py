"""Provider enrollment's credential documents over HTTP (ReactPy's websocket cannot carry a file).

- `POST /api/enrollment/documents`: multipart form with one `file` and the fields `kind` (license,
  government_id, malpractice_insurance, cpr_bls), `issued_on`, `expires_on` (YYYY-MM-DD, may be empty),
  from the signed-in applicant's browser with the CSRF token in `X-CSRF-Token`. Answers 201 with the
  document, or `{code, message, errors}` (422 with field errors for wrong dates).
- `POST /api/enrollment/photo`: multipart form with one `file` (PNG, JPEG or WebP): the applicant's photo,
  replacing the one before. Answers 201 `{photo: true}`, or `{code, message}`.
Opening a document again (`GET /api/enrollment/documents/{id}`, for its applicant and the staff who verify
it) is api/credentials.py.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.datastructures import UploadFile

from api.deps import SessionDep
from api.uploads import MalformedUpload, error_answer, read_one_file, refusal, upload_form, uploader
from app.services.enrollment import StepInvalid, add_document, set_photo
from app.services.errors import ServiceError
from app.settings import get_settings
from models.enrollment import DocumentCreate

router = APIRouter(prefix="/api/enrollment", tags=["provider enrollment files"])


@router.post("/documents", status_code=201, responses={201: {"description": "the document handed in"}})
async def upload_document(request: Request, session: SessionDep) -> Response:
    """Hand in one credential document (PDF, PNG, JPEG or WebP, at most UPLOAD_MAX_BYTES) with its dates."""
    actor = await uploader(session, request)
    if isinstance(actor, Response):
        return actor
    limit = get_settings().upload_max_bytes
    try:
        async with upload_form(request, max_fields=4) as form:
            file = form.get("file")
            if not isinstance(file, UploadFile):
                return error_answer(400, "no_file", "Choose a file to upload.")
            try:
                described = DocumentCreate(
                    kind=str(form.get("kind") or ""),
                    filename=file.filename or "",
                    issued_on=str(form.get("issued_on") or ""),
                    expires_on=str(form.get("expires_on") or ""),
                )
            except ValidationError:
                return error_answer(422, "validation_failed", "Choose which document this is.")
            data = await file.read(limit + 1)
    except MalformedUpload as exc:
        return exc.answer
    try:
        document = await add_document(session=session, actor=actor, document=described, data=data)
    except StepInvalid as exc:
        return JSONResponse({"code": exc.code, "message": exc.message, "errors": exc.errors}, status_code=422)
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse(document.model_dump(mode="json"), status_code=201)


@router.post("/photo", status_code=201, responses={201: {"description": "the photo set"}})
async def upload_photo(request: Request, session: SessionDep) -> Response:
    """The applicant's photo (PNG, JPEG or WebP, at most UPLOAD_MAX_BYTES), replacing the one before."""
    actor = await uploader(session, request)
    if isinstance(actor, Response):
        return actor
    read = await read_one_file(request, missing="Choose a photo to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        application = await set_photo(session=session, actor=actor, filename=filename, data=data)
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse({"photo": bool(application.photo_key)}, status_code=201)
