"""The features domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.features._keeper import keep_toggles_fresh, load_toggles

__all__ = ["keep_toggles_fresh", "load_toggles"]
