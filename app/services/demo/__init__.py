"""Demo data: a living marketplace for `make run` (providers in three metros, patients, visits with
reviews, help-desk tickets, the store, job postings). Deterministic, idempotent, refused in production.

Its public surface: the names below (`__all__`).
"""

from app.services.demo._careers import seed_demo_careers
from app.services.demo._marketplace import seed_demo_marketplace
from app.services.demo._store import seed_demo_store
from app.services.demo._tickets import seed_demo_tickets

__all__ = [
    "seed_demo_careers",
    "seed_demo_marketplace",
    "seed_demo_store",
    "seed_demo_tickets",
]
