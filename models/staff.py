"""Staff (SPEC §3 "Staff member", §6 roles, permissions and grants) and their personal task lists.

A staff member is an account with a staff role (owner, management, hr, support: the role itself lives in the
identity's `app_metadata`, like every role). The `staff_members` row adds what the role does not say: the
member's extra permissions and whether they are active. Permissions = the role's grants + the extras; an
inactive member has none.
"""

from __future__ import annotations

import enum
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, Boolean, CheckConstraint, Enum, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.account import Role
from models.audit import AuditEntryRead
from models.base import Base, created_at_column, id_column, utcnow


class Permission(enum.StrEnum):
    view_analytics = "view_analytics"
    manage_providers = "manage_providers"
    manage_verification = "manage_verification"
    view_revenue = "view_revenue"
    manage_ads = "manage_ads"
    view_support_tickets = "view_support_tickets"
    manage_staff = "manage_staff"
    manage_onboarding = "manage_onboarding"
    moderate_content = "moderate_content"
    approve_documents = "approve_documents"
    view_appointments = "view_appointments"
    manage_appointments = "manage_appointments"
    view_patient_logs = "view_patient_logs"
    view_provider_logs = "view_provider_logs"
    toggle_features = "toggle_features"
    process_payments = "process_payments"
    manage_support_tickets = "manage_support_tickets"
    create_support_tickets = "create_support_tickets"
    view_booking_schedules = "view_booking_schedules"
    create_invoices = "create_invoices"
    manage_services = "manage_services"


P = Permission
# SPEC §6 grants. The owner has every permission.
ROLE_GRANTS: dict[Role, frozenset[Permission]] = {
    Role.owner: frozenset(Permission),
    Role.management: frozenset(
        {
            P.view_analytics,
            P.view_appointments,
            P.manage_appointments,
            P.view_patient_logs,
            P.view_support_tickets,
            P.manage_ads,
            P.view_revenue,
            P.manage_verification,
            P.manage_providers,
        }
    ),
    Role.hr: frozenset(
        {
            P.approve_documents,
            P.manage_onboarding,
            P.manage_staff,
            P.moderate_content,
            P.view_support_tickets,
            P.view_analytics,
            P.view_appointments,
        }
    ),
    Role.support: frozenset({P.view_support_tickets, P.view_appointments}),
}
# The roles the staff portal admits (SPEC §6).
PORTAL_ROLES = frozenset(ROLE_GRANTS)


class StaffMember(Base):
    __tablename__ = "staff_members"

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), unique=True)
    extra_permissions: Mapped[list[str]] = mapped_column(JSON, default=list)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class TaskPriority(enum.StrEnum):
    high = "high"
    medium = "medium"
    low = "low"


class StaffTask(Base):
    """One item of a staff member's own task list (Staff Dashboard)."""

    __tablename__ = "staff_tasks"
    __table_args__ = (
        Index("ix_staff_tasks_owner_done", "owner_id", "completed", "created_at"),
        CheckConstraint("length(description) > 0", name="description_not_empty"),
    )

    id: Mapped[str] = id_column()
    owner_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    description: Mapped[str] = mapped_column(String(300))
    priority: Mapped[TaskPriority] = mapped_column(Enum(TaskPriority, native_enum=False, length=8))
    completed: Mapped[bool] = mapped_column(Boolean, default=False)
    completed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()


# ---- read schemas ------------------------------------------------------------------------------
class StaffMemberRead(BaseModel):
    """SPEC §3 staff member: id, name, email, role, status, permissions, active, createdAt."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    name: str
    email: str
    role: Role
    status: str  # 'active' or 'inactive'
    extra_permissions: list[Permission]
    permissions: list[Permission]  # grants of the role + extras (none when inactive)
    active: bool
    created_at: datetime


class StaffTaskRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    description: str
    priority: TaskPriority
    completed: bool
    created_at: datetime


class StaffAccessRead(BaseModel):
    """The signed-in member as the portal sees them: who, which role, and what they may do now."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    name: str
    email: str
    role: Role
    is_owner: bool  # an owner or a master admin: reads the audit log, grants the owner role
    permissions: frozenset[Permission]
    grantable_roles: tuple[Role, ...] = ()  # the roles they may hand out (staff management)
    time_zone: str | None = None  # the zone they pinned for the portal's times (None: the browser's)

    def can(self, permission: Permission) -> bool:
        return permission in self.permissions


class StaffPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    members: list[StaffMemberRead]
    page: int
    has_more: bool


class AuditPageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    entries: list[AuditEntryRead]
    has_more: bool


class TaskCountsRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    completed: int
    remaining: int


class StaffDashboardRead(BaseModel):
    """SPEC §3 dashboard stats; a figure the member may not see is None."""

    model_config = ConfigDict(frozen=True)

    today: date
    appointments: int | None
    completed_appointments: int | None
    active_patients: int | None
    new_patients_today: int | None
    tasks_completed: int
    upcoming_tasks: int
    activity_rate: int | None  # percent
    activity_change: int | None  # percentage points against last week


# ---- a member's own preferences (issue 15 item 5) -------------------------------------------------------
MAX_SIGNATURE = 500
# The time zones a member may pin (the US ones our providers work in, then UTC); without one, the portal
# follows the browser's.
STAFF_TIME_ZONES: tuple[tuple[str, str], ...] = (
    ("America/New_York", "Eastern (New York)"),
    ("America/Chicago", "Central (Chicago)"),
    ("America/Denver", "Mountain (Denver)"),
    ("America/Phoenix", "Arizona (Phoenix)"),
    ("America/Los_Angeles", "Pacific (Los Angeles)"),
    ("America/Anchorage", "Alaska (Anchorage)"),
    ("Pacific/Honolulu", "Hawaii (Honolulu)"),
    ("UTC", "UTC"),
)


class StaffPreference(Base):
    """What a staff member chose for themselves: the time zone the portal shows times in (None: the
    browser's) and the signature added to their help-desk replies."""

    __tablename__ = "staff_preferences"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    time_zone: Mapped[str | None] = mapped_column(String(64), default=None)
    signature: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class StaffPreferencesRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    time_zone: str | None
    signature: str


class StaffPreferencesUpdate(BaseModel):
    model_config = ConfigDict(frozen=True)

    time_zone: str = Field(default="", max_length=64)  # "" for the browser's
    signature: str = Field(default="", max_length=MAX_SIGNATURE * 2)
