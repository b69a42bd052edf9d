"""PDF documents over HTTP (issue 14 parts 3, 5 and 8): a download is something a websocket cannot hand
over, so the screens link here.

- `GET /api/orders/{number}/receipt.pdf`: an order's receipt, for its patient or staff holding
  process_payments (anyone else: 404 not_found, as if there were no such order).
- `GET /api/store-orders/{number}/receipt.pdf`: a store order's receipt, for the same readers (its patient,
  admins, staff holding process_payments; anyone else: 404 not_found).
- `GET /api/provider-wallet/statement/{YYYY-MM}.pdf`: the signed-in provider's own monthly statement
  (422 for a malformed month, 404 without a provider profile).
- `GET /api/invoices/{number}.pdf`: an invoice, for staff holding create_invoices or its patient recipient
  once it was sent (anyone else: 404).

The signed-in browser's session cookie names the actor; the services check access and audit the read.
401 not_signed_in. Dates follow the browser's time zone (the `tz` cookie) where a document shows local
dates. A GET changes nothing but the audit log, so it needs no CSRF token; the answer is never cached.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from api.deps import SessionDep, signed_in
from app.pdf import PdfFile
from app.services.errors import ServiceError
from app.services.invoices import get_invoice_pdf
from app.services.ledger import monthly_statement_pdf
from app.services.receipts import get_order_receipt, get_store_order_receipt

router = APIRouter(tags=["documents"])
NOT_SIGNED_IN = "Please sign in to download this document."
PDF: dict[int | str, dict[str, Any]] = {
    200: {"description": "The document, as a PDF attachment", "content": {"application/pdf": {}}}
}


async def _download(
    request: Request, session: SessionDep, build: Callable[..., Awaitable[PdfFile]], **kwargs: Any
) -> Response:
    actor = await signed_in(session, request)
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        document = await build(session=session, actor=actor, **kwargs)
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return Response(
        document.content,
        media_type=document.media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{document.filename}"',
            "Cache-Control": "private, no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


@router.get("/api/orders/{number}/receipt.pdf", response_model=None, responses=PDF)
async def order_receipt(number: str, request: Request, session: SessionDep) -> Response:
    """Download the receipt of one of your orders (visits, fee, payments and refunds)."""
    return await _download(
        request, session, get_order_receipt, number=number[:32], time_zone=request.cookies.get("tz")
    )


@router.get("/api/store-orders/{number}/receipt.pdf", response_model=None, responses=PDF)
async def store_order_receipt(number: str, request: Request, session: SessionDep) -> Response:
    """Download the receipt of one of your store orders (products, shipping, tax, total, any credit)."""
    return await _download(
        request, session, get_store_order_receipt, number=number[:32], time_zone=request.cookies.get("tz")
    )


@router.get("/api/provider-wallet/statement/{month}.pdf", response_model=None, responses=PDF)
async def provider_statement(month: str, request: Request, session: SessionDep) -> Response:
    """Download your monthly earnings statement (month as YYYY-MM, UTC)."""
    return await _download(request, session, monthly_statement_pdf, month=month[:16])


@router.get("/api/invoices/{number}.pdf", response_model=None, responses=PDF)
async def invoice_pdf(number: str, request: Request, session: SessionDep) -> Response:
    """Download an invoice (staff issuing invoices, or the patient it was sent to)."""
    return await _download(
        request, session, get_invoice_pdf, number=number[:32], time_zone=request.cookies.get("tz")
    )
