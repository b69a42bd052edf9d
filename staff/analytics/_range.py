"""The range card: quick picks (last 7, 30, 90 days), the From / To / Periods form (a GET form that
navigates in the page) and the range shown."""

from __future__ import annotations

from datetime import UTC, datetime

from reactpy import component, html
from reactpy.types import VdomDict

from app.services.analytics import QUICK_DAYS, quick_range
from components.forms import use_form
from components.kit import Field, Select, StaffCard, filter_form
from models.analytics import AnalyticsRange
from staff.analytics._urls import BY, PATH, first_param, href
from staff.analytics._words import range_text


@component
def RangeCard(params: dict[str, list[str]], dates: AnalyticsRange | None, view: str) -> VdomDict:
    # The URL keys this card: ReactPy's client keeps a changed control's value, so only a remount shows
    # a new URL's dates (a quick pick, Back, a shared link).
    today = datetime.now(UTC).date()
    shown = dates or AnalyticsRange(start=today, end=today)
    form = use_form(
        **{
            "from": first_param(params, "from") or shown.start.isoformat(),
            "to": first_param(params, "to") or shown.end.isoformat(),
            "by": first_param(params, "by") or shown.granularity,
        }
    )
    quick = [(days, quick_range(days, granularity=shown.granularity)) for days in QUICK_DAYS]
    return StaffCard(
        "Range",
        html.nav(
            {"class_name": "analytics-quick", "aria-label": "Quick ranges"},
            *(
                html.a(
                    {
                        "key": str(days),
                        "class_name": "btn btn-sm "
                        + ("btn-primary" if dates is not None and picked == dates else "btn-outline"),
                        "href": href(picked, view),
                        **({"aria-current": "true"} if dates is not None and picked == dates else {}),
                    },
                    f"Last {days} days",
                )
                for days, picked in quick
            ),
        ),
        filter_form(
            Field(
                "From",
                "from",
                form=form,
                id="analytics-from",
                type="date",
                max_length=None,
                class_name="team-field",
            ),
            Field(
                "To",
                "to",
                form=form,
                id="analytics-to",
                type="date",
                max_length=None,
                class_name="team-field",
            ),
            Select("Periods", "by", form=form, id="analytics-by", options=list(BY), class_name="team-field"),
            html.input({"type": "hidden", "name": "view", "value": view}),
            action=PATH,
            label="Choose the range",
            class_name="form analytics-filters",
            submit="Show",
            icon=None,
            role=None,
        ),
        title_id="analytics-range-title",
        head=(html.span({"class_name": "analytics-range-text"}, range_text(dates)) if dates else "",),
        class_name="analytics-range",
    )
