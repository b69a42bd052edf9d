"""The service catalog: categories, services, server-side prices (flash sale) and the reference data.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_catalog": (
        "ensure_reference_catalog",
        "get_category",
        "get_service_page",
        "list_catalog",
    ),
    "_pricing": (
        "flash_sale_on",
        "flash_sale_running",
        "price_at",
        "price_for",
    ),
    "_reference": ("CATALOG",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
