"""`Tabs` and `TabPanel`: WAI-ARIA tabs whose selection lives in the URL.

The tab list is `role="tablist"` (labelled), each tab `role="tab"` with `aria-selected`, a roving tabindex
(0 on the selected tab, -1 on the others) and `aria-controls` naming the panel on the selected tab (only the
selected panel is rendered, and an id reference must resolve). static/js/kit.js moves the focus with
Left/Right/Home/End in the browser (no server round trip); Enter or Space selects the focused tab.

URL-driven (the default): each tab is a link built by `href(key)` — use `param_href()` for "the current
URL with ?tab=<key>" — so the browser's back button, a reload and a shared link keep the tab. Without
`href`, tabs are buttons that call `on_select(key)`.

A `param_href()` tab also says which parameter it sets (`data-param`, `data-drop`): static/js/app.js then
sets that parameter on the URL the browser is at when it is clicked, not on the URL the server last drew
the link from. Two tab lists on one screen (`?by=` and `?split=`) keep each other's choice even when the
second is clicked before the server has redrawn it after the first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from reactpy import html
from reactpy.types import VdomDict

from components.kit._util import Handler, call, classes, slug


def param_href(
    path: str,
    params: Mapping[str, str | Sequence[str]] | None = None,
    name: str = "tab",
    *,
    default: str | None = None,
    drop: Sequence[str] = ("page",),
) -> Callable[[str], str]:
    """A builder `key -> URL`: `path` with the current search `params` (as `use_search_params()` returns
    them), `name` set to the key (left out when it is `default`) and the `drop` params removed (a new tab
    starts again at page 1)."""

    def build(key: str) -> str:
        query: list[tuple[str, str]] = []
        for param, values in (params or {}).items():
            if param == name or param in drop:
                continue
            for value in [values] if isinstance(values, str) else values:
                query.append((param, value))
        if key != default:
            query.append((name, key))
        return f"{path}?{urlencode(query)}" if query else path

    build.param, build.drop = name, tuple(drop)  # type: ignore[attr-defined]  # read by Tabs
    return build


def tab_ids(id: str, key: str) -> tuple[str, str]:
    """(tab id, panel id) of the tab `key` in the tab list `id`."""
    return f"{id}-tab-{slug(key)}", f"{id}-panel-{slug(key)}"


def Tabs(  # noqa: N802 - a kit element, named like the components
    tabs: Sequence[tuple[str, Any]],
    selected: str,
    *,
    label: str,
    href: Callable[[str], str] | None = None,
    on_select: Handler | None = None,
    id: str = "tabs",
    class_name: str = "tabs",
    tab_class: str = "tab",
    activation: str = "manual",
) -> VdomDict:
    """The tab list. `tabs` are (key, label) pairs; `selected` is the key shown (an unknown key selects the
    first tab); `label` names the list for screen readers. Give `href` (URL-driven) or `on_select(key)`.

    `class_name`/`tab_class` keep a screen's own look (e.g. "appts-tabs"/"appts-tab" or
    "desk-tabs"/"desk-tab"); the selected tab also gets `is-active`. `activation="auto"` makes the arrow
    keys select as well as focus (for panels that show without a load)."""
    keys = [str(key) for key, _ in tabs]
    current = selected if selected in keys else (keys[0] if keys else "")

    def tab(key: str, text: Any) -> VdomDict:
        tab_id, panel_id = tab_ids(id, key)
        chosen = key == current
        attributes: dict[str, Any] = {
            "key": key,
            "id": tab_id,
            "role": "tab",
            "class_name": classes(tab_class, chosen and "is-active"),
            "aria-selected": "true" if chosen else "false",
            "tab_index": 0 if chosen else -1,
            "data-tab": key,
        }
        if chosen:
            attributes["aria-controls"] = panel_id
        if href is not None:
            if param := getattr(href, "param", None):
                attributes["data-param"] = param
                attributes["data-drop"] = " ".join(getattr(href, "drop", ()))
            return html.a({**attributes, "href": href(key)}, text)

        async def select(_event: dict) -> None:
            await call(on_select, key)

        return html.button({**attributes, "type": "button", "on_click": select}, text)

    return html.div(
        {
            "class_name": class_name,
            "role": "tablist",
            "aria-label": label,
            "aria-orientation": "horizontal",
            "data-tabs": activation,
        },
        *(tab(str(key), text) for key, text in tabs),
    )


def TabPanel(  # noqa: N802 - a kit element, named like the components
    selected: str, *children: Any, id: str = "tabs", class_name: str | None = None
) -> VdomDict:
    """The panel of the selected tab: `role="tabpanel"`, labelled by its tab, focusable (tabindex 0) so
    keyboard users reach content that has no focusable element of its own."""
    tab_id, panel_id = tab_ids(id, selected)
    return html.div(
        {
            "id": panel_id,
            "role": "tabpanel",
            "aria-labelledby": tab_id,
            "tab_index": 0,
            "class_name": classes("tab-panel", class_name),
        },
        *children,
    )
