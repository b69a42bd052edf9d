"""Checkout (`app.services.booking`): holding a time, placing the order, what it writes (appointments,
totals, transactions), the cart afterwards, the e-mails on the real SMTP inbox, and every refusal: expired or
foreign holds, places and ZIP codes a provider does not serve, times that are not open, signed-out actors.

Every test has a database of its own; providers serve ZIP 10001 unless a test needs another place, and `now`
is pinned to a Monday morning in 2030 (New York: 05:00), so 9:00 in New York is 14:00 UTC.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, func, select

from app import db as app_db
from app.principal import SYSTEM, Principal
from app.services.appointments._lifecycle import cancel_appointment, confirm_appointment
from app.services.appointments._reads import appointment_reads
from app.services.booking import (
    EXPIRED,
    HOLD_MINUTES,
    NOT_HELD,
    NOT_OPEN,
    SAME_TIME,
    TAKEN,
    CheckoutLine,
    checkout_open_days,
    checkout_options,
    get_order,
    get_order_by_number,
    hold_slot,
    list_my_holds,
    place_order,
    release_hold,
)
from app.services.cart import CartOwner, add_to_cart
from app.services.cart.internal import get_cart
from app.services.errors import NotFound, PermissionDenied, ServiceError, ValidationFailed
from app.services.providers import Hours, add_time_off
from app.services.providers.internal import list_slots
from app.settings import get_settings
from models.account import Role
from models.booking import (
    Appointment,
    AppointmentStatus,
    Order,
    Transaction,
    TransactionStatus,
    TransactionType,
)
from models.catalog import ServiceLocation
from tests.conftest import html_part
from tests.factories import NY, ZIP, person, provider, run

NOW = datetime(2030, 1, 7, 10, 0, tzinfo=UTC)  # Monday 05:00 in New York
MONDAY = date(2030, 1, 7)
NINE = datetime(2030, 1, 7, 14, 0, tzinfo=UTC)  # Monday 9:00 in New York
HOME, OFFICE, CLINIC, VIRTUAL = (
    ServiceLocation.home,
    ServiceLocation.office,
    ServiceLocation.clinic,
    ServiceLocation.virtual,
)


async def hold(
    actor: Principal,
    service_slug: str,
    provider_id: str | None,
    starts_at: datetime = NINE,
    *,
    zip_code: str = "",
    location: ServiceLocation = HOME,
    replaces: str | None = None,
    now: datetime = NOW,
):  # noqa: ANN201 - AppointmentRead
    async with app_db.unit_of_work() as session:
        return await hold_slot(
            session=session,
            actor=actor,
            service_slug=service_slug,
            provider_id=provider_id,
            starts_at=starts_at,
            zip_code=zip_code,
            location=location,
            replaces=replaces,
            now=now,
        )


def line(held, zip_code: str, **changes: str) -> CheckoutLine:  # noqa: ANN001 - an AppointmentRead
    """A home visit at a full address in `zip_code`."""
    values = {
        "hold_id": held.id,
        "location": HOME,
        "address_line": "12 Main Street",
        "city": "Albany",
        "state": "ny",
        "zip_code": zip_code,
    }
    return CheckoutLine(**(values | changes))


async def place(actor: Principal, *lines: CheckoutLine, now: datetime = NOW):  # noqa: ANN201 - OrderRead
    async with app_db.unit_of_work() as session:
        return await place_order(session=session, actor=actor, lines=lines, now=now)


async def add(actor: Principal, service_slug: str, provider_id: str | None = None) -> str:
    """Put a service in the patient's cart; returns the item's id."""
    async with app_db.unit_of_work() as session:
        change = await add_to_cart(
            session=session,
            owner=CartOwner(user_id=actor.user_id),
            actor=actor,
            service_slug=service_slug,
            provider_id=provider_id,
        )
    return next(item.id for item in change.cart.items if item.service_slug == service_slug)


async def cart_ids(actor: Principal) -> list[str]:
    async with app_db.unit_of_work() as session:
        cart = await get_cart(session=session, owner=CartOwner(user_id=actor.user_id))
    return [item.id for item in cart.items]


async def open_times(provider_id: str, slug: str, zip_code: str, now: datetime) -> list[datetime]:
    """The provider's Monday start times as a checkout lists them, checked against `list_slots`."""
    async with app_db.unit_of_work() as session:
        options = await checkout_options(
            session=session,
            service_slug=slug,
            zip_code=zip_code,
            location=HOME,
            day=MONDAY,
            time_zone=NY,
            provider_id=provider_id,
            now=now,
        )
        listed = await list_slots(
            session=session,
            provider_id=provider_id,
            duration_minutes=options.duration_minutes,
            day=MONDAY,
            time_zone=NY,
            now=now,
        )
    assert options.providers[0].times == listed == options.first_available
    return listed


