"""The demo marketplace (`seed --demo`): enough verified providers in three metro areas to search by ZIP code,
ratings from reviews of real completed visits, featured providers, the demo patient's past and upcoming
visits (several with the demo provider), help-desk tickets; seeding twice adds nothing; never in
production; fast enough for the browser tests that seed it.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from app import db as app_db
from app.principal import Principal
from app.services.accounts import demo_email
from app.services.careers import list_open_postings
from app.services.demo.internal import seed_demo_marketplace
from app.services.errors import PermissionDenied
from app.services.notifications import list_notifications
from app.services.providers import FEATURED_MIN_REVIEWS, list_featured, search_providers
from app.settings import get_settings
from medivisit.seed import seed
from models import Base
from models.account import Role
from models.booking import Appointment, AppointmentStatus, Order, OrderStatus, Transaction, TransactionStatus
from models.careers import CareerApplication
from models.identity import User, as_utc
from models.ledger import AccountKind, LedgerAccount, Posting, VisitCharge
from models.provider import Provider, ProviderQuery, Review
from models.staff import Permission, StaffMember
from models.store import Product, ProductCategory
from models.support import Ticket
from tests import factories

TABLES = (
    "providers",
    "appointments",
    "orders",
    "transactions",
    "provider_reviews",
    "tickets",
    "auth_users",
    "staff_members",
    "products",
)


async def _counts() -> dict[str, int]:
    async with app_db.unit_of_work() as session:
        return {
            name: await session.scalar(select(func.count()).select_from(Base.metadata.tables[name]))
            for name in TABLES
        }


_seeded: dict[str, tuple[str, float]] = {}  # database kind -> (a database seeded here, seconds it took)


@pytest.fixture
async def demo(identity, template_database) -> AsyncIterator[float]:
    """A database of this test's own holding the demo data; the seconds seeding took. The first test of each
    database kind (SQLite, PostgreSQL) seeds its database with `seed(demo=True)` and keeps a copy; the
    others get a copy of that copy instead of seeding again (several seconds each)."""
    kind = template_database.kind
    if kind not in _seeded:
        started = time.perf_counter()
        await seed(demo=True)
        took = time.perf_counter() - started
        await app_db.get_database().dispose()  # nobody connected to the source of a PostgreSQL copy
        _seeded[kind] = (await asyncio.to_thread(template_database.copy_of, os.environ["DATABASE_URL"]), took)
        yield took
        return
    seeded_url, took = _seeded[kind]
    url = await asyncio.to_thread(template_database.copy_of, seeded_url)
    await app_db.get_database().dispose()
    os.environ["DATABASE_URL"] = url  # `configured` puts the environment back after the test
    get_settings.cache_clear()
    database = app_db.use_database(url)
    yield took
    await database.dispose()
    template_database.release(url)


async def test_seeding_twice_adds_nothing(demo) -> None:
    before = await _counts()
    started = time.perf_counter()
    report = await seed(demo=True)
    assert time.perf_counter() - started < 2
    assert await _counts() == before
    assert report.count("already present") == 4  # the marketplace, the tickets, the store, the jobs
    assert "staff members already exist" in report


async def test_the_demo_has_its_four_staff_members_once_and_no_one_else_on_staff(demo) -> None:
    async with app_db.unit_of_work() as session:
        for role in (Role.owner, Role.management, Role.hr, Role.support):
            user = await session.scalar(select(User).where(User.email == demo_email(role)))
            rows = (await session.scalars(select(StaffMember).where(StaffMember.user_id == user.id))).all()
            assert len(rows) == 1 and rows[0].active
            # Two people may approve a large payout: the owner (all permissions) and the manager.
            expected = [Permission.process_payments.value] if role is Role.management else []
            assert rows[0].extra_permissions == expected
        for role in (Role.patient, Role.provider, Role.admin):
            user = await session.scalar(select(User).where(User.email == demo_email(role)))
            assert await session.scalar(select(StaffMember).where(StaffMember.user_id == user.id)) is None


async def test_the_demo_has_open_jobs_and_a_draft_and_no_invented_applicants(demo) -> None:
    visitor = Principal.visitor("demo-visitor")
    opened = await factories.run(list_open_postings, actor=visitor)
    assert [p.title for p in opened][:1] == ["Credentialing Coordinator"] and len(opened) == 3
    assert any(p.remote for p in opened)
    async with app_db.unit_of_work() as session:
        assert await session.scalar(select(func.count()).select_from(CareerApplication)) == 0


async def test_the_demo_store_has_a_small_catalogue_in_several_categories(demo) -> None:
    async with app_db.unit_of_work() as session:
        products = (await session.scalars(select(Product))).all()
    assert len(products) == len({p.name for p in products}) >= 10
    assert len({p.category for p in products}) >= 6
    assert {p.category for p in products} <= {c.value for c in ProductCategory}
    assert any(p.stock == 0 for p in products) and any(0 < p.stock <= 5 for p in products)
    assert all(p.active and p.price_cents > 0 and p.description for p in products)


async def test_verified_providers_in_three_metros_found_by_zip(demo) -> None:
    async with app_db.unit_of_work() as session:
        zones = dict(
            (
                await session.execute(
                    select(Provider.time_zone, func.count())
                    .where(Provider.is_verified.is_(True), Provider.is_active.is_(True))
                    .group_by(Provider.time_zone)
                )
            ).all()
        )
        found = {
            zip_code: await search_providers(session=session, query=ProviderQuery(zip_code=zip_code))
            for zip_code in ("60614", "90026", "10011")  # Lincoln Park, Echo Park, Chelsea
        }
    assert sum(zones.values()) >= 60
    for zone in ("America/New_York", "America/Chicago", "America/Los_Angeles"):
        assert zones.get(zone, 0) >= 20, zones
    for zip_code, page in found.items():
        assert page.total >= 2, zip_code


async def test_ratings_come_from_reviews_of_completed_visits(demo) -> None:
    async with app_db.unit_of_work() as session:
        unlinked = await session.scalar(
            select(func.count())
            .select_from(Review)
            .join(Appointment, Appointment.id == Review.appointment_id, isouter=True)
            .where(
                Review.author_id.is_not(None),
                Appointment.status.is_distinct_from(AppointmentStatus.completed),
            )
        )
        counted = dict(
            (
                await session.execute(
                    select(Review.provider_id, func.count())
                    .where(Review.visit_completed.is_(True))
                    .group_by(Review.provider_id)
                )
            ).all()
        )
        cached = dict(
            (
                await session.execute(
                    select(Provider.id, Provider.review_count).where(Provider.review_count > 0)
                )
            ).all()
        )
        featured = await list_featured(session=session)
    assert unlinked == 0
    assert all(counted.get(pid) == count for pid, count in cached.items())
    assert len(featured) >= 6 and all(f.rating.count >= FEATURED_MIN_REVIEWS for f in featured)


async def test_the_demo_patient_and_provider_have_history_and_schedule(demo) -> None:
    now = datetime.now(UTC)
    async with app_db.unit_of_work() as session:
        patient = await session.scalar(select(User.id).where(User.email == demo_email(Role.patient)))
        provider_user = await session.scalar(select(User.id).where(User.email == demo_email(Role.provider)))
        priya = await session.scalar(select(Provider.id).where(Provider.user_id == provider_user))
        visits = (await session.scalars(select(Appointment).where(Appointment.patient_id == patient))).all()
        orders = {o.id: o for o in (await session.scalars(select(Order).where(Order.patient_id == patient)))}
        money = (await session.scalars(select(Transaction).where(Transaction.user_id == patient))).all()
        reviewed = set(
            (await session.scalars(select(Review.appointment_id).where(Review.author_id == patient))).all()
        )
        schedule = await session.scalar(
            select(func.count())
            .select_from(Appointment)
            .where(
                Appointment.provider_id == priya,
                Appointment.status.in_((AppointmentStatus.pending, AppointmentStatus.confirmed)),
                Appointment.starts_at > now,
            )
        )
        tickets = (await session.scalars(select(Ticket).where(Ticket.user_id == patient))).all()
    by_status: dict[AppointmentStatus, list[Appointment]] = {}
    for visit in visits:
        by_status.setdefault(visit.status, []).append(visit)
    past = by_status[AppointmentStatus.completed] + by_status[AppointmentStatus.cancelled]
    upcoming = by_status[AppointmentStatus.pending] + by_status[AppointmentStatus.confirmed]
    assert len(by_status[AppointmentStatus.cancelled]) >= 1
    assert all(as_utc(v.ends_at) < now for v in past) and all(as_utc(v.starts_at) > now for v in upcoming)
    assert {v.id for v in by_status[AppointmentStatus.completed]} > reviewed and reviewed
    assert sum(v.provider_id == priya for v in upcoming) >= 2 and schedule >= 4
    # Orders and transactions as checkout, a card payment and the visit lifecycle write them: a booking and
    # a fee transaction per order, paid at booking, and a refund of each cancelled visit.
    for visit in visits:
        order = orders[visit.order_id]
        assert order.subtotal == visit.price and order.total == order.subtotal + order.platform_fee
        expected = {
            AppointmentStatus.completed: OrderStatus.paid,
            AppointmentStatus.cancelled: OrderStatus.cancelled,
        }.get(visit.status, OrderStatus.pending)
        assert order.status == expected
    assert len(money) == 2 * len(visits) + len(by_status[AppointmentStatus.cancelled])
    assert all(t.status is TransactionStatus.completed for t in money)
    assert {o.payment_method for o in orders.values()} == {"stripe"}
    assert len(tickets) >= 3 and any(t.first_responded_at for t in tickets)


async def test_never_in_production(identity, monkeypatch) -> None:
    monkeypatch.setenv("APP_ENV", "production")
    get_settings.cache_clear()
    with pytest.raises(PermissionDenied, match="production"):
        await seed(demo=True)
    with pytest.raises(PermissionDenied, match="production"):
        async with app_db.unit_of_work() as session:
            await seed_demo_marketplace(session=session)


async def test_the_demo_patient_and_provider_have_a_notification_history(demo) -> None:
    async with app_db.unit_of_work() as session:
        patient = await session.scalar(select(User.id).where(User.email == demo_email(Role.patient)))
        provider_user = await session.scalar(select(User.id).where(User.email == demo_email(Role.provider)))
    for someone in (patient, provider_user):
        actor = await factories.sign_in(someone)
        async with app_db.unit_of_work() as session:
            inbox = await list_notifications(session=session, actor=actor, tab="all")
            assert len(inbox.items) == 8
            assert inbox.unread == 3
            assert all(as_utc(item.created_at) <= datetime.now(UTC) for item in inbox.items)
            # Worded like live ones: dates only, and each opens its visit.
            assert all(item.link.startswith("/dashboard/appointments?") for item in inbox.items)


async def test_the_demo_patient_and_provider_have_their_money_in_the_ledger(demo) -> None:
    async with app_db.unit_of_work() as session:
        provider_user = await session.scalar(select(User.id).where(User.email == demo_email(Role.provider)))
        priya = await session.scalar(select(Provider.id).where(Provider.user_id == provider_user))
        total = await session.scalar(select(func.coalesce(func.sum(Posting.amount), 0)))
        balances = dict(
            (
                await session.execute(
                    select(LedgerAccount.kind, LedgerAccount.balance).where(LedgerAccount.owner_id == priya)
                )
            ).all()
        )
        released = await session.scalar(
            select(func.coalesce(func.sum(VisitCharge.price), 0)).where(
                VisitCharge.provider_id == priya, VisitCharge.released_at.is_not(None)
            )
        )
    assert total == 0  # every entry balanced
    assert balances[AccountKind.provider_available] == released > 0  # her visits past the dispute window
