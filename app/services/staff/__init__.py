"""The staff portal: members and their permissions (the one `require_permission` gate), the staff
dashboard, task lists and the owners' audit log.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_access": (
        "HELP_DESK_DENIED",
        "INACTIVE",
        "PORTAL_DENIED",
        "effective_permissions",
    ),
    "_dashboard": (
        "confirm_visit",
        "get_staff_dashboard",
        "list_todays_appointments",
        "open_visit",
    ),
    "_preferences": ("get_my_staff_preferences", "update_my_staff_preferences"),
    "_members": (
        "ALREADY_STAFF",
        "ASSIGNABLE_ROLES",
        "OWNER_ROLE_DENIED",
        "OWN_ACCESS",
        "REMOVE_SELF",
        "STAFF_ROLES",
        "StaffAccessRead",
        "StaffPageRead",
        "TOPIC",
        "add_staff",
        "ensure_staff_rows",
        "get_staff_access",
        "list_staff",
        "read_audit_log",
        "remove_staff",
        "update_staff",
    ),
    "_tasks": (
        "EMPTY_DESCRIPTION",
        "add_task",
        "count_tasks",
        "delete_task",
        "edit_task",
        "list_tasks",
        "set_task_done",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
