"""Products: the patient's catalogue (active products by category and search, paginated) and staff's
management of them (manage_services; every change audited)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from sqlalchemy import Select, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.image_paths import PRODUCT_IMAGE_PATH
from app.services.store._rules import (
    MAX_PAGE_SIZE,
    MAX_SEARCH,
    NO_PRODUCT,
    PAGE_SIZE,
    _clean,
    parse_price,
    parse_stock,
    product_problems,
    require_store_staff,
)
from models.audit import AuditAction
from models.store import (
    Product,
    ProductCategory,
    ProductCreate,
    ProductImage,
    ProductImageRead,
    ProductPage,
    ProductRead,
    ProductUpdate,
)


class ProductInvalid(ValidationFailed):
    """A product as typed has problems: `errors` maps each field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())))
        self.errors = errors


async def _images(session: AsyncSession, ids: Sequence[str]) -> dict[str, list[ProductImageRead]]:
    """Each product's photos in order (one query for the page)."""
    found: dict[str, list[ProductImageRead]] = {product_id: [] for product_id in ids}
    if not ids:
        return found
    rows = await session.execute(
        select(ProductImage.id, ProductImage.product_id)
        .where(ProductImage.product_id.in_(list(ids)))
        .order_by(ProductImage.product_id, ProductImage.position, ProductImage.created_at)
    )
    for image_id, product_id in rows.all():
        found[product_id].append(ProductImageRead(id=image_id, url=PRODUCT_IMAGE_PATH.format(id=image_id)))
    return found


def _read(row: Product, images: list[ProductImageRead]) -> ProductRead:
    return ProductRead(
        id=row.id,
        name=row.name,
        description=row.description,
        category=row.category,
        price_cents=row.price_cents,
        stock=row.stock,
        active=row.active,
        images=images,
    )


def _search(query: Select[Product], search: str) -> Select[Product]:
    words = _clean(search)[:MAX_SEARCH].lower()
    if not words:
        return query
    pattern = "%" + words.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return query.where(
        or_(
            func.lower(Product.name).like(pattern, escape="\\"),
            func.lower(Product.category).like(pattern, escape="\\"),
        )
    )


async def _page(session: AsyncSession, query: Select[Product], page: int, page_size: int) -> ProductPage:
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    page = max(1, page)
    total = await session.scalar(select(func.count()).select_from(query.subquery()))
    rows = (
        await session.scalars(
            query.order_by(func.lower(Product.name), Product.id)
            .limit(page_size)
            .offset((page - 1) * page_size)
        )
    ).all()
    images = await _images(session, [row.id for row in rows])
    return ProductPage(
        items=[_read(row, images[row.id]) for row in rows], total=total or 0, page=page, page_size=page_size
    )


async def list_store_products(
    *, session: AsyncSession, category: str = "", search: str = "", page: int = 1, page_size: int = PAGE_SIZE
) -> ProductPage:
    """Active products, by name, in `category` (a SPEC product category; anything else: all of them) and
    matching `search` (a substring of the name or category, case-insensitive)."""
    query = select(Product).where(Product.active.is_(True))
    if category in {c.value for c in ProductCategory}:
        query = query.where(Product.category == category)
    return await _page(session, _search(query, search), page, page_size)


async def list_products(
    *,
    session: AsyncSession,
    actor: Principal,
    search: str = "",
    category: str = "",
    page: int = 1,
    page_size: int = 25,
) -> ProductPage:
    """Staff (manage_services): every product, active or not."""
    await require_store_staff(session=session, actor=actor)
    query = select(Product)
    if category in {c.value for c in ProductCategory}:
        query = query.where(Product.category == category)
    return await _page(session, _search(query, search), page, page_size)


async def get_product(*, session: AsyncSession, actor: Principal, product_id: str) -> ProductRead:
    """Staff (manage_services): one product, active or not."""
    await require_store_staff(session=session, actor=actor)
    row = await session.get(Product, product_id[:36])
    if row is None:
        raise NotFound(NO_PRODUCT)
    return _read(row, (await _images(session, [row.id]))[row.id])


class _Fields(TypedDict):
    """A product's columns as staff set them."""

    name: str
    description: str
    category: str
    price_cents: int
    stock: int
    active: bool


def _fields(data: ProductCreate) -> _Fields:
    problems = product_problems(data)
    if problems:
        raise ProductInvalid(problems)
    return {
        "name": _clean(data.name),
        "description": data.description.strip(),
        "category": data.category,
        "price_cents": parse_price(data.price),
        "stock": parse_stock(data.stock),
        "active": data.active,
    }


async def create_product(*, session: AsyncSession, actor: Principal, data: ProductCreate) -> ProductRead:
    """Staff (manage_services) add a product (audited)."""
    staff = await require_store_staff(session=session, actor=actor)
    row = Product(**_fields(data))
    session.add(row)
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.product_create,
        target=f"product {row.id}",
        details={k: v for k, v in _fields(data).items() if k != "description"},
    )
    return _read(row, [])


async def update_product(
    *, session: AsyncSession, actor: Principal, product_id: str, data: ProductUpdate
) -> ProductRead:
    """Staff (manage_services) change a product (audited: each changed field, from and to). Stock set here
    is absolute; checkout's reservations lower it atomically, so staff counting a delivery set what is
    on the shelf."""
    staff = await require_store_staff(session=session, actor=actor)
    fields = _fields(data)
    row = await session.get(Product, product_id[:36], with_for_update=True)
    if row is None:
        raise NotFound(NO_PRODUCT)
    changed = {
        key: {"from": getattr(row, key), "to": value}
        for key, value in fields.items()
        if getattr(row, key) != value and key != "description"
    }
    if row.description != fields["description"]:
        changed["description"] = {"changed": True}
    for key, value in fields.items():
        setattr(row, key, value)
    await session.flush()
    if changed:
        await audit.record_by(
            session=session,
            account=staff,
            actor=actor,
            action=AuditAction.product_update,
            target=f"product {row.id}",
            details=changed,
        )
    return _read(row, (await _images(session, [row.id]))[row.id])
