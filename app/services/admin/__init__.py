"""The admin console (issue 15 part 3): accounts (search, roles, VIP and free-access flags, disabling,
forced sign-out), the mail outbox with secrets redacted, the counted unknown paths, the system's health,
and the record of the periodic jobs' runs it reads. Every query and command is for administrators only
(owner, admin or master admin: SPEC §6), checked here on each call.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_access": ("ADMIN_ONLY", "require_admin"),
    "_health": ("get_system_health",),
    "_jobs": ("record_job_run",),
    "_not_found": ("list_unknown_paths",),
    "_outbox": ("get_outbox_message", "list_outbox", "redact"),
    "_users": (
        "PAGE_SIZE",
        "change_user_role",
        "disable_user",
        "enable_user",
        "force_sign_out",
        "get_user",
        "list_users",
        "set_user_flags",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
