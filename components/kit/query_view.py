"""`QueryView`: one look for a query's four states — loading, error (with Retry), empty and data.

One markup for every screen:
- loading: `div.staff-loading[role=status]` with the `portal-spinner`;
- error: `div.notice.notice-warning[role=alert]` (the kit's `notice`) plus a Retry button that
  calls `query.refetch()`;
- empty: `div.empty-state` with an optional `empty-icon` and the `empty-title` (checkout, the cart panel,
  the provider list, My Appointments).
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from typing import Any, Protocol, TypeVar

from reactpy import html
from reactpy.types import VdomDict

from components.icons import icon
from components.kit._util import call, classes
from components.kit.buttons import Button

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class QueryLike(Protocol[T_co]):
    """What QueryView needs of a query, read only (components/hooks.py's frozen `Query[T]` has it)."""

    @property
    def data(self) -> T_co | None: ...
    @property
    def loading(self) -> bool: ...
    @property
    def error(self) -> str | None: ...
    @property
    def refetch(self) -> Callable[[], Any]: ...


def loading_state(label: str = "Loading…") -> VdomDict:
    """The loading look on its own (a spinner and a polite status)."""
    return html.div(
        {"class_name": "staff-loading", "role": "status"},
        html.span({"class_name": "portal-spinner", "aria-hidden": "true"}),
        html.span(label),
    )


def error_state(
    message: str, retry: Callable[[], Any] | None = None, *, retry_label: str = "Retry"
) -> VdomDict:
    """The error look on its own: the message and, when `retry` is given, a Retry button."""

    async def again() -> None:
        await call(retry)

    return html.div(
        {"class_name": "notice notice-warning query-error", "role": "alert"},
        icon("alert", size=18),
        html.p(message),
        Button(retry_label, on_click=again, variant="outline", size="sm", class_name="query-retry")
        if retry is not None
        else "",
    )


def empty_state(
    title: Any,
    text: Any = None,
    *,
    icon_name: str | None = None,
    action: Any = None,
    class_name: str | None = None,
) -> VdomDict:
    """The empty look on its own: an optional icon, a title, an optional line and an optional action;
    `class_name` adds a screen's own classes (e.g. "card appts-empty")."""
    return html.div(
        {"class_name": classes("empty-state", class_name)},
        html.span({"class_name": "empty-icon"}, icon(icon_name, size=28)) if icon_name else "",
        html.p({"class_name": "empty-title"}, title),
        html.p(text) if text else "",
        action or "",
    )


def _is_empty(data: object) -> bool:
    if isinstance(data, Sized) and not isinstance(data, str | bytes):
        return len(data) == 0
    return False


def QueryView(  # noqa: N802 - a kit element, named like the components
    query: QueryLike[T],
    render: Callable[[T], Any],
    *,
    empty: Any = "Nothing here yet.",
    is_empty: Callable[[T], bool] | None = None,
    loading_label: str = "Loading…",
    retry_label: str = "Retry",
) -> Any:
    """Render `query` in one of four looks.

    - no data yet and loading → the spinner with `loading_label`;
    - an error → the message with a Retry button (calls `query.refetch()`), also when stale data is kept;
    - no data (None), or data that `is_empty(data)` says is empty (default: a zero-length collection) →
      `empty`: a string becomes the empty-state title, anything else (a VDOM dict, `empty_state(...)`) is
      shown as is; `render` is never handed None;
    - otherwise `render(data)`. A reload keeps showing the old data (no flash of the spinner)."""
    if query.error:
        return error_state(query.error, query.refetch, retry_label=retry_label)
    data = query.data
    if data is None and query.loading:
        return loading_state(loading_label)
    if data is None or (is_empty or _is_empty)(data):
        return empty_state(empty) if isinstance(empty, str) else empty
    return render(data)
