"""One red-flag check wherever a patient writes free text (issue 27), on SQLite and, with
TEST_DATABASE_URL, PostgreSQL.

The help desk: a new ticket or a customer's reply saying "I want to die" is filed all the same (the person
must not lose their message), made urgent, answers with the 988 message for the screen, and every
help-desk worker gets an urgent "Safety alerts" notification (a category nobody can turn off) that names
the ticket and never the customer's words; an ordinary ticket does none of it. A service request's notes and a visit's intake notes written at
checkout with a red flag are posted / booked all the same, and the answer (and the order's confirmation,
for its patient only) carries the 911 / 988 message.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.services.booking import get_order_by_number, hold_slot, place_order
from app.services.errors import ValidationFailed
from app.services.notifications import list_notifications, update_notification_preferences
from app.services.safety import CRISIS_MESSAGE, EMERGENCY_MESSAGE
from app.services.service_requests import get_service_request, post_service_request
from app.services.support import get_my_ticket, get_ticket, reply_as_customer
from models.account import Role
from models.booking import CheckoutLine
from models.catalog import ServiceLocation
from models.notification import NotificationCategory, NotificationKind, PreferencesUpdate, PreferenceUpdate
from models.service_request import ServiceRequestCreate, WindowInput
from tests.factories import ZIP, new_ticket, person, provider, run

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)  # Monday 9:00 in New York


@pytest.fixture
async def desk(identity):  # noqa: ANN201
    """A patient, two help-desk agents and a provider (who does not work the desk)."""
    return (
        await person(Role.patient, "Jordan Lee"),
        await person(Role.support, "Sam Rivera"),
        await person(Role.support, "Alex Kim"),
        await person(Role.provider, "Pat Doe"),
    )


async def _alerts(someone) -> list:  # noqa: ANN001
    page = await run(list_notifications, actor=someone.actor, tab="all")
    return [item for item in page.items if item.kind is NotificationKind.ticket_red_flag]


async def test_a_ticket_saying_i_want_to_die_is_filed_shows_988_and_alerts_the_desk(desk) -> None:
    patient, agent, other_agent, provider = desk
    words = "I can't do this any more, I want to die"
    ticket = await new_ticket(patient, "Account question", words, category="account")

    assert ticket.safety_message == CRISIS_MESSAGE and "988" in ticket.safety_message
    filed = await run(get_my_ticket, actor=patient.actor, ticket_id=ticket.id)
    assert filed.ticket.description == words  # the message itself is kept for the desk to answer
    assert filed.ticket.safety_message == ""  # the 988 message rides on the answer only, never stored
    detail = await run(get_ticket, actor=agent.actor, ticket_id=ticket.id)
    assert detail.ticket.priority == "urgent"
    assert ("priority", "medium", "urgent") in [(h.field, h.old_value, h.new_value) for h in detail.history]

    for someone in (agent, other_agent):
        (alert,) = await _alerts(someone)
        assert alert.category is NotificationCategory.safety_alerts
        assert f"#{ticket.number}" in alert.title and "988" in alert.body
        assert alert.link.endswith(f"ticket={ticket.id}")
        text = f"{alert.title} {alert.body}".lower()
        assert "die" not in text.split() and "account question" not in text
    assert await _alerts(provider) == [] and await _alerts(patient) == []


async def test_a_reply_with_an_emergency_shows_911_and_alerts_again(desk) -> None:
    patient, agent, *_ = desk
    ticket = await new_ticket(patient, "Refund", "Where is my refund?")
    assert ticket.safety_message == "" and await _alerts(agent) == []
    assert (await run(get_ticket, actor=agent.actor, ticket_id=ticket.id)).ticket.priority == "medium"

    calm = await run(reply_as_customer, actor=patient.actor, ticket_id=ticket.id, content="Thanks, any news?")
    assert calm.safety_message == "" and await _alerts(agent) == []
    sent = await run(
        reply_as_customer, actor=patient.actor, ticket_id=ticket.id, content="my ch3st p41n is back, help"
    )
    assert sent.safety_message == EMERGENCY_MESSAGE and sent.content == "my ch3st p41n is back, help"
    (alert,) = await _alerts(agent)
    assert "911" in alert.body and "ch3st" not in alert.body
    assert (await run(get_ticket, actor=agent.actor, ticket_id=ticket.id)).ticket.priority == "urgent"


async def test_nobody_can_turn_the_safety_alerts_off(desk) -> None:
    _, agent, *_ = desk
    with pytest.raises(ValidationFailed):
        await run(
            update_notification_preferences,
            actor=agent.actor,
            changes=PreferencesUpdate(
                rows=(
                    PreferenceUpdate(category=NotificationCategory.safety_alerts, in_app=False, email=False),
                )
            ),
        )


async def test_service_request_notes_with_a_red_flag_are_posted_with_the_988_message(identity) -> None:
    patient = await person(Role.patient)
    await provider()  # blood draws in ZIP: the service and a provider who can take it

    async def post(notes: str):  # noqa: ANN202 - a ServiceRequestRead
        request = ServiceRequestCreate(
            service_slug="routine-blood-draw",
            location="home",
            zip_code=ZIP,
            windows=[WindowInput(day="2030-01-08", start="09:00", end="12:00")],
            notes=notes,
        )
        return await run(post_service_request, actor=patient.actor, request=request, now=NOW)

    plain = await post("Fasting draw; I bruise easily.")
    assert plain.safety_message == ""
    notes = "Need a blood draw. Honestly I'm going to take all my pills tonight"
    posted = await post(notes)
    assert posted.safety_message == CRISIS_MESSAGE and posted.status == "open"
    again = await run(get_service_request, actor=patient.actor, request_id=posted.id)
    assert again.notes == notes and again.safety_message == ""


async def test_intake_notes_with_a_red_flag_book_the_visit_and_show_911(identity) -> None:
    patient, admin = await person(Role.patient), await person(Role.admin)
    ana = await provider("Ana Notes")

    async def book(notes: str):  # noqa: ANN202 - an OrderRead
        held = await run(
            hold_slot,
            actor=patient.actor,
            service_slug="routine-blood-draw",
            provider_id=ana,
            starts_at=NINE,
            zip_code=ZIP,
            location=ServiceLocation.home,
            now=NOW,
        )
        line = CheckoutLine(
            hold_id=held.id,
            location=ServiceLocation.home,
            address_line="12 Main Street",
            city="New York",
            state="NY",
            zip_code=ZIP,
            notes=notes,
        )
        return await run(place_order, actor=patient.actor, lines=[line], now=NOW)

    order = await book("Gate code 1234. My dad has crushing ch3st pain since this morning")
    assert order.safety_message == EMERGENCY_MESSAGE and len(order.appointments) == 1  # booked all the same
    shown = await run(get_order_by_number, actor=patient.actor, number=order.number)
    assert shown.safety_message == EMERGENCY_MESSAGE  # on the confirmation page, for its patient
    assert (await run(get_order_by_number, actor=admin.actor, number=order.number)).safety_message == ""
