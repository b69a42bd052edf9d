"""Analytics (issue 15 part 2): the one table it writes — searches by ZIP code that found no provider,
counted per ZIP per UTC day (no person, no query text: only the ZIP, the day and how many) — and the
read schemas of /staff/analytics and its CSV.

How each figure is counted is said in app/services/analytics/__init__.py.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict
from sqlalchemy import CheckConstraint, Date, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base


class UnmetSearchDay(Base):
    """How many searches for one ZIP code on one day (UTC) found no provider. Keyed day first: the screen
    reads a range of days."""

    __tablename__ = "unmet_search_days"
    __table_args__ = (CheckConstraint("searches >= 0", name="searches_non_negative"),)

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    zip_code: Mapped[str] = mapped_column(String(5), primary_key=True)
    searches: Mapped[int] = mapped_column(Integer, default=1)


class AnalyticsRange(BaseModel):
    """A range of whole UTC days, `start` to `end` inclusive, read per day or per week (from Monday)."""

    model_config = ConfigDict(frozen=True)

    start: date
    end: date
    granularity: str = "day"

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


class PeriodRead(BaseModel):
    """One day or week (`period` is its first day; a week may begin before the range and end after it,
    but counts only the range's days). See the analytics package for each figure's definition."""

    model_config = ConfigDict(frozen=True)

    period: date
    booked: int = 0  # visits booked (checkout completed) in the period
    due: int = 0  # visits scheduled to start in the period
    completed: int = 0  # of those due, completed
    cancelled: int = 0  # of those due, cancelled
    patients: int = 0  # distinct patients with a completed visit starting in the period
    new_patients: int = 0  # of them, those whose first completed visit ever is in the period
    booked_minutes: int = 0  # listed providers' booked visit time starting in the period
    offered_minutes: int = 0  # listed providers' weekly hours on the period's days
    unmet_searches: int = 0  # searches with a ZIP code that found no provider
    tickets: int = 0  # help-desk tickets opened in the period
    first_responses: int = 0  # of those tickets, answered by staff
    first_responses_on_time: int = 0  # … by their first-response due time
    resolved: int = 0  # of those tickets, resolved or closed now
    resolved_on_time: int = 0  # … by their resolution due time

    @property
    def completion_rate(self) -> float | None:
        return _share(self.completed, self.due)

    @property
    def cancellation_rate(self) -> float | None:
        return _share(self.cancelled, self.due)

    @property
    def returning_patients(self) -> int:
        return self.patients - self.new_patients

    @property
    def utilisation(self) -> float | None:
        return _share(self.booked_minutes, self.offered_minutes)

    @property
    def first_response_on_time_rate(self) -> float | None:
        return _share(self.first_responses_on_time, self.first_responses)

    @property
    def resolved_on_time_rate(self) -> float | None:
        return _share(self.resolved_on_time, self.resolved)


class AnalyticsRead(BaseModel):
    """Every period of the range, oldest first, and the whole range's figures (`totals`: its patients are
    distinct over the whole range, not the periods' sum); the median minutes from opening a ticket to its
    first response and to its resolution (None: no such ticket)."""

    model_config = ConfigDict(frozen=True)

    range: AnalyticsRange
    rows: list[PeriodRead]
    totals: PeriodRead
    median_first_response_minutes: float | None = None
    median_resolution_minutes: float | None = None


class ProviderUseRead(BaseModel):
    """One listed provider's booked visit time against the weekly hours offered over the range."""

    model_config = ConfigDict(frozen=True)

    provider_id: str
    name: str
    visits: int
    booked_minutes: int
    offered_minutes: int

    @property
    def utilisation(self) -> float | None:
        return _share(self.booked_minutes, self.offered_minutes)


class UnmetZipRead(BaseModel):
    """Searches for one ZIP code that found no provider over the range, and on how many days."""

    model_config = ConfigDict(frozen=True)

    zip_code: str
    searches: int
    days: int