async def written(patient_id: str) -> tuple[int, int]:
    """How many orders and transactions the patient has."""
    async with app_db.unit_of_work() as session:
        orders = await session.scalar(select(func.count()).where(Order.patient_id == patient_id))
        transactions = await session.scalar(select(func.count()).where(Transaction.user_id == patient_id))
    return orders, transactions


async def refused(coroutine, error: type[ServiceError] = ValidationFailed) -> str:  # noqa: ANN001
    with pytest.raises(error) as caught:
        await coroutine
    return caught.value.message


# ---- placing an order ---------------------------------------------------------------------------
async def test_an_order_books_the_held_visits(identity, smtp) -> None:
    actor, patient = await person(name="Jordan Park")
    _, provider_account = await person(Role.provider, "Ana Reyes")
    zip_code = ZIP
    ana = await provider(
        "Ana Reyes",
        zip_codes=[zip_code],
        offers={"iv-hydration": ("150", (HOME, OFFICE))},
        owner=provider_account,
    )
    ben = await provider(
        "Ben Cole", zip_codes=["10002"], offers={"medication-management": ("95.10", (HOME, VIRTUAL))}
    )
    iv_item = await add(actor, "iv-hydration", ana)
    meds_item = await add(actor, "medication-management", ben)
    other_item = await add(actor, "routine-blood-draw")

    iv = await hold(actor, "iv-hydration", ana, zip_code=zip_code)
    meds = await hold(actor, "medication-management", ben, NINE + timedelta(hours=2), location=VIRTUAL)
    assert iv.status == AppointmentStatus.held and iv.hold_expires_at == NOW + timedelta(minutes=HOLD_MINUTES)
    assert (iv.price, iv.original_price) == (Decimal("105.00"), Decimal("150.00"))  # the IV flash sale

    order = await place(
        actor,
        line(iv, zip_code, cart_item_id=iv_item, notes="  Gate code 1234; the dog is friendly.  "),
        CheckoutLine(hold_id=meds.id, cart_item_id=meds_item, location=VIRTUAL, zip_code="99999"),
    )

    assert re.fullmatch(r"MV-[2-9A-HJ-NP-Z]{6}", order.number)
    assert order.status == "pending" and order.payment_method == "pay_at_visit"
    # 105.00 + 95.10 = 200.10; 5 % is 10.005, rounded half-up to 10.01
    assert (order.subtotal, order.platform_fee, order.total) == (
        Decimal("200.10"),
        Decimal("10.01"),
        Decimal("210.11"),
    )
    booked_iv, booked_meds = order.appointments
    assert {booked_iv.status, booked_meds.status} == {AppointmentStatus.pending}
    assert booked_iv.order_number == booked_meds.order_number == order.number
    assert booked_iv.hold_expires_at is None and booked_iv.starts_at == NINE
    assert (booked_iv.address_line, booked_iv.city, booked_iv.state, booked_iv.zip_code) == (
        "12 Main Street",
        "Albany",
        "NY",
        zip_code,
    )
    assert booked_iv.notes == "Gate code 1234; the dog is friendly."
    assert (booked_meds.location, booked_meds.zip_code, booked_meds.address_line) == (VIRTUAL, "", "")
    assert [(t.type, t.status, t.amount, t.appointment_id) for t in order.transactions] == [
        (TransactionType.booking, TransactionStatus.pending, Decimal("105.00"), booked_iv.id),
        (TransactionType.booking, TransactionStatus.pending, Decimal("95.10"), booked_meds.id),
        (TransactionType.fee, TransactionStatus.pending, Decimal("10.01"), None),
    ]
    async with app_db.unit_of_work() as session:
        rows = (await session.scalars(select(Transaction).where(Transaction.order_id == order.id))).all()
        assert {(row.gateway, row.gateway_reference) for row in rows} == {("pay_at_visit", order.number)}
        again = await get_order(session=session, actor=actor, order_id=order.id)
    assert again == order

    assert await cart_ids(actor) == [other_item]

    # Delivered before place_order returned: the patient's confirmation and Ana's request (Ben has no account).
    assert sorted(to for _sender, (to,) in smtp.envelopes) == sorted([patient.email, provider_account.email])
    confirmation = next(m for m in smtp.messages if m["To"] == patient.email)
    # Both visits await their providers: the e-mail says they are requested, not booked.
    assert confirmation["Subject"] == f"Booking request {order.number}"
    body = html_part(confirmation)
    assert "Your visits are requested" in body and "booked" not in body.split("Status:")[0]
    for text in (
        "Hydration IV (1 liter)",
        "Mon, Jan 7, 2030 at 9:00 AM EST",
        "Home: 12 Main Street, Albany, NY " + zip_code,
        "Medication management and teaching",
        "Mon, Jan 7, 2030 at 11:00 AM EST",
        "Virtual",
        "$210.11",
        "Pay at visit",
    ):
        assert text in body, text
    request = next(m for m in smtp.messages if m["To"] == provider_account.email)
    assert request["Subject"] == "New visit request"
    request_body = html_part(request)
    assert "Jordan Park" in request_body and "Hydration IV (1 liter)" in request_body
    assert "Mon, Jan 7, 2030 at 9:00 AM EST" in request_body and "Medication" not in request_body


