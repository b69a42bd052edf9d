"""Stripe's webhook (PAYMENT_GATEWAY=stripe): `POST /api/payments/stripe/webhook`.

The body is read raw (the signature covers its exact bytes) and at most MAX_EVENT_BYTES of it (413
`payload_too_large` beyond); app/services/payments `handle_stripe_webhook` verifies the `Stripe-Signature`
header and applies the event once in this request's unit of work. Answers: 200 `{"received": true,
"duplicate": false, "result": …}` (also for a replay, `duplicate: true`, for event types it ignores, and
for an event that is not the payment the order asked for, `result: "mismatch"`: nothing changed, staff are
told in the audit log); 400 `invalid_signature` (bad, missing, or dated more than 5 minutes before or after
now) or `invalid_payload`; 404 `not_configured` with another gateway; 503 `unavailable` when Stripe could
not be asked about the event. Errors carry `error_code` and `msg`. A failure of ours (the database, Stripe
unreachable) stays a 5xx, so Stripe retries the delivery.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.deps import transaction
from app.services.errors import ServiceError
from app.services.payments import MAX_EVENT_BYTES, EventTooLarge, handle_stripe_webhook

router = APIRouter(prefix="/api/payments", tags=["payments"])


def _error(error: ServiceError) -> JSONResponse:
    return JSONResponse(
        {"code": error.status_code, "error_code": error.code, "msg": error.message},
        status_code=error.status_code,
    )


async def _body(request: Request) -> bytes:
    """The raw body, refused as soon as it grows past the limit (never read in full)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_EVENT_BYTES:
            raise EventTooLarge(f"An event may be at most {MAX_EVENT_BYTES // 1024} KiB.")
        chunks.append(chunk)
    return b"".join(chunks)


@router.post(
    "/stripe/webhook",
    responses={
        400: {"description": "invalid_signature or invalid_payload"},
        404: {"description": "not_configured"},
        413: {"description": "payload_too_large"},
        503: {
            "description": "unavailable: Stripe could not be asked about the event (it is delivered again)"
        },
    },
)
async def stripe_webhook(request: Request) -> JSONResponse:
    """Receive one Stripe event (checkout.session.completed / expired, payment_intent.succeeded /
    payment_failed …), verified with the endpoint's signing secret and applied once per event id."""
    try:
        payload = await _body(request)
        async with transaction() as session:
            outcome = await handle_stripe_webhook(
                session=session, payload=payload, signature=request.headers.get("stripe-signature", "")[:2048]
            )
    except ServiceError as error:
        return _error(error)
    return JSONResponse({"received": True, "duplicate": not outcome.processed, "result": outcome.result})
