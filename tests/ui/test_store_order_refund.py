"""The store order refund form (components/store_refund.py, issue 29 item 3; mounted by Store Orders and the
help-desk ticket) driven through its hooks on a real database: an order paid on delivery offers no "Refund
to" choice and says it is refunded as wallet credit only; a partial refund with a reason shows in its list
"as wallet credit" and what is left; an order not paid yet has nothing to refund and no Refund button."""

from __future__ import annotations

from app.services.store import move_fulfilment, place_store_order
from components.context import SessionContext
from components.store_refund import NOT_PAID, WALLET_ONLY, StoreOrderRefund
from models.account import Role
from models.staff import Permission
from tests.factories import person, run
from tests.ui.harness import mount, text
from tests.ui.test_visit_money import as_, pay_at_visit_env, submit, until
from tests.unit.test_one_checkout import HOME, in_cart, stocked
from tests.unit.test_receipts import build_world

_env = pay_at_visit_env


async def test_an_order_paid_on_delivery_is_refunded_in_part_as_wallet_credit(pay_at_visit_env) -> None:
    world = await build_world()
    gauze = await stocked(world, "Gauze pads", "8.50")  # type: ignore[arg-type]
    await in_cart(world.patient, gauze, 2)
    order = await run(place_store_order, actor=world.patient.actor, address=HOME)
    staff = await person(Role.support, "Sam Staff", extras=(Permission.manage_services,))
    async with mount(
        lambda: SessionContext(StoreOrderRefund(order.id, lambda: None), value=as_(world.owner))
    ) as ui:
        await until(ui, lambda: NOT_PAID in text(ui.model))
        assert not ui.find_all("button", text="Refund")
    for step in ("processed", "shipped", "delivered"):
        await run(
            move_fulfilment,
            actor=staff.actor,
            order_id=order.id,
            to=step,
            carrier="UPS" if step == "shipped" else "",
            tracking_number="1Z999" if step == "shipped" else "",
        )
    async with mount(
        lambda: SessionContext(StoreOrderRefund(order.id, lambda: None), value=as_(world.owner))
    ) as ui:
        await until(ui, lambda: "Left to refund" in text(ui.model))
        await ui.fire(ui.find("button", text="Refund"))
        assert not ui.find_all("fieldset") and WALLET_ONLY in text(ui.model)
        await ui.type(ui.find("input", name="amount"), "4")
        await submit(ui, "store-refund-form", reason="One pack was open")
        await until(ui, lambda: bool(ui.find_all("li", class_="visit-refund")))
        refunds = text(ui.find("ul", class_="visit-refunds"))
        assert "$4.00 refunded as wallet credit" in refunds and "Reason: One pack was open" in refunds
        left = order.total_cents - 400
        assert f"${left // 100}.{left % 100:02d}" in text(ui.model)
