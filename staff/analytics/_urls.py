"""The analytics screen's URL: the range, the periods and the tab it shows, and the links that keep them."""

from __future__ import annotations

from app.services.analytics import parse_range
from app.services.errors import ValidationFailed
from models.analytics import AnalyticsRange

PATH = "/staff/analytics"
EXPORT_PATH = "/api/analytics/export.csv"
VIEWS = (
    ("visits", "Visits"),
    ("patients", "Patients"),
    ("providers", "Provider utilisation"),
    ("demand", "Unmet demand"),
    ("helpdesk", "Help desk"),
)
BY = (("day", "Per day"), ("week", "Per week"))


def first_param(params: dict[str, list[str]], name: str) -> str | None:
    values = params.get(name) or []
    return values[0][:20] if values else None


def chosen_range(params: dict[str, list[str]]) -> tuple[AnalyticsRange | None, str]:
    """The range the URL asks for, or None and the reason it cannot be shown."""
    try:
        return parse_range(
            first_param(params, "from"), first_param(params, "to"), first_param(params, "by") or "day"
        ), ""
    except ValidationFailed as refused:
        return None, refused.message


def view_of(params: dict[str, list[str]]) -> str:
    view = first_param(params, "view") or "visits"
    return view if view in dict(VIEWS) else "visits"


def href(dates: AnalyticsRange, view: str = "visits", path: str = PATH, **extra: str) -> str:
    query = f"from={dates.start.isoformat()}&to={dates.end.isoformat()}&by={dates.granularity}"
    if path == PATH:
        query += f"&view={view}"
    return f"{path}?{query}" + "".join(f"&{k}={v}" for k, v in extra.items())
