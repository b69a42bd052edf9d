""" "How these are counted": each figure's definition in plain words (the service's docstring says the
same for engineers: app/services/analytics)."""

from __future__ import annotations

from reactpy.types import VdomDict

from components.kit import Region, facts

COUNTING = (
    (
        "Days and periods",
        "Whole days in UTC, at most 366. Weeks start on Monday; the first and last week may "
        "hold only some of their days.",
    ),
    (
        "Visits booked",
        "Visits whose booking was made in the period (checkout holds that never became a "
        "booking are not counted).",
    ),
    (
        "Completion and cancellation rates",
        "Of the visits due to start in the period, the share completed and "
        "the share cancelled; the rest are still pending, confirmed or in progress.",
    ),
    (
        "New and returning patients",
        "Patients with a completed visit in the period. New: their first "
        "completed visit ever is in the period. Over the whole range each patient counts once.",
    ),
    (
        "Provider utilisation",
        "Booked visit time (pending, confirmed, in-progress and completed visits) "
        "divided by the weekly hours offered on the period's days, for providers listed today. Weekly hours "
        "are today's; time off is not subtracted.",
    ),
    (
        "Searches with no provider",
        "Searches with a ZIP code that found no provider for what was asked, "
        "counted per ZIP code per day. Nothing about the person searching is kept.",
    ),
    (
        "Help desk",
        "Tickets opened in the period; answered or resolved on time means by the ticket's due "
        "time (moved by its priority and by time waiting on the customer). Medians are of the tickets opened "
        "in the range that have been answered or resolved.",
    ),
)


def HowCounted() -> VdomDict:  # noqa: N802 - a screen part, named like the components
    return Region(
        "How these are counted",
        facts(*COUNTING, class_name="analytics-how-list"),
        title_id="analytics-how-title",
        class_name="staff-card analytics-how",
    )
