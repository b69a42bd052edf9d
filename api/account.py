"""The signed-in account's own data over HTTP (a download is something a websocket cannot hand over).

- `GET /api/account/export`: every record the account holds about its owner (app/services/accounts
  `export_my_data`) as a JSON attachment, from a signed-in browser (the session cookies). Audited; limited
  to `RATE_LIMIT_DATA_EXPORT` an hour per account. 401 not_signed_in, 429 rate_limited (with Retry-After).
  A GET changes nothing but the audit log and the counter, so it needs no CSRF token; the cookies are
  SameSite=Lax and the answer is never cached.
"""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.deps import SessionDep, SignedInDep
from app.services.accounts import export_my_data
from app.services.errors import RateLimited, ServiceError

router = APIRouter(prefix="/api/account", tags=["account"])
NOT_SIGNED_IN = "Please sign in to download your data."
EXPORT_FILENAME = "medivisit-my-data.json"


@router.get(
    "/export",
    response_model=None,
    responses={200: {"description": "The account's records, as a JSON attachment"}},
)
async def export(actor: SignedInDep, session: SessionDep) -> Response:
    """Download your own records as JSON."""
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        data = await export_my_data(session=session, actor=actor)
    except RateLimited as exc:
        return JSONResponse(
            {"code": exc.code, "message": exc.message},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{EXPORT_FILENAME}"',
            "Cache-Control": "private, no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
