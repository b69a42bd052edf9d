"""The service catalog: categories, services, server-side prices (flash sale) and the reference data.

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.catalog._catalog import (
    CATALOG,
    ensure_reference_catalog,
    get_category,
    list_catalog,
    price_at,
)
from app.services.catalog._pricing import (
    flash_sale_on,
    price_for,
)

__all__ = [
    "CATALOG",
    "ensure_reference_catalog",
    "flash_sale_on",
    "get_category",
    "list_catalog",
    "price_at",
    "price_for",
]
