"""The service requests domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.service_requests._expiry import expire_due_requests
from app.services.service_requests._released import reopen_requests_of_failed_payment

__all__ = ["expire_due_requests", "reopen_requests_of_failed_payment"]
