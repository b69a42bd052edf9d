"""Staff settings (/staff/settings, issue 15 item 5) on SQLite and, with TEST_DATABASE_URL, PostgreSQL: a
member's pinned time zone reaches the portal's access read, their signature goes under replies to customers
but never under internal notes; owners (and admins) change the business settings, which take effect through
app/flags.py, and nobody else may."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app import db as app_db
from app import flags
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.features import list_features, set_feature
from app.services.features.internal import load_toggles
from app.services.staff import get_my_staff_preferences, get_staff_access, update_my_staff_preferences
from app.services.support import reply_to_ticket
from app.settings import get_settings
from models.account import Role
from models.staff import StaffPreferencesUpdate
from models.support import TicketMessage
from tests import factories
from tests.factories import person, run


@pytest.fixture
def clean_flags():
    yield
    flags.replace({})


async def test_a_member_pins_a_time_zone_and_signs_replies_but_not_notes(identity) -> None:
    agent, customer = await person(Role.support, "Sam Rivera"), await person(Role.patient)
    assert (await run(get_my_staff_preferences, actor=agent.actor)).time_zone is None
    saved = await run(
        update_my_staff_preferences,
        actor=agent.actor,
        data=StaffPreferencesUpdate(
            time_zone="America/Chicago", signature="  Sam Rivera \n  MediVisit   Support\n\n"
        ),
    )
    assert saved.time_zone == "America/Chicago" and saved.signature == "Sam Rivera\nMediVisit Support"
    assert (await run(get_staff_access, actor=agent.actor)).time_zone == "America/Chicago"

    ticket = await factories.new_ticket(customer)
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="We refunded you.")
    await run(
        reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="Checked Stripe.", internal=True
    )
    async with app_db.unit_of_work() as session:
        contents = list(
            await session.scalars(
                select(TicketMessage.content)
                .where(TicketMessage.ticket_id == ticket.id, TicketMessage.sender_id == agent.id)
                .order_by(TicketMessage.created_at)
            )
        )
    assert contents == ["We refunded you.\n\nSam Rivera\nMediVisit Support", "Checked Stripe."]

    back = await run(update_my_staff_preferences, actor=agent.actor, data=StaffPreferencesUpdate())
    assert back.time_zone is None and back.signature == ""
    with pytest.raises(ValidationFailed, match="time zone"):
        await run(
            update_my_staff_preferences,
            actor=agent.actor,
            data=StaffPreferencesUpdate(time_zone="Mars/Olympus"),
        )
    with pytest.raises(ValidationFailed, match="under 500"):
        await run(
            update_my_staff_preferences, actor=agent.actor, data=StaffPreferencesUpdate(signature="x" * 501)
        )
    with pytest.raises(PermissionDenied):
        await run(get_my_staff_preferences, actor=customer.actor)


async def test_owners_change_the_business_settings_and_they_take_effect(identity, clean_flags) -> None:
    owner = await person(Role.owner)
    rows = {row.key: row for row in await run(list_features, actor=owner.actor, group="business")}
    assert (
        rows["travel_buffer_minutes"].value == 30
        and rows["support_email"].value == get_settings().support_email
    )
    await run(set_feature, actor=owner.actor, key="travel_buffer_minutes", value="45")
    await run(set_feature, actor=owner.actor, key="support_email", value=" Help@MediVisit.Example ")
    await load_toggles()  # what the server's keeper runs on the "features" event
    assert flags.travel_buffer_minutes() == 45 and flags.support_email() == "help@medivisit.example"
    for bad, message in (("-5", "0 to 240"), ("241", "0 to 240"), ("soon", "0 to 240")):
        with pytest.raises(ValidationFailed, match=message):
            await run(set_feature, actor=owner.actor, key="travel_buffer_minutes", value=bad)
    with pytest.raises(ValidationFailed, match="e-mail address"):
        await run(set_feature, actor=owner.actor, key="support_email", value="not an address")
    # The business settings stay out of the admin console's toggles.
    assert "support_email" not in {row.key for row in await run(list_features, actor=owner.actor)}


@pytest.mark.parametrize("role", [Role.management, Role.hr, Role.support, Role.patient, Role.provider])
async def test_only_owners_and_admins_touch_the_business_settings(identity, role) -> None:
    someone = await person(role)
    with pytest.raises(PermissionDenied):
        await run(list_features, actor=someone.actor, group="business")
    with pytest.raises(PermissionDenied):
        await run(set_feature, actor=someone.actor, key="travel_buffer_minutes", value=10)
