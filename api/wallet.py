"""The signed-in patient's wallet history as a CSV download (a download is something a websocket cannot hand
over; the Wallet screen, pages/dashboard/wallet.py, links here with its filters).

- `GET /api/wallet/history.csv?kind=refund&from=2026-01-01&to=2026-01-31`: every movement of the signed-in
  account's own wallet credit (app/services/ledger `list_my_wallet_history`, which only ever reads the
  actor's own account), newest first, filtered like the screen: `kind` an entry kind, `from` / `to` days
  in the browser's time zone (the `tz` cookie; both days included). Columns: date (ISO 8601, UTC), kind,
  description, amount (two decimals, negative when credit was spent), order id, visit id.
  422 validation_failed (`field` says which) for a day that is not YYYY-MM-DD or is outside 1900–2999;
  401 not_signed_in. A GET that changes nothing, so no CSRF token; the answer is never cached.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time, timedelta
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from api.csv_files import csv_attachment, safe_cell
from api.deps import SessionDep, signed_in
from app.services.errors import ServiceError, ValidationFailed
from app.services.ledger import list_my_wallet_history
from app.services.validation import calendar_day
from app.settings import get_settings
from models.ledger import EntryKind

router = APIRouter(prefix="/api/wallet", tags=["wallet"])
NOT_SIGNED_IN = "Please sign in to download your wallet history."
FILENAME = "medivisit-wallet-history.csv"
HEADER = ("date", "kind", "description", "amount", "order_id", "visit_id")
BATCH = 100  # the service's largest page
MAX_ROWS = 50_000


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name and len(name) < 64 else ZoneInfo(get_settings().default_time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(get_settings().default_time_zone)


def _window(
    since: date | None, until: date | None, zone: ZoneInfo
) -> tuple[datetime | None, datetime | None]:
    if since and until and until < since:
        since, until = until, since
    start = datetime.combine(since, time(), zone) if since else None
    end = datetime.combine(until + timedelta(days=1), time(), zone) if until else None
    return start, end


@router.get(
    "/history.csv",
    response_model=None,
    responses={200: {"description": "The wallet history, as a CSV attachment", "content": {"text/csv": {}}}},
)
async def history_csv(
    request: Request,
    session: SessionDep,
    kind: str | None = None,
    since: Annotated[str | None, Query(alias="from", description="first day, YYYY-MM-DD")] = None,
    until: Annotated[str | None, Query(alias="to", description="last day (included), YYYY-MM-DD")] = None,
) -> Response:
    """Download your own wallet history as CSV (`kind`, `from`, `to` filter it)."""
    actor = await signed_in(session, request)
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    kinds = (EntryKind(kind),) if kind is not None and kind in EntryKind.__members__ else ()
    days: dict[str, date | None] = {}
    for field, text in (("from", since), ("to", until)):
        try:
            days[field] = calendar_day(text)
        except ValidationFailed as exc:
            return JSONResponse(
                {"code": exc.code, "message": exc.message, "field": field}, status_code=exc.status_code
            )
    start, end = _window(days["from"], days["to"], _zone(request.cookies.get("tz")))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    page, written = 1, 0
    try:
        while written < MAX_ROWS:
            found = await list_my_wallet_history(
                session=session, actor=actor, kinds=kinds, since=start, until=end, page=page, page_size=BATCH
            )
            for line in found.items:
                writer.writerow(
                    (
                        line.created_at.isoformat(),
                        line.kind.value,
                        safe_cell(line.description),
                        f"{line.amount:.2f}",
                        line.order_id or "",
                        line.appointment_id or "",
                    )
                )
            written += len(found.items)
            if not found.items or page * BATCH >= found.total:
                break
            page += 1
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return csv_attachment(out.getvalue(), FILENAME)
