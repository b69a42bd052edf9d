"""Product photos, stored like the project's other uploads (app/storage: random keys under UPLOAD_DIR,
contents sniffed, UPLOAD_MAX_BYTES each): staff (manage_services) add up to MAX_IMAGES per product and remove
them, audited; the demo seed adds the demo products' pictures as SYSTEM; anybody may open one (they show in
the store)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit, storage
from app.principal import Principal
from app.services.errors import NotFound, ValidationFailed
from app.services.shared.image_paths import PRODUCT_IMAGE_PATH
from app.services.store._products import _images
from app.services.store._rules import NO_IMAGE, NO_PRODUCT, NOT_AN_IMAGE, TOO_MANY_IMAGES, require_store_staff
from models.audit import AuditAction
from models.store import MAX_IMAGES, Product, ProductImage, ProductImageRead

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp"})


async def add_product_image(
    *, session: AsyncSession, actor: Principal, product_id: str, filename: str, data: bytes
) -> ProductImageRead:
    """Staff add a photo (PNG, JPEG or WebP) after the product's others (SYSTEM too: the demo seed)."""
    staff = None if actor.is_system else await require_store_staff(session=session, actor=actor)
    product = await session.get(Product, product_id[:36], with_for_update=True)
    if product is None:
        raise NotFound(NO_PRODUCT)
    try:
        _name, content_type = storage.check_upload(filename, data)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    if content_type not in IMAGE_TYPES:
        raise ValidationFailed(NOT_AN_IMAGE, code="unsupported_type")
    count, last = (
        await session.execute(
            select(func.count(), func.coalesce(func.max(ProductImage.position), -1)).where(
                ProductImage.product_id == product.id
            )
        )
    ).one()
    if count >= MAX_IMAGES:
        raise ValidationFailed(TOO_MANY_IMAGES.format(limit=MAX_IMAGES), code="too_many_images")
    key = await storage.save(data)
    row = ProductImage(
        product_id=product.id,
        stored_name=key,
        content_type=content_type,
        size_bytes=len(data),
        position=last + 1,
        uploaded_by=staff.id if staff else None,
    )
    session.add(row)
    try:
        await session.flush()
    except Exception:
        await storage.remove(key)
        raise
    if staff is not None:
        await audit.record_by(
            session=session,
            account=staff,
            actor=actor,
            action=AuditAction.product_image,
            target=f"product {product.id}",
            details={"change": "added", "image_id": row.id},
        )
    return ProductImageRead(id=row.id, url=PRODUCT_IMAGE_PATH.format(id=row.id))


async def remove_product_image(
    *, session: AsyncSession, actor: Principal, image_id: str
) -> list[ProductImageRead]:
    """Staff remove a photo; returns the product's photos left."""
    staff = await require_store_staff(session=session, actor=actor)
    row = await session.get(ProductImage, image_id[:36])
    if row is None:
        raise NotFound(NO_IMAGE)
    product_id, key = row.product_id, row.stored_name
    await session.delete(row)
    await session.flush()
    await audit.record_by(
        session=session,
        account=staff,
        actor=actor,
        action=AuditAction.product_image,
        target=f"product {product_id}",
        details={"change": "removed", "image_id": image_id},
    )
    await storage.remove(key)
    return (await _images(session, [product_id]))[product_id]


async def open_product_image(*, session: AsyncSession, image_id: str) -> tuple[Path, str]:
    """(file, content type) of a photo; NotFound when there is none."""
    row = await session.get(ProductImage, image_id[:36])
    if row is None:
        raise NotFound(NO_IMAGE)
    path = storage.path_of(row.stored_name)
    if not path.exists():
        raise NotFound(NO_IMAGE)
    return path, row.content_type
