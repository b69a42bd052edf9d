"""`ErrorSummary`: the GOV.UK Design System's error summary, at the top of a form that was sent with
mistakes (https://design-system.service.gov.uk/components/error-summary/).

"There is a problem", then one line per error, in the order of the fields on the page; a line whose error
belongs to a field links to it (`#id`), and the link moves the focus to that field (static/js/kit.js,
`data-error-summary`; a group's link focuses its chosen or first control). The summary takes the focus when
it appears (`data-focus-on-mount`): pass a new `attempt` on each send, so a second send with errors moves the
focus there again. The fields themselves show their message next to them (`Field(error=…)`: `aria-invalid`,
`aria-describedby`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import html

from components import browser

ErrorLine = tuple[str | None, str]
"""(the id of the field the error belongs to, or None; the message)."""


def ErrorSummary(  # noqa: N802 - a kit element, named like the components
    errors: Sequence[ErrorLine],
    *,
    attempt: int = 0,
    title: str = "There is a problem",
    id: str = "error-summary",
) -> Any:
    """Nothing without errors; otherwise the summary, keyed by `attempt` (a new one takes the focus)."""
    if not errors:
        return html._()
    title_id = f"{id}-title"
    return html.div(
        {
            "class_name": "error-summary",
            "id": id,
            "key": f"{id}-{attempt}",
            "tab_index": -1,
            "aria-labelledby": title_id,
            **browser.focus_on_mount(),
            **browser.error_summary(),
        },
        # An alert inside, as GOV.UK Frontend does: read out when it appears even if the focus is elsewhere.
        html.div(
            {"role": "alert"},
            html.h2({"class_name": "error-summary-title", "id": title_id}, title),
            html.ul(
                {"class_name": "error-summary-list"},
                *(
                    html.li(
                        {"key": f"{field_id}-{n}"},
                        html.a({"href": f"#{field_id}"}, message) if field_id else message,
                    )
                    for n, (field_id, message) in enumerate(errors)
                ),
            ),
        ),
    )
