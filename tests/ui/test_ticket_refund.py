"""The help desk ticket's Refund section (helpdesk/ticket_refund.py, issue 29 item 3) driven through its hooks
on a real database: payments staff choose one of the requester's refundable visits and refund it with the
same form as the staff visit details (components/visit_money.py); a fully refunded visit leaves the chooser;
without process_payments the service refuses to list anything, and a requester with nothing refundable is
told so."""

from __future__ import annotations

import pytest

from app.services.errors import PermissionDenied
from app.services.receipts import list_refundables
from components.context import SessionContext
from helpdesk.ticket_refund import NOTHING, TicketRefund
from tests.factories import run
from tests.ui.harness import mount, text
from tests.ui.test_visit_money import as_, pay_at_visit_env, submit, until, world_env
from tests.unit.test_receipts import book_two, build_world, complete

_env = (world_env, pay_at_visit_env)


async def test_payments_staff_refund_a_visit_of_the_requester_from_the_ticket(world_env) -> None:
    world = await build_world()
    _number, (_draw, iv) = await book_two(world)
    await complete(world, iv)
    with pytest.raises(PermissionDenied):
        await run(list_refundables, actor=world.manager.actor, patient_id=world.patient.id)
    listed = await run(list_refundables, actor=world.owner.actor, patient_id=world.patient.id)
    assert [(item.kind, item.id) for item in listed] == [("visit", iv)]  # the blood draw is not completed

    async with mount(lambda: SessionContext(TicketRefund(world.patient.id), value=as_(world.owner))) as ui:
        await until(ui, lambda: bool(ui.find_all("select", name="refund-target")))
        options = ui.find_all("option")
        assert [text(o) for o in options][0] == "Choose a visit or an order"
        assert "Hydration IV" in text(options[1]) and "left" in text(options[1])
        await ui.fire(
            ui.find("select", name="refund-target"), "on_change", {"target": {"value": f"visit:{iv}"}}
        )
        await until(ui, lambda: "Left to refund" in text(ui.model))
        await ui.fire(ui.find("button", text="Refund"))
        await submit(ui, "refund-form", reason="Billing ticket: arrived late")
        await until(ui, lambda: bool(ui.find_all("li", class_="visit-refund")))
        assert "refunded as wallet credit" in text(ui.find("ul", class_="visit-refunds"))
        await until(ui, lambda: NOTHING in text(ui.model))  # refunded in full: nothing is left


async def test_a_requester_with_nothing_refundable_is_told_so(world_env) -> None:
    world = await build_world()
    async with mount(lambda: SessionContext(TicketRefund(world.patient.id), value=as_(world.owner))) as ui:
        await until(ui, lambda: NOTHING in text(ui.model))
