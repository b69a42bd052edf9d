"""`field_group`: a group of fields or checkboxes under one caption (the services an enquiry is about, the
placements of an ad, a day's hours, one preferred time, the places a service is offered at): a `fieldset`
with its `legend`, and the group's own error line under it when the group was sent wrong, which then
describes the group (`aria-describedby`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import classes


def field_group(
    legend: Any,
    *children: Any,
    error: str | None = None,
    error_id: str | None = None,
    error_class: Literal["form-error", "field-error"] = "form-error",
    legend_class: str | None = None,
    class_name: str | None = None,
    invalid_class: str | None = None,
    id: str | None = None,
    focusable: bool = False,
    key: str | None = None,
    attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """`fieldset.{class_name}` (`invalid_class` added while there is an `error`; `id`, and tab_index -1
    when `focusable`, so an error summary's link can move the focus to it): the `legend` (`legend_class`),
    then the `error` as a `p.{error_class}` (id `error_id`, which then describes the group) when there is
    one, then `children`. `attributes`: any others (an upload's scope)."""
    own: dict[str, Any] = dict(attributes or {})
    if class_name or (error and invalid_class):
        own["class_name"] = classes(class_name, bool(error) and invalid_class)
    if error and error_id:
        own["aria-describedby"] = error_id
    for name, value in (("id", id), ("key", key)):
        if value is not None:
            own[name] = value
    if focusable:
        own["tab_index"] = -1
    error_attributes = {"class_name": error_class, **({"id": error_id} if error_id else {})}
    return html.fieldset(
        own,
        html.legend({"class_name": legend_class} if legend_class else {}, legend),
        html.p(error_attributes, error) if error else "",
        *children,
    )
