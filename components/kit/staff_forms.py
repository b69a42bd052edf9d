"""`field_group`: fields that belong together in a staff form, under the legend that names them (an
invoice's "Bill to" and "Items", a member's "Permissions", the reasons of a decision, the providers of an
event day, a product's photos): a `fieldset`, so assistive technology reads the legend with each field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reactpy import html
from reactpy.types import VdomDict


def field_group(
    legend: Any,
    *fields: Any,
    class_name: str | None = None,
    legend_class: str | None = None,
    attributes: Mapping[str, Any] | None = None,
) -> VdomDict:
    """`fieldset` (`class_name`, other `attributes`) holding its `legend` (`legend_class`), then `fields`."""
    return html.fieldset(
        {**(attributes or {}), **({"class_name": class_name} if class_name else {})},
        html.legend({"class_name": legend_class} if legend_class else {}, legend),
        *fields,
    )
