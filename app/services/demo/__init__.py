"""Demo data: a living marketplace for `make run` (providers in three metros, patients, visits with
reviews, help-desk tickets, the store, job postings). Deterministic, idempotent, refused in production.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_marketplace": ("seed_demo_marketplace",),
    "_tickets": ("seed_demo_tickets",),
    "_store": ("seed_demo_store",),
    "_careers": ("seed_demo_careers",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
