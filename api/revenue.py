"""Revenue reports over HTTP (issue 14 item 7): `GET /api/revenue/export.csv?granularity=day|week|month`
and `GET /api/revenue/breakdown.csv?split=service_line|metro`.

The staff revenue screen links here (a websocket cannot hand over a file). The signed-in browser's session
cookie names the actor; `get_revenue_summary` checks view_revenue itself. 401 not_signed_in, 403 without
the permission, 422 for an unknown granularity or split. A GET changes nothing, so it needs no CSRF token; the answer
is never cached.
"""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from api.csv_files import csv_attachment, safe_cell
from api.deps import SessionDep, SignedInDep
from app.services.errors import ServiceError
from app.services.ledger import get_revenue_breakdown, get_revenue_summary
from models.ledger import RevenueBreakdownRead, RevenueSummaryRead

router = APIRouter(prefix="/api/revenue", tags=["revenue"])
NOT_SIGNED_IN = "Please sign in to download revenue reports."
HEADER = (
    "period",
    "gross_bookings",
    "platform_fees",
    "refunds",
    "payouts",
    "net",
    "invoices_paid",
    "ads_delivered",
)
BREAKDOWN_HEADER = ("group", "gross_bookings", "platform_fees", "refunds", "net")


def revenue_csv(summary: RevenueSummaryRead) -> str:
    """The summary as CSV: one line per period (ISO date of its start), amounts with two decimals, then
    the totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for row in [*summary.rows]:
        writer.writerow(
            (
                row.period.isoformat(),
                *(
                    f"{v:.2f}"
                    for v in (row.gross, row.fees, row.refunds, row.payouts, row.net, row.invoiced, row.ads)
                ),
            )
        )
    t = summary.totals
    writer.writerow(
        ("total", *(f"{v:.2f}" for v in (t.gross, t.fees, t.refunds, t.payouts, t.net, t.invoiced, t.ads)))
    )
    return out.getvalue()


@router.get(
    "/export.csv",
    response_model=None,
    responses={200: {"description": "Revenue per period as CSV", "content": {"text/csv": {}}}},
)
async def export_revenue(actor: SignedInDep, session: SessionDep, granularity: str = "month") -> Response:
    """Download the revenue summary (gross bookings, fees, refunds, payouts, net) per day, week or month."""
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        summary = await get_revenue_summary(session=session, actor=actor, granularity=granularity)
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return csv_attachment(revenue_csv(summary), f"medivisit-revenue-{summary.granularity}.csv")


def breakdown_csv(breakdown: RevenueBreakdownRead) -> str:
    """The split as CSV: one line per service line or metro, largest first, then the totals. Labels come
    from staff-entered names and patients' addresses, so a leading formula character is neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(BREAKDOWN_HEADER)
    for group in [*breakdown.groups, breakdown.totals]:
        label = "total" if group is breakdown.totals else safe_cell(group.label)
        writer.writerow((label, *(f"{v:.2f}" for v in (group.gross, group.fees, group.refunds, group.net))))
    return out.getvalue()


@router.get(
    "/breakdown.csv",
    response_model=None,
    responses={200: {"description": "Revenue per service line or metro as CSV", "content": {"text/csv": {}}}},
)
async def export_breakdown(actor: SignedInDep, session: SessionDep, split: str = "service_line") -> Response:
    """Download gross bookings, fees, refunds and net per service line or per metro."""
    if actor is None:
        return JSONResponse({"code": "not_signed_in", "message": NOT_SIGNED_IN}, status_code=401)
    try:
        breakdown = await get_revenue_breakdown(session=session, actor=actor, split=split)
    except ServiceError as exc:
        return JSONResponse({"code": exc.code, "message": exc.message}, status_code=exc.status_code)
    return csv_attachment(
        breakdown_csv(breakdown), f"medivisit-revenue-by-{breakdown.split.replace('_', '-')}.csv"
    )
