"""The provider wallet's payout account (issue 29, item 2; only when PAYMENT_GATEWAY=stripe): whether the
provider's payouts are set up with Stripe (not set up / onboarding incomplete / payouts enabled), with "Set up
payouts with Stripe" or "Continue setup", which creates their Stripe Express account once and sends the
browser to Stripe's onboarding (an Account Link). Stripe sends them back to the wallet (`?payouts=return`:
the status is read from Stripe then) or, when the link expired, to `?payouts=refresh`. Without Stripe the
card is not shown: payouts are bank transfers staff record (Payout Requests). The rules are
app/services/payments' (`_connect`).
"""

from __future__ import annotations

from typing import Any

from reactpy import component, html, use_state
from reactpy.types import VdomDict

from app.principal import Principal
from app.services.errors import NotFound
from app.services.payments import get_my_payout_account, start_payout_onboarding
from components.browser import follow, native_link
from components.hooks import use_action, use_query
from components.kit import Badge, Button, QueryView, StaffCard, Tone, button_link, form_error, hint
from models.connect import ConnectStatus, PayoutAccountRead

RETURNED, EXPIRED = "return", "refresh"  # the wallet's ?payouts= when Stripe sends the provider back
STATUS: dict[ConnectStatus, tuple[str, Tone]] = {
    ConnectStatus.not_set_up: ("Not set up", "neutral"),
    ConnectStatus.incomplete: ("Onboarding incomplete", "warning"),
    ConnectStatus.enabled: ("Payouts enabled", "success"),
}
EXPLAIN = {
    ConnectStatus.not_set_up: (
        "Set up payouts with Stripe to have your approved payouts transferred to your bank account. Stripe asks "
        "for your identity and bank details on its own secure pages; MediVisit never sees them."
    ),
    ConnectStatus.incomplete: (
        "Stripe needs a few more details before it can pay you. Until then, approved payouts wait, or staff "
        "send them by bank transfer."
    ),
    ConnectStatus.enabled: (
        "Approved payouts are transferred to your Stripe account, and Stripe pays them to your bank account."
    ),
}
LINK_EXPIRED = "Your setup link expired. Continue setup where you left off."


async def payout_account_or_none(
    *, session: Any, actor: Principal, refresh: bool = False
) -> PayoutAccountRead | None:
    """The provider's payout account, or None when there is nothing to show (no provider profile)."""
    try:
        return await get_my_payout_account(session=session, actor=actor, refresh=refresh)
    except NotFound:
        return None


def after_stripe(params: dict[str, list[str]]) -> str:
    """How Stripe sent the provider back to the wallet ("return", "refresh"), else ""."""
    value = (params.get("payouts") or [""])[0][:10]
    return value if value in (RETURNED, EXPIRED) else ""


@component
def PayoutSetup(after: str = "") -> VdomDict:
    query = use_query(payout_account_or_none, refresh=after == RETURNED)
    return QueryView(
        query,
        lambda account: _Card(account, after),
        is_empty=lambda data: data is None or data.status is ConnectStatus.unavailable,
        empty="",
        loading_label="Loading your payout account…",
    )


@component
def _Card(account: PayoutAccountRead, after: str) -> VdomDict:
    going, set_going = use_state("")  # Stripe's onboarding address, once it was made
    problem, set_problem = use_state("")
    start = use_action(start_payout_onboarding, on_error=set_problem, on_success=set_going)
    label, tone = STATUS[account.status]

    async def begin(_event: Any = None) -> None:
        set_problem("")
        await start.run()

    action: Any = ""
    if going:
        action = html._(
            html.p({"role": "status"}, "Taking you to Stripe to set up your payouts…"),
            button_link("Continue to Stripe", going, **native_link()),
            follow(going, full_load=True),
        )
    elif account.status is not ConnectStatus.enabled:
        first = account.status is ConnectStatus.not_set_up
        action = Button(
            "Set up payouts with Stripe" if first else "Continue setup",
            on_click=begin,
            pending=start.pending,
            pending_label="Opening Stripe…",
            class_name="payout-setup-start",
        )
    return StaffCard(
        "Payouts",
        html.p(Badge(label, tone=tone, class_name="payout-setup-status")),
        hint(EXPLAIN[account.status]),
        hint(LINK_EXPIRED) if after == EXPIRED and account.status is ConnectStatus.incomplete else "",
        form_error(problem),
        action,
        title_id="payout-setup-title",
        class_name="payout-setup",
    )
