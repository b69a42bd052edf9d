"""Analytics (issue 15 part 2; /staff/analytics and its CSV, view_analytics): how the marketplace is used
over a chosen range of whole UTC days (at most 366), per day or per ISO week (from Monday). Every figure is
aggregated in SQL (GROUP BY, conditional sums, COUNT DISTINCT) over indexed ranges; no row is loaded into
Python, and every period of the range is listed, zero when nothing happened.

How each figure is counted (the screen's "How these are counted" note says the same in plain words):
- booked: visits booked in the period (the visit was created by checkout then; checkout holds that never
  became a booking are not visits). Index: appointments' created_at.
- due: visits scheduled to start in the period, whatever happened to them since (holds excluded);
  completion rate = completed / due, cancellation rate = cancelled / due; the rest are still pending,
  confirmed or in progress. Index: (status, starts_at).
- patients: distinct patients with a completed visit starting in the period; new: those whose first
  completed visit ever starts in the period; returning = patients − new. Over the whole range patients are
  counted once each. Index: (status, patient_id, starts_at) gives each patient's first visit.
- utilisation = booked visit time / offered time, for the providers listed today (verified, active, not
  suspended, credentials current): booked = the scheduled length of their pending, confirmed, in-progress
  and completed visits starting in the period; offered = their weekly hours as they stand today (no history
  is kept) on each day of the period, by weekday. Time off is not subtracted and weekdays are UTC days.
- unmet demand: searches with a ZIP code that found no provider for what was asked, counted per ZIP per UTC
  day by provider search on the search screen's live page (`record_unmet_search`, the table
  `unmet_search_days`: no person, no query text; the first paint's server copy is not counted).
- help desk: tickets opened in the period; of them, how many got a first staff response and how many by
  their first-response due time, how many are resolved or closed now and how many by their resolution due
  time (due times already moved by the priority and by time waiting on the customer). Medians of minutes
  from opening to first response and to resolution over the tickets opened in the range: PostgreSQL's
  percentile_cont(0.5); on SQLite the count, then the one or two middle values read with ORDER BY … LIMIT 2
  OFFSET (n−1)/2 (at most two rows leave the database) — the same exact median on both.

Its public surface: the names below (`__all__`).
"""

from app.services.analytics._demand import list_unmet_demand
from app.services.analytics._overview import get_analytics
from app.services.analytics._rules import (
    GRANULARITIES,
    MAX_DAYS,
    QUICK_DAYS,
    parse_range,
    quick_range,
    require_analyst,
)
from app.services.analytics._utilisation import list_provider_utilisation

__all__ = [
    "GRANULARITIES",
    "MAX_DAYS",
    "QUICK_DAYS",
    "get_analytics",
    "list_provider_utilisation",
    "list_unmet_demand",
    "parse_range",
    "quick_range",
    "require_analyst",
]
