"""The help center domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.help_center._search import find_help_passages
from app.services.help_center._seed import ensure_help_center

__all__ = ["ensure_help_center", "find_help_passages"]