async def test_an_expired_hold_is_refused_and_nothing_is_written(identity, smtp) -> None:
    actor, patient = await person(name="Lee Expired")
    zip_code = ZIP
    ana = await provider("Ana Late", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    item = await add(actor, "iv-hydration", ana)
    held = await hold(actor, "iv-hydration", ana, zip_code=zip_code)

    message = await refused(
        place(actor, line(held, zip_code, cart_item_id=item), now=NOW + timedelta(minutes=HOLD_MINUTES))
    )
    assert message == EXPIRED.format(service="Hydration IV (1 liter)")
    assert await written(patient.id) == (0, 0)
    assert await cart_ids(actor) == [item]
    assert smtp.messages == []


async def test_another_patients_hold_is_refused(identity) -> None:
    owner, _ = await person(name="Ola Owner")
    thief, thief_account = await person(name="Tom Other")
    zip_code = ZIP
    ana = await provider("Ana Mine", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    held = await hold(owner, "iv-hydration", ana, zip_code=zip_code)

    message = await refused(place(thief, line(held, zip_code)))
    assert message == NOT_HELD.format(service="Hydration IV (1 liter)")
    assert await written(thief_account.id) == (0, 0)
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await release_hold(session=session, actor=thief, hold_id=held.id)
    order = await place(owner, line(held, zip_code))  # still the owner's to book
    assert order.appointments[0].id == held.id


async def test_a_zip_code_the_provider_does_not_serve_is_refused_before_anything_is_written(identity) -> None:
    actor, patient = await person(name="Zed Far")
    zip_code, elsewhere = ZIP, "10002"
    ana = await provider("Ana Near", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME, CLINIC))})

    message = await refused(hold(actor, "iv-hydration", ana, zip_code=elsewhere))
    assert f"ZIP code {elsewhere}" in message
    held = await hold(actor, "iv-hydration", ana, zip_code=zip_code)
    for location in (HOME, CLINIC):
        message = await refused(place(actor, line(held, elsewhere, location=location)))
        assert message.startswith(f"Ana Near doesn't travel to ZIP code {elsewhere}.")
        assert await written(patient.id) == (0, 0)
    order = await place(actor, line(held, zip_code))
    assert order.appointments[0].zip_code == zip_code


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"address_line": "  "}, "Enter the street address for Routine blood draw (up to 200 characters)."),
        ({"city": ""}, "Enter the city for Routine blood draw (up to 100 characters)."),
        ({"state": "New York"}, "Enter the 2-letter state for Routine blood draw, such as NY."),
        ({"zip_code": "1234"}, "Enter a 5-digit ZIP code for Routine blood draw."),
        ({"notes": "x" * 2001}, "Intake notes for Routine blood draw can be at most 2000 characters."),
        (
            {"location": "virtual"},
            "Bea Draw doesn't offer Routine blood draw for this place of visit (Virtual).",
        ),
    ],
)
async def test_address_rules_of_a_visit(identity, changes, expected) -> None:
    actor, patient = await person(name="Ada Address")
    zip_code = ZIP
    bea = await provider(
        "Bea Draw", zip_codes=[zip_code], offers={"routine-blood-draw": ("79", (HOME, OFFICE, CLINIC))}
    )
    held = await hold(actor, "routine-blood-draw", bea, zip_code=zip_code)
    assert await refused(place(actor, line(held, **({"zip_code": zip_code} | changes)))) == expected
    assert await written(patient.id) == (0, 0)


