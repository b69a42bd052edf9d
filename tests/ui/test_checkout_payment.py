"""The checkout's payment part (pages/checkout.py, issue 29 items 1, 3 and 4), headless: the modes the owners
allow as a labelled radio group ("Pay by card" recommended, "Pay at the visit"), or one sentence when only
one is allowed; "Use my wallet credit ($X.XX available)" with the credit line and what is left to pay; and,
on a real database through the screen's hooks, a cart with a visit and a product placed with one Place order
as one order (the store order linked to it) paying the mode chosen, with the credit ticked."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from reactpy import Ref, component, use_ref
from sqlalchemy import func, select

from app import db as app_db
from app.services.cart import CartOwner, load_cart
from app.services.features import set_feature
from app.services.ledger import grant_wallet_credit
from app.services.ledger.internal import check_ledger
from app.settings import get_settings
from components.context import SessionContext
from components.format import format_currency
from components.order_ui import OrderConfirmation, total_label
from medivisit.reactpy_compat import hook_stack
from models.booking import Order, OrderRead
from models.cart import CartItem, CartItemRead
from models.catalog import Service
from models.checkout_credit import CheckoutMoneyRead, OrderCredit, PaymentMode, PaymentModeRead
from models.receipt import ReceiptProductRead, ReceiptRead
from models.store import StoreOrder
from pages import checkout
from tests import factories
from tests.factories import run
from tests.ui.harness import Element, Mounted, attrs, find_all, mount, text, ui_session, until
from tests.unit import test_ledger
from tests.unit.test_ledger import World
from tests.unit.test_one_checkout import HOME, held_line, in_cart, stocked

world = test_ledger.world
CARD = PaymentModeRead(
    mode=PaymentMode.card, label="Pay by card", description="On Stripe's page.", recommended=True
)
VISIT = PaymentModeRead(
    mode=PaymentMode.visit, label="Pay at the visit", description="Nothing now.", recommended=False
)


def _visit_item() -> CartItemRead:
    return CartItemRead(
        id="item-1",
        name="Routine blood draw",
        price=Decimal("79.00"),
        original_price=Decimal("79.00"),
        quantity=1,
        service_slug="blood-draw",
    )


def summary(money: CheckoutMoneyRead, kept: list[Ref[Any]]) -> Callable[[], Any]:
    """The summary of a cart with one $79 visit (no time yet: its cart price) and `money`."""

    @component
    def Probe() -> Any:
        choice = use_ref(checkout._Choice())
        kept[:] = [choice]
        item = _visit_item()
        return checkout._Summary([("item-1#0", item)], {}, False, lambda: None, money, choice, [], None)

    return lambda: SessionContext(Probe(), value=ui_session())


def radios(ui: Mounted) -> list[Element]:
    return [e for e in find_all(ui.model, "input") if attrs(e).get("type") == "radio"]


def label_of(ui: Mounted, control: Element) -> str:
    [label] = [e for e in find_all(ui.model, "label") if attrs(e).get("html_for") == attrs(control)["id"]]
    return text(label)


async def test_two_modes_are_a_labelled_radio_group_card_recommended_and_chosen_first() -> None:
    kept: list[Ref[Any]] = []
    money = CheckoutMoneyRead(modes=[CARD, VISIT], credit=Decimal("0"))
    async with mount(summary(money, kept)) as ui:
        [group] = find_all(ui.model, "fieldset")
        assert text(find_all(group, "legend")[0]) == checkout.PAY_LEGEND
        card, visit = radios(ui)
        assert (label_of(ui, card), label_of(ui, visit)) == ("Pay by card Recommended", "Pay at the visit")
        assert attrs(card)["checked"] and not attrs(visit)["checked"]
        assert attrs(card)["name"] == attrs(visit)["name"] == "payment_mode"
        assert attrs(card)["aria-describedby"] == "pay-mode-stripe-hint"  # its description
        assert kept[0].current.mode == "stripe"
        await ui.fire(visit, "on_change", {"target": {"checked": True}})
        card, visit = radios(ui)
        assert attrs(visit)["checked"] and not attrs(card)["checked"]
        assert kept[0].current == checkout._Choice(mode="pay_at_visit", use_credit=False)
        assert "Use my wallet credit" not in text(ui.model)  # no credit, no checkbox


async def test_one_mode_is_said_not_offered() -> None:
    kept: list[Ref[Any]] = []
    async with mount(summary(CheckoutMoneyRead(modes=[VISIT], credit=Decimal("0")), kept)) as ui:
        assert radios(ui) == [] and find_all(ui.model, "fieldset") == []
        assert "Pay at the visit. Nothing now." in text(ui.model)
        assert kept[0].current.mode == "pay_at_visit"


async def test_wallet_credit_shows_what_it_pays_and_what_is_left() -> None:
    kept: list[Ref[Any]] = []
    money = CheckoutMoneyRead(modes=[CARD, VISIT], credit=Decimal("20"))
    async with mount(summary(money, kept)) as ui:
        [box] = [e for e in find_all(ui.model, "input") if attrs(e).get("type") == "checkbox"]
        assert label_of(ui, box) == "Use my wallet credit ($20.00 available)"
        assert "Wallet credit" not in text(find_all(ui.model, "dl")[0])  # until it is ticked
        await ui.fire(box, "on_change", {"target": {"checked": True}})
        totals = text(find_all(ui.model, "dl")[0])
        # $79 + $3.95 fee = $82.95; $20 of credit leaves $62.95 to pay by card.
        assert "Total $82.95 Wallet credit -$20 Left to pay by card $62.95" in totals
        assert kept[0].current == checkout._Choice(mode="stripe", use_credit=True)
        assert "Place order" in text(ui.model)


async def test_credit_covering_everything_needs_no_card() -> None:
    kept: list[Ref[Any]] = []
    money = CheckoutMoneyRead(modes=[CARD, VISIT], credit=Decimal("100"))
    async with mount(summary(money, kept)) as ui:
        [box] = [e for e in find_all(ui.model, "input") if attrs(e).get("type") == "checkbox"]
        assert label_of(ui, box) == "Use my wallet credit ($100.00 available)"
        await ui.fire(box, "on_change", {"target": {"checked": True}})
        assert "Wallet credit -$82.95 Left to pay $0" in text(find_all(ui.model, "dl")[0])
        assert "Paid with your wallet credit." in text(ui.model) and radios(ui) == []


# ---- the whole screen on a real database: one checkout ----------------------------------------------
@pytest.fixture
def identity(configured, monkeypatch, tmp_path) -> Iterator[None]:
    """The world's people on the test database (tests/unit/test_ledger.py's `world` asks for it)."""
    hook_stack.install()  # as the server does at startup
    monkeypatch.setenv("PASSWORD_HASH_MEMORY_KIB", "1024")
    monkeypatch.setenv("PASSWORD_HASH_TIME_COST", "1")
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def control(ui: Mounted, control_id: str) -> Element:
    [found] = [e for e in find_all(ui.model) if attrs(e).get("id") == control_id]
    return found


async def test_a_cart_with_a_visit_and_a_product_is_placed_with_one_place_order(world: World) -> None:
    patient = world.patient
    await run(set_feature, actor=world.owner.actor, key="payment_modes", value="visit")
    gauze = await stocked(world, "Gauze pads", "8.50")
    await in_cart(patient, gauze, 2)
    async with app_db.unit_of_work() as session:  # a visit of the blood draw in the cart, its time held
        service = await session.scalar(select(Service.id).where(Service.slug == "routine-blood-draw"))
        session.add(
            CartItem(user_id=patient.id, item_key="routine-blood-draw", service_id=service, quantity=1)
        )
    await held_line(world)
    await run(
        grant_wallet_credit,
        actor=world.owner.actor,
        patient_id=patient.id,
        amount=Decimal("10"),
        reason="Sorry",
    )
    signed_in = ui_session(patient)
    signed_in.cart.set(await run(load_cart, owner=CartOwner(user_id=patient.id), actor=patient.actor))
    async with mount(lambda: SessionContext(checkout.CheckoutPage(), value=signed_in)) as ui:
        await until(ui, lambda: "Held until" in text(ui.model) and "Shipping address" in text(ui.model))
        page = text(ui.model)
        assert "Gauze pads" in page and "Pay at the visit." in page  # the only mode the owners allow
        assert "Place store order" not in page  # one button for the whole cart
        for name, value in (("zip_code", "10001"), ("address_line", "12 Main St"), ("city", "New York")):
            await ui.type(control(ui, checkout.field_id(name)), value)
        await ui.type(control(ui, checkout.field_id("state")), "NY")
        for name in ("name", "line1", "city", "state", "zip_code"):
            await ui.type(control(ui, f"shipping-{name}"), getattr(HOME, name))
        await until(ui, lambda: bool(find_all(ui.model, "input", id="checkout-use-credit")))
        box = control(ui, "checkout-use-credit")
        await ui.fire(box, "on_change", {"target": {"checked": True}})
        await until(ui, lambda: "Wallet credit" in text(ui.model))
        [place] = [b for b in find_all(ui.model, "button") if text(b).startswith("Place order")]
        # $79 + $3.95 + the products ($17 and their shipping/tax) less $10 of credit.
        assert "Place order · $" in text(place)
        await ui.fire(place)
        # Placed: the page goes to the order's confirmation (a navigation: no Place order any more).
        await until(ui, lambda: not [b for b in find_all(ui.model, "button") if "Place order" in text(b)])
    async with app_db.unit_of_work() as session:
        [order] = (await session.scalars(select(Order))).all()
        [store] = (await session.scalars(select(StoreOrder))).all()
        credit = await session.scalar(select(func.sum(OrderCredit.amount)))
    assert store.visit_order_id == order.id and order.payment_method == "pay_at_visit"
    assert store.payment_method == "pay_on_delivery" and credit == 1000
    assert (store.ship_city, store.ship_zip) == ("New York", HOME.zip_code)
    checked = await run(check_ledger)
    assert checked.holds, checked.breaks


# ---- the confirmation of one checkout -------------------------------------------------------------------
def _receipt(order: OrderRead, **changes: Any) -> ReceiptRead:
    charged = order.total + Decimal("23.95")
    fields: dict[str, Any] = {
        "order_id": order.id,
        "number": order.number,
        "status": order.status,
        "payment_method": order.payment_method,
        "paid_ahead": False,
        "created_at": order.created_at,
        "visits": [],
        "credits": [],
        "subtotal": order.subtotal,
        "platform_fee": order.platform_fee,
        "charged": charged,
        "credited": Decimal("0"),
        "total": charged,
        "paid": Decimal("0"),
        "refunded": Decimal("0"),
        "due": charged,
        "store_number": "MS-4GAUZE",
        "products": [
            ReceiptProductRead(
                name="Gauze pads", quantity=2, unit_price=Decimal("8.50"), line_total=Decimal("17.00")
            )
        ],
        "store_subtotal": Decimal("17.00"),
        "shipping": Decimal("6.95"),
        "store_total": Decimal("23.95"),
    }
    return ReceiptRead(**(fields | changes))


async def test_the_confirmation_of_one_checkout_lists_the_visits_and_the_products_with_one_total() -> None:
    order = factories.order_read([factories.appointment_read()])
    receipt = _receipt(order)
    async with mount(lambda: SessionContext(OrderConfirmation(order, receipt), value=ui_session())) as ui:
        lines = text(find_all(ui.model, "ul")[0])
        assert order.appointments[0].service_name in lines
        assert "Gauze pads Quantity 2 $17" in lines
        assert "store order MS-4GAUZE" in text(ui.model)
        [link] = [a for a in find_all(ui.model, "a") if text(a) == "My store orders"]
        assert attrs(link)["href"] == "/dashboard/store?tab=orders"
        totals = text(find_all(ui.model, "dl")[0])
        # The visits and the products: one total, paid at the visit and on delivery.
        assert "Products $17 Shipping $6.95" in totals
        assert f"Total, paid at the visit and on delivery {format_currency(receipt.total)}" in totals
        assert totals.count("Total") == 1


def test_an_order_paid_all_with_credit_says_so() -> None:
    order = factories.order_read([factories.appointment_read()], payment_method="wallet_credit")
    assert total_label(order) == "Total, paid with wallet credit"


def test_what_is_left_to_pay_says_how_it_is_paid() -> None:
    label = checkout._left_to_pay_label
    assert label(6295, PaymentMode.card, products=True, covered=False) == "Left to pay by card"
    assert label(6295, PaymentMode.visit, products=False, covered=False) == "Left to pay at the visit"
    assert (
        label(8000, PaymentMode.visit, products=True, covered=False)
        == "Left to pay at the visit and on delivery"
    )
    assert label(1700, PaymentMode.card, products=True, covered=True) == "Left to pay (on delivery)"
    assert label(0, PaymentMode.card, products=False, covered=True) == "Left to pay"
