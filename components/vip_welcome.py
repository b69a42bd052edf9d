"""The VIP welcome (SPEC §2 "VIP welcome"): 'VIP Access Granted!' with 'Continue to Dashboard', shown once
to a VIP. Whether it was seen is kept on the server (`dismiss_vip_welcome`), so another browser does not
show it again. An accessible dialog (the kit's `Dialog`): focus moves in and stays in, Escape or Continue
closes it, and the focus goes back where it was.

Zero arguments: mount it anywhere below the app root (the dashboard shell); it reads the signed-in user.
"""

from __future__ import annotations

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.services.accounts import dismiss_vip_welcome, get_welcome
from components.browser import initial_focus
from components.context import use_session
from components.hooks import use_action, use_query
from components.icons import icon
from components.kit import Dialog, dialog_actions

TITLE = "VIP Access Granted!"
CONTINUE = "Continue to Dashboard"


@component
def VipWelcome() -> VdomDict:
    session = use_session()
    user = session.user
    is_vip = user is not None and user.is_vip
    welcome = use_query(get_welcome, enabled=is_vip)
    closed, set_closed = use_state(False)
    seen = use_action(dismiss_vip_welcome, on_error=lambda _message: None)

    async def close() -> None:
        set_closed(True)
        await seen.run()

    async def on_continue(_event: dict) -> None:
        await close()

    show = is_vip and not closed and welcome.data is not None and welcome.data.show_vip
    if not show:
        # Once known not to show (seen, or closed here), say so: a test of a second browser waits on it.
        known = closed or (welcome.data is not None and not welcome.loading)
        return html.span({"hidden": True, "data-vip-welcome": "seen"}) if is_vip and known else html._()
    return Dialog(
        TITLE,
        html.div(
            {"class_name": "vip-welcome"},
            html.span({"class_name": "vip-welcome-badge", "aria-hidden": "true"}, icon("star", size=28)),
            html.p("Your account now has VIP status. Thank you for choosing us for your care."),
        ),
        open=show,
        on_close=close,
        id="vip-welcome",
        class_name="vip-welcome-dialog",
        description="Welcome to the VIP experience.",
        # The main action takes the focus first (the kit's Button carries no extra attributes).
        footer=dialog_actions(
            html.button(
                {
                    "class_name": "btn btn-primary",
                    "type": "button",
                    "on_click": on_continue,
                    **initial_focus(),
                },
                CONTINUE,
            )
        ),
    )