async def test_a_clinic_visit_needs_only_the_providers_area(identity) -> None:
    actor, _ = await person(name="Cal Clinic")
    zip_code = ZIP
    bea = await provider(
        "Bea Clinic", zip_codes=[zip_code], offers={"routine-blood-draw": ("79", (HOME, CLINIC))}
    )
    held = await hold(actor, "routine-blood-draw", bea, zip_code=zip_code, location=CLINIC)
    order = await place(
        actor, CheckoutLine(hold_id=held.id, location=CLINIC, zip_code=zip_code, address_line="ignored")
    )
    visit = order.appointments[0]
    assert (visit.location, visit.zip_code, visit.address_line, visit.city) == (CLINIC, zip_code, "", "")
    assert (order.subtotal, order.platform_fee, order.total) == (
        Decimal("79.00"),
        Decimal("3.95"),
        Decimal("82.95"),
    )


async def test_a_place_of_visit_not_offered_is_refused(identity) -> None:
    actor, _ = await person(name="Pia Place")
    zip_code = ZIP
    ana = await provider("Ana Homeonly", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    assert (
        await refused(hold(actor, "iv-hydration", ana, location=VIRTUAL))
        == "Hydration IV (1 liter) isn't offered for this place of visit (Virtual)."
    )
    assert await refused(hold(actor, "iv-hydration", ana, zip_code=zip_code, location=OFFICE)) == (
        f"This provider doesn't offer Hydration IV (1 liter) for Office visits in ZIP code {zip_code}."
    )
    assert await refused(hold(actor, "iv-hydration", None, zip_code=zip_code, location=OFFICE)) == (
        f"No provider offers Hydration IV (1 liter) for Office visits in ZIP code {zip_code}."
    )
    assert await refused(hold(actor, "no-such-service", ana, zip_code=zip_code), NotFound)


async def test_only_open_times_can_be_held(identity) -> None:
    actor, _ = await person(name="Otto Open")
    other, _ = await person(name="Olga Other")
    zip_code = ZIP
    ana = await provider("Ana Busy", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    async with app_db.unit_of_work() as session:
        await add_time_off(
            session=session,
            actor=SYSTEM,
            provider_id=ana,
            starts_at=NINE + timedelta(hours=5),
            ends_at=NINE + timedelta(hours=6),
        )
    await hold(other, "iv-hydration", ana, NINE, zip_code=zip_code)  # 9:00–10:00, then 30 min travel

    for starts_at, expected in [
        (NINE + timedelta(minutes=10), NOT_OPEN),  # not on the half-hour grid
        (datetime(2030, 1, 12, 14, 0, tzinfo=UTC), NOT_OPEN),  # a Saturday
        (NOW + timedelta(hours=1), NOT_OPEN),  # inside the 2-hour notice
        (NINE + timedelta(days=35), NOT_OPEN),  # beyond the 30-day horizon
        (NINE + timedelta(hours=8), NOT_OPEN),  # 17:00: after hours
        (NINE + timedelta(hours=5), NOT_OPEN),  # time off
        (NINE + timedelta(hours=1), TAKEN),  # inside the other visit's travel buffer
        (NINE.replace(tzinfo=None) + timedelta(hours=3), NOT_OPEN),  # no time zone
    ]:
        assert await refused(hold(actor, "iv-hydration", ana, starts_at, zip_code=zip_code)) == expected, (
            starts_at
        )
    held = await hold(actor, "iv-hydration", ana, NINE + timedelta(minutes=90), zip_code=zip_code)
    assert held.starts_at == NINE + timedelta(minutes=90)


async def test_first_available_picks_the_best_rated_free_provider(identity) -> None:
    first, _ = await person(name="Fay First")
    second, _ = await person(name="Sid Second")
    third, _ = await person(name="Tia Third")
    zip_code = ZIP
    offer = {"routine-blood-draw": ("80", (HOME,))}
    best = await provider("Ava Best", zip_codes=[zip_code], offers=offer, ratings=(5, 5))
    good = await provider(
        "Gus Good", zip_codes=[zip_code], offers={"routine-blood-draw": ("70", (HOME,))}, ratings=(4,)
    )
    await provider("Nia Elsewhere", zip_codes=["10002"], offers=offer, ratings=(5, 5, 5))

    picked = await hold(first, "routine-blood-draw", None, zip_code=zip_code)
    assert (picked.provider_id, picked.price) == (best, Decimal("80.00"))
    picked = await hold(second, "routine-blood-draw", None, zip_code=zip_code)
    assert (picked.provider_id, picked.price) == (good, Decimal("70.00"))
    assert await refused(hold(third, "routine-blood-draw", None, zip_code=zip_code)) == TAKEN


async def test_a_held_time_leaves_the_slot_lists_until_it_expires_or_is_released(identity) -> None:
    first, _ = await person(name="Hal Holder")
    second, _ = await person(name="Rae Later")
    zip_code = ZIP
    ana = await provider("Ana Slots", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    assert NINE in await open_times(ana, "iv-hydration", zip_code, NOW)

    await hold(first, "iv-hydration", ana, zip_code=zip_code)
    assert NINE not in await open_times(ana, "iv-hydration", zip_code, NOW + timedelta(minutes=1))
    assert await refused(
        hold(second, "iv-hydration", ana, zip_code=zip_code, now=NOW + timedelta(minutes=1))
    ) == (TAKEN)

    expired = NOW + timedelta(minutes=HOLD_MINUTES)
    assert NINE in await open_times(ana, "iv-hydration", zip_code, expired)
    # The expired hold's row is cleared first, so the database's no-overlap rule lets the new one in.
    taken = await hold(second, "iv-hydration", ana, zip_code=zip_code, now=expired)
    assert NINE not in await open_times(ana, "iv-hydration", zip_code, expired)

    async with app_db.unit_of_work() as session:
        await release_hold(session=session, actor=second, hold_id=taken.id)
    assert NINE in await open_times(ana, "iv-hydration", zip_code, expired)
    with pytest.raises(NotFound):
        async with app_db.unit_of_work() as session:
            await release_hold(session=session, actor=second, hold_id=taken.id)


async def test_a_hold_is_undone_with_its_unit_of_work(identity) -> None:
    """The savepoint around the insert is nested in the unit of work: a later failure undoes the hold."""
    actor, _ = await person(name="Una Undone")
    zip_code = ZIP
    ana = await provider("Ana Undo", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    with pytest.raises(RuntimeError):
        async with app_db.unit_of_work() as session:
            await hold_slot(
                session=session,
                actor=actor,
                service_slug="iv-hydration",
                provider_id=ana,
                starts_at=NINE,
                zip_code=zip_code,
                location=HOME,
                now=NOW,
            )
            raise RuntimeError("a later step failed")
    assert NINE in await open_times(ana, "iv-hydration", zip_code, NOW)


async def test_a_new_hold_replaces_the_earlier_one_of_the_same_line(identity) -> None:
    actor, _ = await person(name="Rex Replace")
    zip_code = ZIP
    ana = await provider("Ana Swap", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    earlier = await hold(actor, "iv-hydration", ana, zip_code=zip_code)
    later = NINE + timedelta(hours=3)
    assert (
        await hold(actor, "iv-hydration", ana, later, zip_code=zip_code, replaces=earlier.id)
    ).starts_at == later
    times = await open_times(ana, "iv-hydration", zip_code, NOW)
    assert NINE in times and later not in times
    assert await refused(place(actor, line(earlier, zip_code))) == (
        "A time you chose is no longer held. Please choose the times again."
    )


async def test_a_patient_lists_their_own_live_holds_only(identity) -> None:
    """What checkout gives back to a patient after a reload (issue 11, flow 2)."""
    actor, _ = await person(name="Lia Listed")
    other, _ = await person(name="Oto Other")
    ana = await provider("Ana Hold", zip_codes=[ZIP], offers={"iv-hydration": ("150", (HOME,))})
    mine = await hold(actor, "iv-hydration", ana, zip_code=ZIP)
    await hold(other, "iv-hydration", ana, NINE + timedelta(hours=2), zip_code=ZIP)

    async def listed(at: datetime) -> list[str]:
        async with app_db.unit_of_work() as session:
            return [h.id for h in await list_my_holds(session=session, actor=actor, now=at)]

    assert await listed(NOW) == [mine.id]
    assert (
        await listed(NOW + timedelta(minutes=HOLD_MINUTES, seconds=1)) == []
    )  # expired: not theirs any more


async def test_a_patient_cannot_hold_two_visits_at_the_same_time(identity) -> None:
    actor, _ = await person(name="Dot Double")
    zip_code = ZIP
    offer = {"iv-hydration": ("150", (HOME,))}
    ana = await provider("Ana One", zip_codes=[zip_code], offers=offer)
    cy = await provider("Cy Two", zip_codes=[zip_code], offers=offer)
    await add(actor, "iv-hydration", ana)
    await add(actor, "iv-hydration", cy)  # two visits in the cart: two times may be held
    await hold(actor, "iv-hydration", ana, zip_code=zip_code)
    assert await refused(
        hold(actor, "iv-hydration", cy, NINE + timedelta(minutes=30), zip_code=zip_code)
    ) == (SAME_TIME)
    assert (
        await hold(actor, "iv-hydration", cy, NINE + timedelta(hours=1), zip_code=zip_code)
    ).provider_id == cy


async def test_a_provider_cannot_book_themselves(identity) -> None:
    actor, account = await person(Role.provider, "Pat Self")
    zip_code = ZIP
    own = await provider(
        "Pat Self", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))}, owner=account
    )
    assert (
        await refused(hold(actor, "iv-hydration", own, zip_code=zip_code))
        == "You can't book a visit with yourself."
    )
    nobody = await refused(hold(actor, "iv-hydration", None, zip_code=zip_code))
    assert nobody == f"No provider offers Hydration IV (1 liter) for Home visits in ZIP code {zip_code}."


async def test_signed_out_or_ended_sessions_are_refused(identity) -> None:
    actor, patient = await person(name="Sam Signedout")
    zip_code = ZIP
    ana = await provider("Ana Guard", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    held = await hold(actor, "iv-hydration", ana, zip_code=zip_code)
    ended = Principal.user(user_id=actor.user_id, session_id=str(uuid.uuid4()))
    for who in (Principal.visitor("visitor-1"), ended):
        await refused(
            hold(who, "iv-hydration", ana, NINE + timedelta(hours=2), zip_code=zip_code), PermissionDenied
        )
        await refused(place(who, line(held, zip_code)), PermissionDenied)
        async with app_db.unit_of_work() as session:
            await refused(release_hold(session=session, actor=who, hold_id=held.id), PermissionDenied)
            await refused(get_order(session=session, actor=who, order_id="x"), PermissionDenied)
    assert await written(patient.id) == (0, 0)


async def test_an_order_is_visible_to_its_patient_and_admins_only(identity) -> None:
    actor, _ = await person(name="Ivy Own")
    other, _ = await person(name="Max Nosy")
    admin, _ = await person(Role.admin, "Ada Admin")
    zip_code = ZIP
    ana = await provider("Ana Private", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    order = await place(actor, line(await hold(actor, "iv-hydration", ana, zip_code=zip_code), zip_code))
    async with app_db.unit_of_work() as session:
        await refused(get_order(session=session, actor=other, order_id=order.id), NotFound)
        assert (await get_order(session=session, actor=admin, order_id=order.id)).number == order.number
        # Its confirmation page's address: the number, for its patient (and admins) only.
        by_number = await get_order_by_number(session=session, actor=actor, number=order.number.lower())
        assert by_number == order
        await refused(get_order_by_number(session=session, actor=other, number=order.number), NotFound)
        assert (await get_order_by_number(session=session, actor=admin, number=order.number)).id == order.id
        await refused(get_order_by_number(session=session, actor=actor, number="MV-NOPE"), NotFound)
    assert await refused(place(actor, line(order.appointments[0], zip_code))) == NOT_HELD.format(
        service="Hydration IV (1 liter)"
    )


# ---- prices -------------------------------------------------------------------------------------
@pytest.fixture
def sale_day(monkeypatch):  # noqa: ANN201
    """Run the IV flash sale on one day only (FLASH_SALE_DAY)."""

    def use(day: date) -> None:
        monkeypatch.setenv("FLASH_SALE_DAY", day.isoformat())
        get_settings.cache_clear()

    yield use
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("sale", "charged"),
    [(date(2030, 1, 7), Decimal("105.00")), (date(2030, 1, 8), Decimal("105.00")), (None, Decimal("150.00"))],
)
async def test_a_held_price_holds_and_a_lower_price_is_passed_on(identity, sale_day, sale, charged) -> None:
    """Held at 23:55 on Monday in New York, booked at 00:01 on Tuesday: a sale ending meanwhile keeps the
    held sale price, a sale starting meanwhile lowers the price."""
    sale_day(sale or date(2029, 1, 1))
    actor, _ = await person(name="Sal Price")
    zip_code = ZIP
    ana = await provider("Ana Sale", zip_codes=[zip_code], offers={"iv-hydration": ("150", (HOME,))})
    held_at = datetime(2030, 1, 8, 4, 55, tzinfo=UTC)
    tuesday_nine = NINE + timedelta(days=1)
    held = await hold(actor, "iv-hydration", ana, tuesday_nine, zip_code=zip_code, now=held_at)
    assert held.price == (Decimal("105.00") if sale == date(2030, 1, 7) else Decimal("150.00"))
    order = await place(actor, line(held, zip_code), now=held_at + timedelta(minutes=6))
    assert (order.appointments[0].price, order.appointments[0].original_price) == (charged, Decimal("150.00"))
    assert order.subtotal == charged


# ---- checkout options ---------------------------------------------------------------------------
def _count_queries():  # noqa: ANN202
    engine = app_db.get_database().engine.sync_engine
    counter = {"n": 0}

    def count(*_args) -> None:  # noqa: ANN002
        counter["n"] += 1

    event.listen(engine, "before_cursor_execute", count)
    return counter, lambda: event.remove(engine, "before_cursor_execute", count)


async def options(zip_code: str, **changes):  # noqa: ANN003, ANN201 - CheckoutOptions
    arguments: dict[str, Any] = {
        "service_slug": "iv-hydration",
        "zip_code": zip_code,
        "location": HOME,
        "day": MONDAY,
        "time_zone": NY,
        "now": NOW,
    } | changes
    async with app_db.unit_of_work() as session:
        return await checkout_options(session=session, **arguments)


async def test_checkout_options_list_each_providers_times_and_the_first_available(identity) -> None:
    zip_code = ZIP
    offer = {"iv-hydration": ("150", (HOME,))}
    morning = await provider(
        "Mo Morning", zip_codes=[zip_code], offers=offer, ratings=(5,), hours=[Hours(0, 540, 720)]
    )
    afternoon = await provider(
        "Al Afternoon",
        zip_codes=[zip_code],
        offers={"iv-hydration": ("120", (HOME,))},
        ratings=(4,),
        hours=[Hours(0, 660, 900)],
    )
    await provider("Va Virtual", zip_codes=[zip_code], offers={"iv-hydration": ("100", (OFFICE,))})

    found = await options(zip_code)
    assert [(p.provider_id, p.name) for p in found.providers] == [
        (morning, "Mo Morning"),
        (afternoon, "Al Afternoon"),
    ]
    mo, al = found.providers
    assert (mo.price.charge, mo.price.original, al.price.charge) == (
        Decimal("105.00"),
        Decimal("150.00"),
        Decimal("84.00"),
    )
    hour = timedelta(hours=1)
    assert mo.times == [
        NINE,
        NINE + hour / 2,
        NINE + hour,
        NINE + 3 * hour / 2,
        NINE + 2 * hour,
    ]  # 9:00–11:00
    assert al.times[0] == NINE + 2 * hour and al.times[-1] == NINE + 5 * hour  # 11:00–14:00
    assert found.first_available == sorted(set(mo.times) | set(al.times))
    assert (found.service_name, found.duration_minutes, found.time_zone) == ("Hydration IV (1 liter)", 60, NY)

    only_al = await options(zip_code, provider_id=afternoon)
    assert [p.provider_id for p in only_al.providers] == [afternoon] and only_al.first_available == al.times
    assert (await options("10099")).providers == []
    assert await refused(options("12")) == "Enter a 5-digit ZIP code."
    assert (await options(zip_code, time_zone="Not/AZone")).time_zone == get_settings().default_time_zone


async def open_days(zip_code: str = ZIP, **changes):  # noqa: ANN003, ANN201 - list[date]
    arguments: dict[str, Any] = {
        "service_slug": "iv-hydration",
        "zip_code": zip_code,
        "location": HOME,
        "days": 14,
        "time_zone": NY,
        "now": NOW,
    } | changes
    async with app_db.unit_of_work() as session:
        return await checkout_open_days(session=session, **arguments)


async def test_checkout_offers_only_the_days_a_provider_has_open_times(identity) -> None:
    """Checkout used to offer a day chip for every day, Saturdays of a Monday-to-Friday provider too."""
    offer = {"iv-hydration": ("150", (HOME,))}
    weekdays = await provider("Wendy Weekday", offers=offer)  # 9 to 5, Monday to Friday
    weekend = await provider("Sal Saturday", offers=offer, hours=[Hours(5, 540, 1020)])
    idle = await provider("Ida Idle", offers=offer, hours=None)
    fortnight = [MONDAY + timedelta(days=n) for n in range(14)]

    assert await open_days(provider_id=weekdays) == [d for d in fortnight if d.weekday() < 5]
    assert await open_days(provider_id=weekend) == [d for d in fortnight if d.weekday() == 5]
    assert await open_days(provider_id=idle) == []
    assert await open_days() == [d for d in fortnight if d.weekday() < 6]  # first available: either
    assert await open_days(days=3, provider_id=weekdays) == fortnight[:3]

    # A day of time off is no longer offered; nor is today once its last time is past the notice.
    async with app_db.unit_of_work() as session:
        tuesday = datetime(2030, 1, 8, 5, 0, tzinfo=UTC)
        await add_time_off(
            session=session,
            actor=SYSTEM,
            provider_id=weekdays,
            starts_at=tuesday,
            ends_at=tuesday + timedelta(days=1),
        )
    late = datetime(2030, 1, 7, 21, 0, tzinfo=UTC)  # Monday 16:00 in New York: 17:00 is within notice
    assert (await open_days(provider_id=weekdays, now=late))[:2] == [date(2030, 1, 9), date(2030, 1, 10)]
    assert await open_days("10099") == []  # nobody travels there


async def test_checkout_options_cost_the_same_queries_for_any_number_of_providers(identity) -> None:
    few, many = "10010", "10020"
    for index in range(2):
        await provider(f"Few {index}", zip_codes=[few], offers={"iv-hydration": ("150", (HOME,))})
    for index in range(12):
        await provider(f"Many {index}", zip_codes=[many], offers={"iv-hydration": ("150", (HOME,))})
    counts = []
    for zip_code in (few, many):
        counter, stop = _count_queries()
        try:
            found = await options(zip_code)
        finally:
            stop()
        assert found.providers and all(p.times for p in found.providers)
        counts.append(counter["n"])
    assert counts[0] == counts[1] <= 6


async def test_a_patient_holds_no_more_times_than_visits_in_the_cart(identity) -> None:
    """One patient used to hold every slot of a provider (36 holds), renewing them for days."""
    actor, _ = await person(name="Hal Hoarder")
    offer = {"iv-hydration": ("150", (HOME,))}
    ana = await provider("Ana Held", zip_codes=[ZIP], offers=offer)
    await add(actor, "iv-hydration", ana)
    first = await hold(actor, "iv-hydration", ana, zip_code=ZIP)
    message = await refused(hold(actor, "iv-hydration", ana, NINE + timedelta(hours=2), zip_code=ZIP))
    assert message.startswith("You're already holding a time for each visit in your cart.")
    assert NINE + timedelta(hours=2) in await open_times(ana, "iv-hydration", ZIP, NOW)
    # Changing the held time (the checkout's "replaces") is always allowed.
    later = NINE + timedelta(hours=3)
    assert (await hold(actor, "iv-hydration", ana, later, zip_code=ZIP, replaces=first.id)).starts_at == later


async def test_the_free_cancellation_grace_counts_from_place_order_not_from_the_hold(identity) -> None:
    """A patient who takes their time in checkout (the times held at NOW, the order placed 9 minutes later)
    still has the whole cancel_grace_minutes (15) after Place order to cancel a visit the provider has
    already confirmed, though it starts within 24 hours."""
    actor, _patient = await person(name="Jordan Park")
    nurse, nurse_account = await person(Role.provider, "Ana Reyes")
    ana = await provider(
        "Ana Reyes", zip_codes=[ZIP], offers={"iv-hydration": ("150", (HOME,))}, owner=nurse_account
    )
    for _visit in range(2):
        await add(actor, "iv-hydration", ana)
    first = await hold(actor, "iv-hydration", ana, zip_code=ZIP)  # Monday 9:00, four hours after NOW
    second = await hold(actor, "iv-hydration", ana, NINE + timedelta(hours=2), zip_code=ZIP)
    async with app_db.unit_of_work() as session:  # the holds were made at NOW on the test's clock
        for held in (first, second):
            (await session.get(Appointment, held.id)).created_at = NOW
    placed_at = NOW + timedelta(minutes=9)
    order = await place(actor, line(first, ZIP), line(second, ZIP), now=placed_at)
    for visit in order.appointments:
        await run(confirm_appointment, actor=nurse, appointment_id=visit.id, now=placed_at)

    inside = placed_at + timedelta(minutes=7)  # 16 minutes after the hold, 7 after Place order
    async with app_db.unit_of_work() as session:
        rows = [await session.get(Appointment, held.id) for held in (first, second)]
        assert [r.change_refusal for r in await appointment_reads(session, rows, now=inside)] == [None, None]
    cancelled = await run(cancel_appointment, actor=actor, appointment_id=first.id, now=inside)
    assert cancelled.status == AppointmentStatus.cancelled
    with pytest.raises(ValidationFailed, match="up to 24 hours"):
        await run(
            cancel_appointment, actor=actor, appointment_id=second.id, now=placed_at + timedelta(minutes=16)
        )
