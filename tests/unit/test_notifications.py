"""The notification centre (`app.services.notifications`) on SQLite and, with TEST_DATABASE_URL, PostgreSQL:
delivery in the caller's unit of work (an inbox row, an event after commit, the e-mail on a real SMTP inbox),
ownership of every inbox command, preferences (critical categories refused, muted ones out of the badge),
PHI-free words, the daily digest, and the events of the other domains (visits, help desk, staff, identity).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import db as app_db
from app import events
from app.auth.common import RequestOrigin
from app.auth.sessions import load_user_row, start_session
from app.services.appointments import (
    cancel_appointment,
    complete_appointment,
    confirm_appointment,
    start_appointment,
)
from app.services.errors import NotFound, ValidationFailed
from app.services.notifications import (
    CATEGORIES,
    KINDS,
    Message,
    archive_notification,
    count_unread,
    get_notification_preferences,
    install_security_notices,
    list_notifications,
    mark_all_read,
    mark_read,
    notifications_topic,
    unarchive_notification,
    update_notification_preferences,
)
from app.services.notifications._catalogue import is_critical
from app.services.notifications.internal import notify_each, send_daily_digests
from app.services.staff import update_staff
from app.services.support import assign_ticket, reply_to_ticket
from models.account import Role
from models.notification import (
    NotificationCategory,
    NotificationKind,
    PreferencesUpdate,
    PreferenceUpdate,
)
from tests import factories
from tests.conftest import html_part
from tests.factories import ALL_WEEK, person, present, run, settle

START = datetime(2030, 1, 10, 15, tzinfo=UTC)  # Thursday 10 January 2030, 10:00 AM in New York
NOW = datetime(2030, 1, 7, tzinfo=UTC)


def prefs(**rows: tuple[bool, bool, bool]) -> PreferencesUpdate:
    return PreferencesUpdate(
        rows=tuple(
            PreferenceUpdate(category=NotificationCategory(name), in_app=a, email=e, digest=d)
            for name, (a, e, d) in rows.items()
        )
    )


async def inbox(who, tab: str = "all"):  # noqa: ANN001, ANN201 - a Person, a NotificationPageRead
    return await run(list_notifications, actor=who.actor, tab=tab)


@pytest.fixture
async def visit_world(identity):  # noqa: ANN201
    patient = await person(Role.patient, "Jordan Lee")
    nurse = await person(Role.provider, "Ada Nurse")
    provider_id = await factories.provider("Ada Nurse", owner=nurse, hours=ALL_WEEK)
    visit_id = await factories.visit(patient, provider_id, START)
    return patient, nurse, visit_id


def test_the_catalogue_is_consistent() -> None:
    assert set(KINDS) == set(NotificationKind)
    assert set(CATEGORIES) == set(NotificationCategory)
    for category in NotificationCategory:
        kinds = [k for k in KINDS.values() if k.category == category]
        assert kinds, category
        # A category is critical as a whole or not at all: its row in the settings is locked or free.
        assert len({k.critical for k in kinds}) == 1, category
        assert bool(CATEGORIES[category].locked_reason) == is_critical(category), category
    assert is_critical(NotificationCategory.security) and is_critical(NotificationCategory.cancellations)


async def test_a_confirmation_reaches_the_inbox_live_and_by_email_without_clinical_detail(
    visit_world, smtp
) -> None:
    patient, nurse, visit_id = visit_world
    topic = notifications_topic(patient.id)
    async with events.subscribe(topic) as queue:
        await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=NOW)
        heard = await settle(queue, topic)
    page = await inbox(patient, "unread")
    [item] = page.items
    assert heard == [{"id": item.id, "kind": "visit_confirmed", "topic": topic}]
    assert item.title == "Your visit on Thu Jan 10 at 10:00 AM was confirmed"
    assert item.link == f"/dashboard/appointments?tab=upcoming&visit={visit_id}"
    assert page.unread == 1 and await run(count_unread, actor=patient.actor) == 1
    # PHI-free: no service, provider, address or note in what a lock screen or an inbox shows.
    words = f"{item.title} {item.body}"
    for detail in ("blood", "Routine", "Ada", "Main St", "Gate code", "New York"):
        assert detail not in words
    # The visit e-mail (owned by the appointments domain) went out once, as before.
    assert [m["Subject"] for m in smtp.wait_for(1)] == ["Your visit is confirmed"]


async def test_inbox_commands_touch_only_ones_own_notifications(visit_world) -> None:
    patient, nurse, visit_id = visit_world
    await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=NOW)
    [item] = (await inbox(patient)).items
    assert (await inbox(nurse)).items == ()
    for command in (mark_read, archive_notification, unarchive_notification):
        with pytest.raises(NotFound):
            await run(command, actor=nurse.actor, notification_id=item.id)
    assert await run(mark_all_read, actor=nurse.actor) == 0
    assert await run(count_unread, actor=patient.actor) == 1

    assert (await run(mark_read, actor=patient.actor, notification_id=item.id)).read
    assert await run(count_unread, actor=patient.actor) == 0
    archived = await run(archive_notification, actor=patient.actor, notification_id=item.id)
    assert archived.archived and (await inbox(patient)).items == ()
    assert [i.id for i in (await inbox(patient, "archived")).items] == [item.id]
    await run(unarchive_notification, actor=patient.actor, notification_id=item.id)
    assert [i.id for i in (await inbox(patient)).items] == [item.id]
    with pytest.raises(ValidationFailed):
        await inbox(patient, "everything")


async def test_pages_hold_at_most_fifty_newest_first(identity) -> None:
    someone = await person()
    messages = [Message(someone.id, f"Note {n}", "", "/dashboard") for n in range(55)]
    for n, message in enumerate(messages):
        await run(
            notify_each,
            kind=NotificationKind.payout_status,
            messages=[message],
            now=NOW + timedelta(minutes=n),
        )
    first = await run(list_notifications, actor=someone.actor, tab="unread", page_size=500)
    assert len(first.items) == 50 and first.has_more and first.items[0].title == "Note 54"
    second = await run(list_notifications, actor=someone.actor, tab="unread", page=2, page_size=50)
    assert [i.title for i in second.items] == [f"Note {n}" for n in range(4, -1, -1)] and not second.has_more
    assert await run(mark_all_read, actor=someone.actor) == 55
    assert await run(count_unread, actor=someone.actor) == 0


async def test_email_off_stops_the_email_but_not_the_inbox_item(visit_world, smtp) -> None:
    patient, nurse, visit_id = visit_world
    await run(
        update_notification_preferences, actor=patient.actor, changes=prefs(visits=(True, False, False))
    )
    await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=NOW)
    assert [i.kind for i in (await inbox(patient, "unread")).items] == [NotificationKind.visit_confirmed]
    # A cancellation is critical: it is e-mailed whatever the visit settings say.
    await run(
        cancel_appointment, actor=nurse.actor, appointment_id=visit_id, reason="Car broke down", now=NOW
    )
    assert [m["Subject"] for m in smtp.wait_for(1)] == ["A visit was cancelled"]


async def test_muted_categories_leave_the_badge_and_the_inbox_and_come_back(visit_world) -> None:
    patient, nurse, visit_id = visit_world
    await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=NOW)
    await run(
        update_notification_preferences, actor=patient.actor, changes=prefs(visits=(False, True, False))
    )
    assert await run(count_unread, actor=patient.actor) == 0
    assert (await inbox(patient)).items == ()
    await run(update_notification_preferences, actor=patient.actor, changes=prefs(visits=(True, True, False)))
    assert await run(count_unread, actor=patient.actor) == 1


async def test_critical_categories_cannot_be_turned_off(identity) -> None:
    someone = await person()
    for changes, code in (
        (prefs(security=(True, False, False)), "critical_notification"),
        (prefs(cancellations=(False, True, False)), "critical_notification"),
        (prefs(reminders=(True, True, True)), "digest_not_offered"),
    ):
        with pytest.raises(ValidationFailed) as refused:
            await run(update_notification_preferences, actor=someone.actor, changes=changes)
        assert refused.value.code == code
    rows = {r.category: r for r in await run(get_notification_preferences, actor=someone.actor)}
    assert rows[NotificationCategory.security].critical and rows[NotificationCategory.security].locked_reason
    assert rows[NotificationCategory.security].email and rows[NotificationCategory.security].in_app
    assert (
        NotificationCategory.staff_work not in rows and NotificationCategory.payouts not in rows
    )  # a patient


async def test_the_daily_digest_gathers_what_waited_once(visit_world, smtp) -> None:
    patient, nurse, visit_id = visit_world
    await run(update_notification_preferences, actor=patient.actor, changes=prefs(visits=(True, True, True)))
    confirmed_at = datetime(2030, 1, 7, 15, tzinfo=UTC)  # 10:00 in New York, after that day's 8:00 digest
    await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=confirmed_at)
    async with app_db.unit_of_work() as session:
        # A second pending item, already read in the app: the digest leaves it out.
        await notify_each(
            session=session,
            kind=NotificationKind.visit_changed,
            messages=[Message(patient.id, "Seen already", "", "/dashboard")],
            now=confirmed_at,
        )
    seen = next(i for i in (await inbox(patient)).items if i.title == "Seen already")
    await run(mark_read, actor=patient.actor, notification_id=seen.id)
    assert await run(send_daily_digests, now=confirmed_at + timedelta(hours=6)) == 0  # not 8:00 yet
    next_morning = datetime(2030, 1, 8, 13, 30, tzinfo=UTC)  # 8:30 in New York
    assert await run(send_daily_digests, now=next_morning) == 1
    assert await run(send_daily_digests, now=next_morning + timedelta(days=1)) == 0
    [message] = smtp.wait_for(1)
    assert message["Subject"] == "Your daily summary" and message["To"] == patient.email
    body = html_part(message)
    assert "was confirmed" in body and "Seen already" not in body and "blood" not in body


async def test_review_requests_follow_a_completed_visit(visit_world) -> None:
    patient, nurse, visit_id = visit_world
    await run(confirm_appointment, actor=nurse.actor, appointment_id=visit_id, now=NOW)
    started = START - timedelta(minutes=30)
    await run(start_appointment, actor=nurse.actor, appointment_id=visit_id, now=started)
    await run(
        complete_appointment, actor=nurse.actor, appointment_id=visit_id, now=START + timedelta(hours=1)
    )
    kinds = [i.kind for i in (await inbox(patient)).items]
    assert kinds == [NotificationKind.review_request, NotificationKind.visit_confirmed]
    review = (await inbox(patient)).items[0]
    assert review.link == f"/dashboard/appointments?tab=past&visit={visit_id}"


async def test_help_desk_replies_assignments_and_staff_changes_notify(identity, smtp) -> None:
    customer = await person(Role.patient, "Jordan Lee")
    agent = await person(Role.support, "Sam Rivera")
    owner = await person(Role.owner, "Olivia Bennett")
    ticket = await factories.new_ticket(customer)
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="Internal only", internal=True)
    assert (await inbox(customer)).items == ()
    await run(reply_to_ticket, actor=agent.actor, ticket_id=ticket.id, content="We refunded it.")
    [reply] = (await inbox(customer)).items
    assert reply.title == f"Support replied to your request #{ticket.number}"
    assert "refunded" not in reply.title + reply.body
    assert reply.link == f"/dashboard/support?ticket={ticket.id}"

    await run(assign_ticket, actor=owner.actor, ticket_id=ticket.id, assignee_id=agent.id)
    await run(update_staff, actor=owner.actor, user_id=agent.id, role="management")
    titles = [i.title for i in (await inbox(agent)).items]
    assert titles == ["Your staff access was updated", f"Ticket #{ticket.number} was assigned to you"]
    subjects = sorted(m["Subject"] for m in smtp.wait_for(3))
    assert subjects == sorted([reply.title, *titles])


async def test_security_notices_new_device_sign_in_only(identity, smtp) -> None:
    undo = install_security_notices()
    try:
        someone = await person()  # its first sign-in: nothing to report
        async with app_db.unit_of_work() as session:
            user = present(await load_user_row(session, someone.id))
            await start_session(
                session=session, user=user, method="password", origin=RequestOrigin(ip="127.0.0.1")
            )
        assert (await inbox(someone)).items == ()  # the same device again
        async with app_db.unit_of_work() as session:
            user = present(await load_user_row(session, someone.id))
            await start_session(
                session=session,
                user=user,
                method="password",
                origin=RequestOrigin(ip="203.0.113.9", user_agent="Firefox"),
            )
        [notice] = (await inbox(someone)).items
        assert notice.kind == NotificationKind.new_sign_in and notice.link == "/dashboard/settings"
        assert smtp.wait_for(1)[0]["Subject"] == "New sign-in to your account"
    finally:
        undo()
