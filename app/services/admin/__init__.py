"""The admin console (issue 15 part 3): accounts (search, roles, VIP and free-access flags, disabling,
forced sign-out), the mail outbox with secrets redacted, the counted unknown paths, the system's health,
and the record of the periodic jobs' runs it reads. Every query and command is for administrators only
(owner, admin or master admin: SPEC §6), checked here on each call.

Its public surface: the names below (`__all__`).
"""

from app.services.admin._access import ADMIN_ONLY, require_admin
from app.services.admin._health import get_system_health
from app.services.admin._jobs import record_job_run
from app.services.admin._not_found import list_unknown_paths
from app.services.admin._outbox import get_outbox_message, list_outbox, redact
from app.services.admin._users import (
    PAGE_SIZE,
    change_user_role,
    disable_user,
    enable_user,
    force_sign_out,
    get_user,
    list_users,
    set_user_flags,
)

__all__ = [
    "ADMIN_ONLY",
    "PAGE_SIZE",
    "change_user_role",
    "disable_user",
    "enable_user",
    "force_sign_out",
    "get_outbox_message",
    "get_system_health",
    "get_user",
    "list_outbox",
    "list_unknown_paths",
    "list_users",
    "record_job_run",
    "redact",
    "require_admin",
    "set_user_flags",
]
