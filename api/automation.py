"""Automation's workflow templates over HTTP (issue 15 part 4): `GET /api/automation/templates/{id}.json`
answers the template as an n8n workflow file to import (a websocket cannot hand over a file).

The signed-in browser's session cookie names the actor; the service checks owner or admin itself. 401
not_signed_in, 403 for other roles, 404 for an unknown template. A GET changes nothing, so it needs no CSRF
token; the answer is never cached.
"""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.deps import SessionDep, SignedInDep
from app.services.automation import get_workflow_template
from app.services.errors import ServiceError

router = APIRouter(prefix="/api/automation", tags=["automation"])
NOT_SIGNED_IN = "Please sign in to download workflow templates."


@router.get(
    "/templates/{template_id}.json",
    response_model=None,
    responses={200: {"description": "An n8n workflow to import", "content": {"application/json": {}}}},
)
async def download_template(actor: SignedInDep, session: SessionDep, template_id: str) -> Response:
    """One of the four workflow templates as an importable n8n workflow (owners and admins)."""
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        workflow = await get_workflow_template(session=session, actor=actor, template_id=template_id)
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return Response(
        json.dumps(workflow, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="medivisit-{template_id[:64]}.json"',
            "Cache-Control": "no-store",
        },
    )
