"""Toasts, bottom-right. Display time is CSS; the Toaster keeps the newest 3 (TOAST_LIMIT), which CSS also
caps (fewer while the cart panel is open); Alt+T focus is in static/js/app.js."""

from __future__ import annotations

from reactpy import component, html, use_state
from reactpy.types import State, VdomDict

from components import browser
from components.context import TOAST_LIMIT, Toast, use_toaster
from components.icons import icon
from components.kit import button_link

_ICONS = {"success": "check", "error": "alert", "default": "sparkles"}


def _toast(toast: Toast, dismiss) -> VdomDict:  # noqa: ANN001
    return html.li(
        {
            "class_name": f"toast toast-{toast.variant}",
            "key": toast.id,
            "style": {"animation_delay": f"0ms, {toast.duration_ms}ms"},
            "tab_index": 0,
        },
        html.span({"class_name": "toast-icon"}, icon(_ICONS[toast.variant], size=18)),
        # The live region is the text, not the list item: a list holds list items only (axe "list").
        html.div(
            {"class_name": "toast-body", "role": "alert" if toast.variant == "error" else "status"},
            html.p({"class_name": "toast-title"}, toast.title),
            html.p({"class_name": "toast-description"}, toast.description) if toast.description else "",
        ),
        button_link(toast.action_label, toast.action_href, variant="outline", size="sm")
        if toast.action_label and toast.action_href
        else "",
        html.button(
            {
                "class_name": "toast-close",
                "type": "button",
                "aria-label": "Close notification",
                "on_click": lambda _e: dismiss(toast.id),
            },
            icon("x", size=14),
        ),
    )


@component
def Toaster() -> VdomDict:
    toaster = use_toaster()
    toasts_state: State[tuple[Toast, ...]] = use_state(())
    toasts, set_toasts = toasts_state
    toaster.bind(set_toasts)

    def dismiss(toast_id: int) -> None:
        set_toasts(lambda current: tuple(t for t in current if t.id != toast_id))

    return html.section(
        {"class_name": "toaster", "aria-label": "Notifications alt+T", "tab_index": -1, **browser.toaster()},
        html.ol(
            {"class_name": "toast-list", "data-limit": TOAST_LIMIT},
            *(_toast(toast, dismiss) for toast in toasts),
        ),
    )
