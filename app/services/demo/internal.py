"""The demo domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.demo._careers import seed_demo_careers
from app.services.demo._marketplace import seed_demo_marketplace
from app.services.demo._store import seed_demo_store
from app.services.demo._tickets import seed_demo_tickets

__all__ = ["seed_demo_careers", "seed_demo_marketplace", "seed_demo_store", "seed_demo_tickets"]
