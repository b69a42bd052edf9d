"""Store products in a signed-in patient's cart (`cart_products`): read beside the visits, priced from the
product now. A product no longer sold is dropped on read; a product's quantity is capped by its stock when
added (checkout reserves the stock itself, atomically: app/services/store/_orders.py)."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.shared.image_paths import PRODUCT_IMAGE_PATH
from models.cart import CartItemRead
from models.store import CartProduct, Product, ProductImage

PREFIX = "product:"


def _dollars(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def product_item_id(product_id: str) -> str:
    """The cart item id of a product (visits' ids are service slugs, which never contain a colon)."""
    return PREFIX + product_id


def product_of(item_id: str) -> str | None:
    """The product id of a product's cart item id, else None."""
    return item_id[len(PREFIX) :][:36] if item_id.startswith(PREFIX) else None


async def product_lines(session: AsyncSession, user_id: str) -> list[CartItemRead]:
    """The user's products in the cart, oldest first; products no longer sold are deleted from it."""
    first_image = (
        select(ProductImage.id)
        .where(ProductImage.product_id == Product.id)
        .order_by(ProductImage.position, ProductImage.created_at)
        .limit(1)
        .correlate(Product)
        .scalar_subquery()
    )
    rows = (
        await session.execute(
            select(CartProduct, Product, first_image)
            .join(Product, Product.id == CartProduct.product_id)
            .where(CartProduct.user_id == user_id)
            .order_by(CartProduct.added_at, CartProduct.id)
        )
    ).all()
    gone = [row.id for row, product, _image in rows if not product.active]
    if gone:
        await session.execute(delete(CartProduct).where(CartProduct.id.in_(gone)))
    return [
        CartItemRead(
            id=product_item_id(product.id),
            name=product.name,
            price=_dollars(product.price_cents),
            original_price=_dollars(product.price_cents),
            quantity=row.quantity,
            kind="product",
            product_id=product.id,
            stock=product.stock,
            image_url=PRODUCT_IMAGE_PATH.format(id=image) if image else None,
        )
        for row, product, image in rows
        if product.active
    ]


async def count_products(session: AsyncSession, user_id: str) -> int:
    total = select(func.coalesce(func.sum(CartProduct.quantity), 0)).where(CartProduct.user_id == user_id)
    return (await session.execute(total)).scalar_one()
