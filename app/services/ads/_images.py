"""Creative images: an advertiser uploads one before submitting the flight (the websocket cannot carry a
file), stored like the project's other uploads (app/storage: contents sniffed, UPLOAD_MAX_BYTES each, PNG,
JPEG or WebP only); anybody may open one (they show on the site once approved). At most MAX_STAGED images
and UPLOAD_QUOTA_BYTES_PER_DAY an advertiser a day, so the store cannot be filled with unused uploads."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import storage
from app.principal import Principal
from app.services.ads._flights import IMAGE_PATH
from app.services.ads._rules import NO_IMAGE, NOT_AN_IMAGE, require_advertiser
from app.services.errors import NotFound, ValidationFailed
from app.settings import get_settings
from models.ads import AdImage
from models.base import utcnow

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp"})
MAX_STAGED = 30  # images an advertiser may upload in 24 hours


async def add_ad_image(
    *, session: AsyncSession, actor: Principal, filename: str, data: bytes
) -> dict[str, str]:
    """Store a creative's image for the signed-in advertiser: `{id, url}`."""
    account = await require_advertiser(session=session, actor=actor)
    try:
        _name, content_type = storage.check_upload(filename, data)
    except storage.UploadRejected as exc:
        raise ValidationFailed(exc.message, code=exc.code) from None
    if content_type not in IMAGE_TYPES:
        raise ValidationFailed(NOT_AN_IMAGE, code="unsupported_type")
    count, size = (
        await session.execute(
            select(func.count(), func.coalesce(func.sum(AdImage.size_bytes), 0)).where(
                AdImage.owner_id == account.id, AdImage.created_at >= utcnow() - timedelta(days=1)
            )
        )
    ).one()
    if count >= MAX_STAGED or size + len(data) > get_settings().upload_quota_bytes_per_day:
        raise ValidationFailed(
            "You've uploaded many images today; use one of them or try tomorrow.", code="too_many_uploads"
        )
    key = await storage.save(data)
    row = AdImage(owner_id=account.id, stored_name=key, content_type=content_type, size_bytes=len(data))
    session.add(row)
    try:
        await session.flush()
    except Exception:
        await storage.remove(key)
        raise
    return {"id": row.id, "url": IMAGE_PATH.format(id=row.id)}


async def open_ad_image(*, session: AsyncSession, image_id: str) -> tuple[Path, str]:
    """(file, content type) of a creative's image; NotFound when there is none."""
    row = await session.get(AdImage, image_id[:36])
    if row is None:
        raise NotFound(NO_IMAGE)
    path = storage.path_of(row.stored_name)
    if not path.exists():
        raise NotFound(NO_IMAGE)
    return path, row.content_type
