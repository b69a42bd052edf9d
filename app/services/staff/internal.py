"""The staff domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.staff._members import ensure_staff_rows
from app.services.staff._preferences import signed

__all__ = ["ensure_staff_rows", "signed"]
