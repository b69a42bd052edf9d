"""The visit money form's destination (components/visit_money.py, issue 29 item 3), driven through its hooks
on a real database with Stripe's stand-in: a visit paid by card asks "Refund to" with two labelled radios,
To the card checked by default; a partial refund sent with it goes back to the card (a Stripe refund) and the
refund list says "to the card (succeeded)"; chosen As wallet credit, the next refund goes to the wallet and
the list says so. A visit paid at the visit offers no choice and says it is refunded as wallet credit only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.services.ledger import get_my_wallet
from components.context import SessionContext
from components.visit_money import WALLET_ONLY, VisitMoney
from medivisit.reactpy_compat import hook_stack
from tests import stripe_standin
from tests.factories import run
from tests.ui.harness import find_all, mount, text
from tests.ui.test_visit_money import as_, pay_at_visit_env, submit, until
from tests.unit import test_card_refunds, test_ledger
from tests.unit.test_ledger import World, book, complete, money

world = test_ledger.world
standin = test_card_refunds.standin
_env = pay_at_visit_env


@pytest.fixture
def identity(pay_at_visit_env) -> None:  # noqa: ANN001
    """What tests/unit's identity fixture sets (fast hashing, a var dir), for test_ledger's world."""


@pytest.fixture
def stripe_on(world: World, monkeypatch, standin) -> Iterator[World]:  # noqa: ANN001
    hook_stack.install()  # as the server does at startup
    stripe_standin.configure_gateway(monkeypatch, standin)
    yield world


def radios(ui) -> list:  # noqa: ANN001
    return find_all(ui.find("fieldset"), "input", type="radio")


async def test_a_card_paid_visit_is_refunded_to_the_card_by_default_or_as_wallet_credit(
    stripe_on, standin
) -> None:
    world = stripe_on
    visit_id, intent = await test_card_refunds.paid_by_card(world, standin)
    async with mount(
        lambda: SessionContext(VisitMoney(visit_id, lambda: None), value=as_(world.owner))
    ) as ui:
        await until(ui, lambda: "Left to refund" in text(ui.model))
        await ui.fire(ui.find("button", text="Refund"))
        group = ui.find("fieldset")
        assert text(group.get("children", [{}])[0]) == "Refund to"
        assert group["attributes"]["role"] == "radiogroup"
        card, wallet = radios(ui)
        assert (card["attributes"]["checked"], wallet["attributes"]["checked"]) == (True, False)
        labels = [text(label) for label in find_all(group, "label")]
        assert labels == ["To the card", "As wallet credit"]
        assert "refunds to the card are not made here" not in text(ui.model)

        await submit(ui, "refund-form", amount="10", reason="Arrived late")
        await until(ui, lambda: bool(ui.find_all("li", class_="visit-refund")))
        assert "$10.00 refunded to the card (succeeded)" in text(ui.find("ul", class_="visit-refunds"))
        [sent] = standin.calls("POST", "/v1/refunds")
        assert (sent.params["payment_intent"], sent.params["amount"]) == (intent, "1000")

        await ui.fire(ui.find("button", text="Refund"))
        await ui.fire(radios(ui)[1], "on_change", {"target": {"checked": True}})
        await submit(ui, "refund-form", amount="5", reason="Goodwill")
        await until(ui, lambda: len(ui.find_all("li", class_="visit-refund")) == 2)
        assert "$5.00 refunded as wallet credit" in text(ui.find("ul", class_="visit-refunds"))
    assert len(standin.calls("POST", "/v1/refunds")) == 1
    assert (await run(get_my_wallet, actor=world.patient.actor)).credit == money("5")


async def test_a_visit_paid_at_the_visit_is_refunded_as_wallet_credit_only(world: World) -> None:
    hook_stack.install()
    visit_id = await book(world)
    await complete(world, visit_id)
    async with mount(
        lambda: SessionContext(VisitMoney(visit_id, lambda: None), value=as_(world.owner))
    ) as ui:
        await until(ui, lambda: "Left to refund" in text(ui.model))
        await ui.fire(ui.find("button", text="Refund"))
        assert not ui.find_all("fieldset") and WALLET_ONLY in text(ui.model)
