"""The support domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.support._attachments import add_message
from app.services.support._common import create_ticket, load_ticket
from app.services.support._overdue import notify_overdue_tickets

__all__ = ["add_message", "create_ticket", "load_ticket", "notify_overdue_tickets"]
