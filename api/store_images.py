"""Store product photos over HTTP (ReactPy's websocket cannot carry a file).

- `POST /api/store/products/{product_id}/images`: multipart form with one `file` (PNG, JPEG or WebP, at most
  UPLOAD_MAX_BYTES) from a signed-in staff member's browser (manage_services) with the CSRF token in
  `X-CSRF-Token`. Answers 201 `{id, url}`, or `{code, message}`: 401 not_signed_in, 403 csrf_failed or
  forbidden, 404 not_found, 411 length_required, 413 too_large, 415 unsupported_type, 400 no_file or
  empty_file, 422 too_many_images.
- `GET /api/store/images/{image_id}`: the photo (`nosniff`, cached for a day), or 404 not_found.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from api.deps import SessionDep
from api.uploads import public_image, read_one_file, refusal, uploader
from app.services.errors import ServiceError
from app.services.store import add_product_image, open_product_image

router = APIRouter(prefix="/api/store", tags=["store product photos"])


@router.post(
    "/products/{product_id}/images", status_code=201, responses={201: {"description": "`{id, url}`"}}
)
async def upload_image(product_id: str, request: Request, session: SessionDep) -> Response:
    """Add one photo to a product (staff with manage_services)."""
    actor = await uploader(session, request)
    if isinstance(actor, Response):
        return actor
    read = await read_one_file(request, missing="Choose a photo to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        image = await add_product_image(
            session=session, actor=actor, product_id=product_id, filename=filename, data=data
        )
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse(image.model_dump(), status_code=201)


@router.get("/images/{image_id}", response_model=None)
async def image(image_id: str, session: SessionDep) -> Response:
    return await public_image(open_product_image, session=session, image_id=image_id)
