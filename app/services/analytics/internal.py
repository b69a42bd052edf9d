"""The analytics domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.analytics._demand import record_unmet_search

__all__ = ["record_unmet_search"]
