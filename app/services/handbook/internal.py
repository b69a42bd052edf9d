"""The handbook domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.handbook._seed import ensure_handbook

__all__ = ["ensure_handbook"]
