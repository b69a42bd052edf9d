"""The getting-started checklist (issue 12) shown on the signed-in home: per role, computed from the
account's data by `get_welcome` (patient: add an address, book a first visit; provider: finish enrollment,
set working hours), never a stored tick. It disappears once everything is done, can be dismissed (kept on
the server), and never blocks the page: a plain card (a labelled region), not a modal.

Zero arguments: mount it anywhere below the app root; it reads the signed-in user.
"""

from __future__ import annotations

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.services.accounts import dismiss_onboarding, get_welcome
from components.context import use_session
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import Button
from models.account import ChecklistItem


@component
def OnboardingChecklist() -> VdomDict:
    session = use_session()
    signed_in = session.user is not None
    welcome = use_query(get_welcome, enabled=signed_in)
    dismissed, set_dismissed = use_state(False)
    dismiss = use_action(dismiss_onboarding)

    async def hide() -> None:
        set_dismissed(True)
        await dismiss.run()

    items = welcome.data.checklist if welcome.data is not None else ()
    if dismissed or not items:
        return html._()
    done = sum(item.done for item in items)
    return html.section(
        {"class_name": "onboarding", "aria-labelledby": "onboarding-title"},
        html.div(
            {"class_name": "onboarding-head"},
            html.div(
                html.h2({"id": "onboarding-title", "class_name": "onboarding-title"}, "Get started"),
                html.p({"class_name": "onboarding-progress"}, f"{done} of {len(items)} done"),
            ),
            Button(
                "Dismiss",
                on_click=hide,
                variant="ghost",
                size="sm",
                aria_label="Dismiss the getting-started checklist",
            ),
        ),
        html.ul({"class_name": "onboarding-list"}, *(_item(item) for item in items)),
    )


def _item(item: ChecklistItem) -> VdomDict:
    mark = (
        html.span(
            {"class_name": "onboarding-mark is-done"},
            icon("check", size=14),
            html.span({"class_name": "sr-only"}, "Done: "),
        )
        if item.done
        else html.span({"class_name": "onboarding-mark"}, html.span({"class_name": "sr-only"}, "To do: "))
    )
    label = (
        html.span({"class_name": "onboarding-done-label"}, item.title)
        if item.done
        else html.a({"href": item.href}, item.title)
    )
    return html.li({"key": item.key, "class_name": "onboarding-item"}, mark, label)
