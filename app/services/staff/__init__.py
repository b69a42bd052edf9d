"""The staff portal: members and their permissions (the one `require_permission` gate every domain calls
lives below the domains, in app/services/shared/staff_access.py), the staff dashboard, task lists and the
owners' audit log.

Its public surface: the names below (`__all__`).
"""

from app.services.shared.staff_access import HELP_DESK_DENIED, INACTIVE, PORTAL_DENIED, effective_permissions
from app.services.staff._dashboard import (
    confirm_visit,
    get_staff_dashboard,
    list_todays_appointments,
    open_visit,
)
from app.services.staff._members import (
    ALREADY_STAFF,
    ASSIGNABLE_ROLES,
    OWN_ACCESS,
    OWNER_ROLE_DENIED,
    REMOVE_SELF,
    STAFF_ROLES,
    TOPIC,
    add_staff,
    get_staff_access,
    list_staff,
    read_audit_log,
    remove_staff,
    update_staff,
)
from app.services.staff._preferences import get_my_staff_preferences, update_my_staff_preferences
from app.services.staff._tasks import (
    EMPTY_DESCRIPTION,
    add_task,
    count_tasks,
    delete_task,
    edit_task,
    list_tasks,
    set_task_done,
)
from models.staff import StaffAccessRead, StaffPageRead

__all__ = [
    "ALREADY_STAFF",
    "ASSIGNABLE_ROLES",
    "EMPTY_DESCRIPTION",
    "HELP_DESK_DENIED",
    "INACTIVE",
    "OWNER_ROLE_DENIED",
    "OWN_ACCESS",
    "PORTAL_DENIED",
    "REMOVE_SELF",
    "STAFF_ROLES",
    "StaffAccessRead",
    "StaffPageRead",
    "TOPIC",
    "add_staff",
    "add_task",
    "confirm_visit",
    "count_tasks",
    "delete_task",
    "edit_task",
    "effective_permissions",
    "get_my_staff_preferences",
    "get_staff_access",
    "get_staff_dashboard",
    "list_staff",
    "list_tasks",
    "list_todays_appointments",
    "open_visit",
    "read_audit_log",
    "remove_staff",
    "set_task_done",
    "update_my_staff_preferences",
    "update_staff",
]
