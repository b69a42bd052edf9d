"""The service catalog: categories, services, server-side prices (flash sale) and the reference data.

Its public surface: the names below (`__all__`).
"""

from app.services.catalog._catalog import (
    get_category,
    get_service_page,
    list_catalog,
)
from app.services.catalog._pricing import (
    CENT,
    configured_sale,
    flash_sale_on,
    flash_sale_running,
    price_at,
    price_for,
)
from app.services.catalog._reference import CATALOG

__all__ = [
    "CATALOG",
    "CENT",
    "configured_sale",
    "flash_sale_on",
    "flash_sale_running",
    "get_category",
    "get_service_page",
    "list_catalog",
    "price_at",
    "price_for",
]
