"""/staff/appointments keeps its view in the URL (?date=&view=&provider=&line=&metro=&status=&page=): what a
link says is what the screen shows, malformed or oversized values fall back instead of failing, and every
link the screen builds (filters, previous/next, tabs, pages) reads back to the same view."""

from __future__ import annotations

from datetime import date
from urllib.parse import parse_qs, urlsplit

from models.booking import AppointmentStatus
from staff.appointments import Filters, period_title

TODAY = date(2030, 1, 9)


def read(url: str) -> Filters:
    return Filters.from_params(parse_qs(urlsplit(url).query), TODAY)


def test_a_shared_link_reads_back_to_the_same_view() -> None:
    f = Filters(
        day=date(2030, 1, 10),
        view="week",
        provider="p-1",
        line="iv-therapy",
        metro="New York, NY",
        status="pending",
        page=2,
    )
    assert read(f.href(page=2)) == f
    assert read(f.href()) == Filters(**{**f.__dict__, "page": 1})  # a changed view starts at page 1
    query = f.query("America/New_York")
    assert (query.view, query.provider_id, query.metro, query.status) == (
        "week",
        "p-1",
        "New York, NY",
        AppointmentStatus.pending,
    )


def test_bad_values_fall_back_instead_of_failing() -> None:
    f = read("/staff/appointments?date=2030-13-40&view=month&status=held&page=-3&provider=" + "x" * 500)
    assert (f.day, f.view, f.status, f.page) == (TODAY, "day", "", 1)
    assert len(f.provider) == 36
    assert read("/staff/appointments").query("UTC").provider_id is None


def test_previous_and_next_move_by_the_view() -> None:
    f = Filters(day=date(2030, 1, 9), view="week")
    assert read(f.href(day=date(2030, 1, 2))).day == date(2030, 1, 2)
    assert period_title(date(2030, 1, 7), date(2030, 1, 13)) == "Week of Jan 7, 2030 – Jan 13, 2030"
    assert period_title(date(2030, 1, 9), date(2030, 1, 9)) == "Wednesday, Jan 9, 2030"
