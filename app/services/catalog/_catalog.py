"""The service catalog: categories and services with the price to pay right now (flash sale included), the
category behind a /services/<slug> page (a category's slug or one of its services'), and the reference
catalog seeder."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.catalog._pricing import FlashSale, configured_sale, price_at
from app.services.catalog._reference import CATALOG
from models.catalog import (
    MAX_SEARCH_BITS,
    CategoryRead,
    Service,
    ServiceCategory,
    ServiceRead,
    locations_mask,
    locations_of,
)


def service_read(service: Service, category_slug: str, at: datetime, sale: FlashSale | None) -> ServiceRead:
    return ServiceRead(
        id=service.id,
        slug=service.slug,
        name=service.name,
        category_slug=category_slug,
        description=service.description,
        preparation=service.preparation,
        duration_minutes=service.duration_minutes,
        price=price_at(category_slug=category_slug, price=service.price, at=at, sale=sale),
        locations=locations_of(service.location_mask),
    )


async def list_catalog(*, session: AsyncSession, at: datetime | None = None) -> list[CategoryRead]:
    """Every category with its active services, in catalog order, priced at `at` (default: now)."""
    at = at or datetime.now(UTC)
    sale = configured_sale(at)
    categories = (await session.scalars(select(ServiceCategory).order_by(ServiceCategory.position))).all()
    services = (
        await session.scalars(
            select(Service).where(Service.is_active.is_(True)).order_by(Service.position, Service.name)
        )
    ).all()
    by_category: dict[str, list[Service]] = {}
    for service in services:
        by_category.setdefault(service.category_id, []).append(service)
    return [
        CategoryRead(
            id=category.id,
            slug=category.slug,
            name=category.name,
            services=[service_read(s, category.slug, at, sale) for s in by_category.get(category.id, [])],
        )
        for category in categories
    ]


async def get_category(
    *, session: AsyncSession, slug: str, at: datetime | None = None
) -> CategoryRead | None:
    return next((c for c in await list_catalog(session=session, at=at) if c.slug == slug), None)


async def get_service_page(
    *, session: AsyncSession, slug: str, at: datetime | None = None
) -> tuple[CategoryRead, ServiceRead | None] | None:
    """What /services/<slug> shows: (the category, None) for a category's slug, (its category, the
    service) for an active service's slug, or None when the catalog has neither."""
    for category in await list_catalog(session=session, at=at):
        if category.slug == slug:
            return category, None
        service = next((s for s in category.services if s.slug == slug), None)
        if service is not None:
            return category, service
    return None


async def ensure_reference_catalog(*, session: AsyncSession) -> list[str]:
    """Add the reference categories and services that are missing (matched by slug); existing rows are
    left as the operator set them. Returns what was added."""
    categories = {c.slug: c for c in (await session.scalars(select(ServiceCategory))).all()}
    existing = set((await session.scalars(select(Service.slug))).all())
    # Each new service takes the next bit of `Provider.service_mask`, while there is one.
    last_bit = await session.scalar(select(func.max(Service.search_bit)))
    next_bit = 0 if last_bit is None else last_bit + 1
    added: list[str] = []
    for position, reference in enumerate(CATALOG):
        category = categories.get(reference.slug)
        if category is None:
            category = ServiceCategory(slug=reference.slug, name=reference.name, position=position)
            session.add(category)
            await session.flush()
            added.append(f"category {reference.name}")
        for index, item in enumerate(reference.services):
            if item.slug in existing:
                continue
            session.add(
                Service(
                    category_id=category.id,
                    slug=item.slug,
                    name=item.name,
                    description=item.description,
                    preparation=item.preparation,
                    duration_minutes=item.duration_minutes,
                    price=item.price,
                    location_mask=locations_mask(item.locations),
                    position=index,
                    search_bit=next_bit if next_bit < MAX_SEARCH_BITS else None,
                )
            )
            next_bit += 1
            added.append(f"service {item.name}")
    await session.flush()
    return added
