"""The help desk (SPEC §3 "Ticket", "Ticket message", §4 ticket states, §8 ticket toasts): tickets opened by
customers or staff, their threads (replies and internal notes), attachments, history and canned responses.

Internal notes (`is_internal`) are for staff only: the support services never return them to a customer,
and the events they publish carry ids, never message text.

Due times: each ticket gets a first-response and a resolution due time from its priority when it is opened.
While the ticket is `waiting` (on the customer) the clock is paused: `paused_at` marks the start of the
pause, and leaving `waiting` pushes both due times back by the time spent waiting.

Overdue notices: the periodic job (`notify_overdue_tickets`) stamps `first_response_overdue_notified_at` /
`resolution_overdue_notified_at` when it announces a breach, so each breach is announced once. Two partial
indexes hold only the open tickets whose breach is not announced yet (what the job scans every minute);
the job's query repeats their conditions word for word (`OPEN_TICKET`, the IS NULL tests) so that the
planner can use them.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Boolean, Enum, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column, utcnow


class TicketStatus(enum.StrEnum):
    new = "new"
    open = "open"
    in_progress = "in_progress"
    waiting = "waiting"
    resolved = "resolved"
    closed = "closed"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


class TicketPriority(enum.StrEnum):
    low = "low"
    medium = "medium"
    high = "high"
    urgent = "urgent"


class TicketCategory(enum.StrEnum):
    technical = "technical"
    billing = "billing"
    account = "account"
    booking = "booking"
    payment = "payment"
    services = "services"
    other = "other"


def _enum(kind: type[enum.Enum]) -> Enum:
    return Enum(kind, native_enum=False, length=16)


# Neither resolved nor closed (the due clock runs); SQL, shared by the partial indexes and their query.
OPEN_TICKET = "status NOT IN ('resolved', 'closed')"
FIRST_RESPONSE_UNANNOUNCED = (
    f"{OPEN_TICKET} AND first_responded_at IS NULL AND first_response_overdue_notified_at IS NULL"
)
RESOLUTION_UNANNOUNCED = f"{OPEN_TICKET} AND resolution_overdue_notified_at IS NULL"


class Ticket(Base):
    __tablename__ = "tickets"
    __table_args__ = (
        Index("ix_tickets_status_updated", "status", "updated_at"),
        Index("ix_tickets_assigned_updated", "assigned_to", "updated_at"),
        Index("ix_tickets_user_updated", "user_id", "updated_at"),
        Index("ix_tickets_updated", "updated_at"),
        Index(
            "ix_tickets_first_response_watch",
            "first_response_due_at",
            postgresql_where=text(FIRST_RESPONSE_UNANNOUNCED),
            sqlite_where=text(FIRST_RESPONSE_UNANNOUNCED),
        ),
        Index(
            "ix_tickets_resolution_watch",
            "resolution_due_at",
            postgresql_where=text(RESOLUTION_UNANNOUNCED),
            sqlite_where=text(RESOLUTION_UNANNOUNCED),
        ),
    )

    id: Mapped[str] = id_column()
    number: Mapped[int] = mapped_column(Integer, unique=True)  # shown as #1042
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))  # the customer
    subject: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text)
    # Lower-cased subject + description: the case-insensitive search runs on this one column.
    search_text: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[TicketStatus] = mapped_column(_enum(TicketStatus), default=TicketStatus.new)
    priority: Mapped[TicketPriority] = mapped_column(_enum(TicketPriority), default=TicketPriority.medium)
    category: Mapped[TicketCategory] = mapped_column(_enum(TicketCategory), default=TicketCategory.other)
    assigned_to: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_by: Mapped[str | None] = mapped_column(
        ForeignKey("auth_users.id", ondelete="SET NULL"), default=None
    )
    first_response_due_at: Mapped[datetime] = mapped_column()
    resolution_due_at: Mapped[datetime] = mapped_column()
    first_responded_at: Mapped[datetime | None] = mapped_column(default=None)
    paused_at: Mapped[datetime | None] = mapped_column(default=None)
    # When the staff were told the ticket missed each due time (None: not announced).
    first_response_overdue_notified_at: Mapped[datetime | None] = mapped_column(default=None)
    resolution_overdue_notified_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(default=None)


class TicketMessage(Base):
    __tablename__ = "ticket_messages"
    __table_args__ = (Index("ix_ticket_messages_ticket_created", "ticket_id", "created_at"),)

    id: Mapped[str] = id_column()
    ticket_id: Mapped[str] = mapped_column(ForeignKey("tickets.id", ondelete="CASCADE"))
    sender_id: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    # Whether the sender was staff when they wrote it (labels the thread: Customer or Support Staff).
    from_staff: Mapped[bool] = mapped_column(Boolean, default=False)
    content: Mapped[str] = mapped_column(Text)
    is_internal: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = created_at_column()


class TicketAttachment(Base):
    """A file stored under var/uploads/ (app.storage), attached to a ticket or one of its messages."""

    __tablename__ = "ticket_attachments"
    __table_args__ = (
        Index("ix_ticket_attachments_ticket", "ticket_id"),
        Index("ix_ticket_attachments_uploader_created", "uploaded_by", "created_at"),
    )

    id: Mapped[str] = id_column()
    # Null while staged: uploaded over HTTP (/api/uploads) and not yet attached by its uploader.
    ticket_id: Mapped[str | None] = mapped_column(ForeignKey("tickets.id", ondelete="CASCADE"), default=None)
    message_id: Mapped[str | None] = mapped_column(
        ForeignKey("ticket_messages.id", ondelete="CASCADE"), default=None
    )
    uploaded_by: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    filename: Mapped[str] = mapped_column(String(200))
    content_type: Mapped[str] = mapped_column(String(100))
    size: Mapped[int] = mapped_column(Integer)
    storage_key: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = created_at_column()


class TicketChange(Base):
    """Ticket history: who changed which field from what to what, and when (staff only)."""

    __tablename__ = "ticket_changes"
    __table_args__ = (Index("ix_ticket_changes_ticket_created", "ticket_id", "created_at"),)

    id: Mapped[str] = id_column()
    ticket_id: Mapped[str] = mapped_column(ForeignKey("tickets.id", ondelete="CASCADE"))
    actor_id: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    field: Mapped[str] = mapped_column(String(32))  # created, status, priority, category, assignee, ...
    old_value: Mapped[str] = mapped_column(String(200), default="")
    new_value: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = created_at_column()


class CannedResponse(Base):
    """A saved reply; {customer} and {ticket} are filled in when it is used."""

    __tablename__ = "canned_responses"

    id: Mapped[str] = id_column()
    title: Mapped[str] = mapped_column(String(120), unique=True)
    body: Mapped[str] = mapped_column(Text)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("auth_users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = created_at_column()


# ---- read schemas ------------------------------------------------------------------------------
class AttachmentRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    filename: str
    content_type: str
    size: int


class TicketMessageRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    ticket_id: str
    sender_id: str | None
    sender_name: str
    author_label: str  # 'Customer', 'Support Staff' or 'Internal Note'
    content: str
    is_internal: bool
    created_at: datetime
    attachments: list[AttachmentRead] = []
    # The 911 / 988 message for the person who just wrote this, when their words have a red flag (issue 27):
    # set on the command's answer only, never stored nor read back.
    safety_message: str = ""


class TicketRead(BaseModel):
    """A ticket as a list row or a detail header (no thread)."""

    model_config = ConfigDict(frozen=True)

    id: str
    number: int
    user_id: str
    customer_name: str
    customer_email: str
    subject: str
    description: str
    status: TicketStatus
    priority: TicketPriority
    category: TicketCategory
    assigned_to: str | None
    assignee_name: str | None
    tags: list[str]
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None
    first_response_due_at: datetime
    resolution_due_at: datetime
    first_responded_at: datetime | None
    paused_at: datetime | None
    safety_message: str = ""  # as TicketMessageRead's: on the answer to opening the ticket only


class TicketChangeRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    actor_name: str
    field: str
    old_value: str
    new_value: str
    created_at: datetime


class TicketDetail(BaseModel):
    model_config = ConfigDict(frozen=True)

    ticket: TicketRead
    messages: list[TicketMessageRead]
    attachments: list[AttachmentRead]  # attached to the ticket itself
    history: list[TicketChangeRead]  # empty for customers


class CannedResponseRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    body: str


class DueStatus(BaseModel):
    """Whether a ticket missed its first-response or resolution due time (the clock stops while waiting)."""

    model_config = ConfigDict(frozen=True)

    first_response_overdue: bool
    resolution_overdue: bool

    @property
    def overdue(self) -> bool:
        return self.first_response_overdue or self.resolution_overdue
