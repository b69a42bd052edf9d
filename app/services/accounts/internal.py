"""The accounts domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.accounts._admin import (
    apply_role,
    create_account,
    create_demo_accounts,
    create_demo_patients,
    mark_enrollment_complete,
)
from app.services.accounts._waitlist import send_invitation
from app.services.shared.accounts import get_account

__all__ = [
    "apply_role",
    "create_account",
    "create_demo_accounts",
    "create_demo_patients",
    "get_account",
    "mark_enrollment_complete",
    "send_invitation",
]
