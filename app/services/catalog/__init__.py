"""The service catalog: categories, services, server-side prices (flash sale) and the reference data.

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_catalog": (
        "ensure_reference_catalog",
        "get_category",
        "list_catalog",
    ),
    "_pricing": (
        "flash_sale_on",
        "price_at",
        "price_for",
    ),
    "_reference": ("CATALOG",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
