"""Demo data: a living marketplace for `make run` (providers in three metros, patients, visits with
reviews, help-desk tickets). Deterministic, idempotent, refused in production.

The public surface of the domain: screens, HTTP routes and the assembly import these names from here only;
the `_*` modules are private. Names load on first use (PEP 562), so domains that call each other (a visit
confirmed from the staff dashboard, a hold checked against appointments) never meet a half-imported package.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_marketplace": ("seed_demo_marketplace",),
    "_tickets": ("seed_demo_tickets",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
