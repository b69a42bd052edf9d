"""Ads over HTTP (issue 17 part 4).

- `GET /api/ads/click/{flight_id}?p=PLACEMENT`: counts the click (app/services/ads: once per ad per /24 or
  /48 per minute, never a crawler's) and redirects (302) to the ad's https address; 404 not_found for an
  unknown flight or one no one has approved yet (no open redirect). No cookie is read or set.
- `POST /api/ads/images`: multipart form with one `file` (PNG, JPEG or WebP, at most UPLOAD_MAX_BYTES) from a
  signed-in advertiser's browser with the CSRF token in `X-CSRF-Token`; 201 `{id, url}`, or `{code, message}`
  (401 not_signed_in, 403 csrf_failed or forbidden, 411, 413 too_large, 415 unsupported_type, 400 no_file).
- `GET /api/ads/images/{image_id}`: a creative's image (`nosniff`, cached a day), or 404.
- `GET /api/ads/flights/{flight_id}/receipt.pdf`: the receipt of a flight's card payment (its advertiser or
  staff holding manage_ads; anyone else 404), 401 not_signed_in, 422 when it has no payment yet.
- `GET /api/ads/figures.csv`: the signed-in advertiser's views, clicks, CTR, spend and budget per flight and
  placement; 401 not_signed_in, 403 for an account that does not advertise.
"""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from api.csv_files import csv_attachment, safe_cell
from api.deps import SessionDep, SignedInDep
from api.uploads import error_answer, public_image, read_one_file, refusal, uploader
from app.services.ads import add_ad_image, get_ad_figures, get_ad_receipt, open_ad_image, record_ad_click
from app.services.errors import ServiceError

router = APIRouter(prefix="/api/ads", tags=["ads"])
NOT_SIGNED_IN = "Please sign in to manage your ads."
CSV_HEADER = ("flight", "placement", "views", "clicks", "ctr", "spent_usd", "budget_usd")


@router.get(
    "/click/{flight_id}", response_model=None, responses={302: {"description": "to the ad's address"}}
)
async def click(flight_id: str, request: Request, session: SessionDep, p: str = "") -> Response:
    """Count a click on an ad shown in placement `p`, then go to the advertiser's page."""
    try:
        target = await record_ad_click(
            session=session,
            flight_id=flight_id,
            placement=p[:32],
            ip=request.client.host if request.client else "",
            user_agent=request.headers.get("user-agent", "")[:512],
        )
    except ServiceError as exc:
        return refusal(exc)
    return RedirectResponse(
        target, status_code=302, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    )


@router.post("/images", status_code=201, responses={201: {"description": "`{id, url}`"}})
async def upload_image(request: Request, session: SessionDep) -> Response:
    """Upload a creative's image (a signed-in advertiser)."""
    actor = await uploader(session, request, not_signed_in=NOT_SIGNED_IN)
    if isinstance(actor, Response):
        return actor
    read = await read_one_file(request, missing="Choose an image to upload.")
    if isinstance(read, JSONResponse):
        return read
    filename, data = read
    try:
        image = await add_ad_image(session=session, actor=actor, filename=filename, data=data)
    except ServiceError as exc:
        return refusal(exc)
    return JSONResponse(image, status_code=201)


@router.get("/images/{image_id}", response_model=None)
async def image(image_id: str, session: SessionDep) -> Response:
    return await public_image(open_ad_image, session=session, image_id=image_id)


@router.get("/figures.csv", response_model=None)
async def figures_csv(actor: SignedInDep, session: SessionDep) -> Response:
    """The advertiser's figures per flight and placement, as CSV."""
    if actor is None:
        return error_answer(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        figures = await get_ad_figures(session=session, actor=actor)
    except ServiceError as exc:
        return refusal(exc)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for row in [*figures.flights, *figures.placements]:
        writer.writerow(
            (
                safe_cell(row.flight_name),
                row.placement or "ALL",
                row.views,
                row.clicks,
                f"{row.ctr:.4f}",
                f"{row.spent_cents / 100:.2f}",
                f"{row.budget_cents / 100:.2f}",
            )
        )
    return csv_attachment(out.getvalue(), "ad-figures.csv")


@router.get("/flights/{flight_id}/receipt.pdf", response_model=None)
async def flight_receipt(flight_id: str, actor: SignedInDep, session: SessionDep) -> Response:
    """Download the receipt of your flight's card payment (budget paid, delivered, unspent refunded)."""
    if actor is None:
        return error_answer(401, "not_signed_in", NOT_SIGNED_IN)
    try:
        document = await get_ad_receipt(session=session, actor=actor, flight_id=flight_id[:36])
    except ServiceError as exc:
        return refusal(exc)
    return Response(
        document.content,
        media_type=document.media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{document.filename}"',
            "Cache-Control": "private, no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
