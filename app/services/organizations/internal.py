"""The organizations domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.organizations._rules import create_organization, membership_of
from app.services.organizations._team import send_invitation

__all__ = ["create_organization", "membership_of", "send_invitation"]
