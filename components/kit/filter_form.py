"""`filter_form`: the filters of a staff list (the audit log, invoices, providers, the verification queue,
the appointments agenda, the help desk's search) as a GET form to the list's own address. The browser
sends it client-side (static/js/app.js), so the filters land in the URL and a reload, the back button or a
shared link keeps them; under the fields sit the submit button and the link that clears the filters
(`filter_actions`). `list_screen.SearchForm` is the same form for the lists built on `ListQuery`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reactpy import html
from reactpy.types import VdomDict

from components import browser
from components.kit.browse import filter_actions


def filter_form(
    *fields: Any,
    action: str,
    label: str | None,
    class_name: str = "form audit-filters",
    submit: str | None = "Search",
    icon: str | None = "search",
    clear_href: str | None = None,
    clear_label: str = "Clear",
    hidden: Mapping[str, str] = {},  # noqa: B006 - read only
    role: str | None = "search",
    key: str | None = None,
) -> VdomDict:
    """`form[method=get]` to `action` named `label` (a `search` landmark unless `role` says otherwise):
    the `hidden` inputs (filters that travel along, even empty), the `fields`, then `filter_actions`
    (`submit`, with `icon`, and a link to `clear_href`) unless `submit` is None. `key` changes with the
    URL's filters, so the form is rebuilt with them (ReactPy's client keeps a changed control's own
    value)."""
    attributes: dict[str, Any] = {
        "class_name": class_name,
        "method": "get",
        "action": action,
        **({"role": role} if role else {}),
        **({"aria-label": label} if label else {}),
        **({"key": key} if key is not None else {}),
        **browser.client_get_form(),
    }
    return html.form(
        attributes,
        *(
            html.input({"type": "hidden", "name": name, "value": value, "key": f"hidden-{name}"})
            for name, value in hidden.items()
        ),
        *fields,
        filter_actions(submit, clear_href=clear_href, clear_label=clear_label, icon=icon) if submit else "",
    )
