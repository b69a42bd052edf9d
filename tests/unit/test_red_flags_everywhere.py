"""One red-flag check wherever a patient writes free text (issue 27), on SQLite and, with
TEST_DATABASE_URL, PostgreSQL.

The help desk: a new ticket or a customer's reply saying "I want to die" is filed all the same (the person
must not lose their message), made urgent, answers with the 988 message for the screen, and every
help-desk worker gets an urgent "Safety alerts" notification (a category nobody can turn off) that names
the ticket and never the customer's words; an ordinary ticket does none of it.
"""

from __future__ import annotations

import pytest

from app.services.errors import ValidationFailed
from app.services.notifications import list_notifications, update_notification_preferences
from app.services.safety import CRISIS_MESSAGE, EMERGENCY_MESSAGE
from app.services.support import get_my_ticket, get_ticket, reply_as_customer
from models.account import Role
from models.notification import NotificationCategory, NotificationKind, PreferencesUpdate, PreferenceUpdate
from tests.factories import new_ticket, person, run


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
