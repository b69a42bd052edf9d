"""Pieces Verification Requests and Document Approvals share (issue 13): the filter form of select boxes
kept in the URL, the count-per-status list, the page links and a document's standing badge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reactpy import component, html
from reactpy.types import VdomDict

from components.forms import use_form
from components.kit import Badge, Select, Tone, filter_form
from models.enrollment import DocumentStanding

DOCUMENT_URL = "/api/enrollment/documents/{id}"
STANDING_TONES: dict[DocumentStanding, Tone] = {
    DocumentStanding.pending: "info",
    DocumentStanding.approved: "success",
    DocumentStanding.rejected: "danger",
    DocumentStanding.expiring: "warning",
    DocumentStanding.expired: "danger",
}
# (label, URL parameter, current value, placeholder, options)
SelectSpec = tuple[str, str, str, str, Sequence[Any]]


def standing_badge(standing: DocumentStanding) -> VdomDict:
    return Badge(standing.value.capitalize(), tone=STANDING_TONES[standing])


@component
def FilterForm(path: str, label: str, id_prefix: str, selects: Sequence[SelectSpec]) -> VdomDict:
    """A GET form of select boxes that navigates in the page (the filters live in the URL). Key it by the
    URL's filters: only a remount shows another URL's values (see staff/audit.py)."""
    form = use_form(**{name: value for _label, name, value, _placeholder, _options in selects})
    return filter_form(
        *(
            Select(
                text,
                name,
                form=form,
                id=f"{id_prefix}-{name}",
                placeholder=placeholder,
                options=options,
                class_name="team-field",
            )
            for text, name, _value, placeholder, options in selects
        ),
        action=path,
        label=label,
        submit="Filter",
        clear_href=path,
    )


def counts_list(label: str, items: Sequence[tuple[str, Any, int]]) -> VdomDict:
    """'Submitted 3 · In review 1 …': (key, badge or link, count) each."""
    return html.ul(
        {"class_name": "verify-counts", "aria-label": label},
        *(html.li({"key": key}, badge, html.span(str(count))) for key, badge, count in items),
    )
