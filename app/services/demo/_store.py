"""The demo store's catalogue: everyday products a mobile-care patient might order, in several of SPEC's
product categories, with plain descriptions of what they are (no medical claims, no reviews, no ratings).
Prices and stock are ordinary retail figures chosen for the demo; one product is sold out and two are
running low, so the store's stock states show. Each product has a picture (`assets/products/*.webp`: flat
illustrations drawn for the demo, no photographs), added through the store's own `add_product_image` so it
is stored and served like a picture staff upload. Idempotent: nothing is added once the store has products.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import SYSTEM
from app.services.errors import PermissionDenied
from app.services.store import add_product_image
from app.settings import get_settings
from models.base import new_id, utcnow
from models.store import Product, ProductCategory

PICTURES = Path(__file__).parent / "assets" / "products"

C = ProductCategory
# (name, category, price in cents, stock, description)
CATALOGUE: tuple[tuple[str, ProductCategory, int, int, str], ...] = (
    (
        "Sterile gauze pads, 4 × 4 in (25 count)",
        C.medical_supplies,
        899,
        40,
        "Individually wrapped cotton gauze pads for covering minor cuts and scrapes. 25 pads per box.",
    ),
    (
        "Adhesive bandages, assorted sizes (100 count)",
        C.supplies,
        649,
        60,
        "Flexible fabric bandages in four sizes for everyday scrapes. 100 bandages per box.",
    ),
    (
        "Nitrile exam gloves, medium (100 count)",
        C.supplies,
        1299,
        3,
        "Powder-free, latex-free disposable gloves for caregivers at home. Size medium, 100 per box.",
    ),
    (
        "Digital oral thermometer",
        C.health_tech,
        1499,
        25,
        "Reads in about 10 seconds with a beep when done; memory of the last reading; battery included.",
    ),
    (
        "Upper-arm blood pressure monitor",
        C.health_tech,
        4999,
        12,
        "Automatic cuff monitor for home readings, cuff fits arms 9 to 17 in, stores 60 readings for two users.",
    ),
    (
        "Fingertip pulse oximeter",
        C.health_tech,
        2999,
        0,
        "Shows oxygen saturation and pulse rate on a bright display. Two AAA batteries included.",
    ),
    (
        "Vitamin D3 1,000 IU (90 softgels)",
        C.vitamins,
        1150,
        30,
        "One softgel a day. Ask your provider whether a supplement is right for you.",
    ),
    (
        "Daily multivitamin (100 tablets)",
        C.vitamins,
        1399,
        20,
        "A once-a-day multivitamin and mineral tablet for adults.",
    ),
    (
        "Electrolyte drink mix, lemon (20 packets)",
        C.supplements,
        1799,
        18,
        "Single-serve powder packets to mix with water. Lemon flavour, 20 packets per box.",
    ),
    (
        "Weekly pill organizer, AM/PM",
        C.home_care,
        899,
        35,
        "Fourteen lidded compartments, morning and evening for each day of the week, with large letters.",
    ),
    (
        "Shower chair with back",
        C.equipment,
        5499,
        2,
        "Adjustable-height aluminium shower seat with a backrest and non-slip feet. Holds up to 300 lb.",
    ),
    (
        "Reusable hot and cold gel pack",
        C.wellness,
        1099,
        22,
        "Flexible gel pack that can be warmed in the microwave or chilled in the freezer, with a soft cover.",
    ),
    (
        "Fragrance-free moisturizing lotion (16 oz)",
        C.beauty,
        999,
        28,
        "Unscented body lotion for dry skin, in a pump bottle.",
    ),
)


# Each product's picture in PICTURES (the file's name without .webp).
PICTURE_OF = dict(
    zip(
        (row[0] for row in CATALOGUE),
        (
            "gauze-pads",
            "adhesive-bandages",
            "nitrile-gloves",
            "oral-thermometer",
            "blood-pressure-monitor",
            "pulse-oximeter",
            "vitamin-d3",
            "multivitamin",
            "electrolyte-mix",
            "pill-organizer",
            "shower-chair",
            "gel-pack",
            "moisturizing-lotion",
        ),
        strict=True,
    )
)


async def seed_demo_store(*, session: AsyncSession) -> list[str]:
    """Add the demo catalogue once; returns the lines to print."""
    if get_settings().is_production:
        raise PermissionDenied("Demo data is never created with APP_ENV=production.")
    if await session.scalar(select(Product.id).limit(1)):
        return ["already present"]
    at = utcnow()
    ids = [new_id() for _ in CATALOGUE]
    await session.execute(
        insert(Product),
        [
            {
                "id": product_id,
                "name": name,
                "description": description,
                "category": category.value,
                "price_cents": price,
                "stock": stock,
                "active": True,
                "created_at": at,
                "updated_at": at,
            }
            for product_id, (name, category, price, stock, description) in zip(ids, CATALOGUE, strict=True)
        ],
    )
    pictures = 0
    for product_id, (name, *_rest) in zip(ids, CATALOGUE, strict=True):
        picture = PICTURES / f"{PICTURE_OF[name]}.webp"
        if picture.is_file():  # an installation without the demo's assets gets the products without pictures
            await add_product_image(
                session=session,
                actor=SYSTEM,
                product_id=product_id,
                filename=picture.name,
                data=picture.read_bytes(),
            )
            pictures += 1
    return [
        f"{len(CATALOGUE)} store products in {len({row[1] for row in CATALOGUE})} categories, "
        f"{pictures} with a picture"
    ]
