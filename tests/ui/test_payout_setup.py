"""The provider wallet's payout account (pages/dashboard/payout_setup.py) with the card gateway: "Set up
payouts with Stripe" creates the provider's Express account and sends the browser to Stripe's onboarding
link; back from Stripe (?payouts=return) the status is read from Stripe: "Onboarding incomplete" with
"Continue setup", then "Payouts enabled" with no button. Without Stripe the card is not there. In the staff
payout queue, a transfer Stripe refused is said and offered again (Send transfer). Stripe is the local
stand-in of tests/stripe_standin.py."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select

from app import db as app_db
from app.services.ledger import WORLD, move, request_payout
from app.services.ledger.internal import post
from app.settings import get_settings
from components.context import SessionContext
from medivisit.reactpy_compat import hook_stack
from models.account import Role
from models.connect import ConnectAccount
from models.ledger import AccountKind, EntryKind
from pages.dashboard import payout_setup
from staff import revenue
from tests.factories import Person, person, provider, run
from tests.ui.harness import attrs, mount, text, ui_session, until


def as_provider(nurse: Person, after: str = "") -> Callable[[], object]:
    signed_in = ui_session(nurse)
    return lambda: SessionContext(payout_setup.PayoutSetup(after), value=signed_in)


async def test_a_provider_sets_up_payouts_and_sees_them_enabled(stripe_on) -> None:
    nurse = await person(Role.provider, "Ada Nurse")
    await provider("Ada Nurse", owner=nurse)
    async with mount(as_provider(nurse)) as ui:
        await until(ui, lambda: "Not set up" in text(ui.model))
        assert "MediVisit never sees them" in text(ui.model)
        await ui.fire(ui.find("button", text="Set up payouts with Stripe"))
        await until(ui, lambda: "Taking you to Stripe" in text(ui.model))
        [going] = [a for a in ui.find_all("a") if "hidden" in attrs(a)]
        assert attrs(going)["href"].startswith("https://connect.stripe.com/setup/")
        assert stripe_on.calls("POST", "/v1/accounts") and stripe_on.calls("POST", "/v1/account_links")
    async with mount(as_provider(nurse, "refresh")) as ui:  # the link expired before the form was done
        await until(ui, lambda: "Onboarding incomplete" in text(ui.model))
        assert "Your setup link expired" in text(ui.model)
        assert ui.find("button", text="Continue setup")
    async with app_db.unit_of_work() as session:
        account_id = await session.scalar(select(ConnectAccount.account_id))
    stripe_on.enable_payouts(account_id)
    async with mount(as_provider(nurse, "return")) as ui:  # back from Stripe, before its webhook
        await until(ui, lambda: "Payouts enabled" in text(ui.model))
        assert not ui.find_all("button")
        assert "transferred to your Stripe account" in text(ui.model)


async def test_without_stripe_the_wallet_has_no_payout_setup(configured, monkeypatch) -> None:
    hook_stack.install()
    monkeypatch.setenv("PAYMENT_GATEWAY", "pay_at_visit")
    get_settings.cache_clear()
    nurse = await person(Role.provider, "Ada Nurse")
    await provider("Ada Nurse", owner=nurse)
    async with mount(as_provider(nurse)) as ui:
        await until(ui, lambda: "Loading" not in text(ui.model))
        assert "Payouts" not in text(ui.model) and not ui.find_all("button")
    get_settings.cache_clear()


async def test_staff_send_a_refused_transfer_again_from_the_queue(stripe_on) -> None:
    """The payout queue (staff/revenue.py): Approve of a provider paid through Stripe sends the transfer; when
    Stripe refuses it, the reason is said above the queue and the payout offers Send transfer, not Mark sent."""
    nurse = await person(Role.provider, "Ada Nurse")
    provider_id = await provider("Ada Nurse", owner=nurse)
    owner = await person(Role.owner, "Olive Owner")
    created = stripe_on.connect_answer("POST", "/v1/accounts", {"type": "express"})
    assert created is not None
    account_id = created[1]["id"]
    stripe_on.enable_payouts(account_id)
    async with app_db.unit_of_work() as session:
        session.add(ConnectAccount(provider_id=provider_id, account_id=account_id, payouts_enabled=True))
        await post(
            session=session,
            kind=EntryKind.earning_released,
            legs=move(8000, WORLD, (AccountKind.provider_available, provider_id)),
        )
    await run(request_payout, actor=nurse.actor)
    stripe_on.transfer_error = "Your platform's balance is too low for this transfer."
    signed_in = ui_session(owner)
    try:
        async with mount(lambda: SessionContext(revenue._Queue(), value=signed_in)) as ui:
            await until(ui, lambda: bool(ui.find_all("button", **{"aria-label": "Approve Ada Nurse $80.00"})))
            await ui.fire(ui.find("button", **{"aria-label": "Approve Ada Nurse $80.00"}))
            await until(ui, lambda: "balance is too low" in text(ui.model))
            assert "stays approved" in text(ui.find(role="alert"))
            await until(ui, lambda: bool(ui.find_all("button", text="Send transfer")))
            assert not ui.find_all("button", text="Mark sent")
            stripe_on.transfer_error = ""
            await ui.fire(ui.find("button", **{"aria-label": "Send transfer Ada Nurse $80.00"}))
            await until(ui, lambda: bool(ui.find_all("button", text="Mark paid")))
            assert not ui.find_all(role="alert")
    finally:
        stripe_on.transfer_error = ""
