"""SQLAlchemy tables, enums and pydantic schemas, one module per aggregate.

Importing this package registers every table on `Base.metadata` (Alembic and tests rely on it).
"""

from models.audit import AuditEntry
from models.base import Base
from models.booking import Appointment, Order, Transaction
from models.bug_report import BugReport
from models.cart import CartItem
from models.catalog import Service, ServiceCategory
from models.draft import FormDraft
from models.identity import (
    AuthSession,
    FlowState,
    Identity,
    MfaAmrClaim,
    MfaChallenge,
    MfaFactor,
    OneTimeToken,
    RefreshToken,
    User,
)
from models.mail import OutboxMessage
from models.not_found import NotFoundPath
from models.provider import Provider, ProviderService, ProviderZip, Review, TimeOff, WeeklyHours
from models.ratelimit import RateLimitCounter
from models.staff import StaffMember, StaffTask
from models.support import CannedResponse, Ticket, TicketAttachment, TicketChange, TicketMessage
from models.waitlist import WaitlistEntry

__all__ = [
    "Appointment",
    "AuditEntry",
    "AuthSession",
    "Base",
    "BugReport",
    "CannedResponse",
    "CartItem",
    "FlowState",
    "FormDraft",
    "Identity",
    "MfaAmrClaim",
    "MfaChallenge",
    "MfaFactor",
    "NotFoundPath",
    "OneTimeToken",
    "Order",
    "OutboxMessage",
    "Provider",
    "RateLimitCounter",
    "ProviderService",
    "ProviderZip",
    "RefreshToken",
    "Review",
    "Service",
    "ServiceCategory",
    "StaffMember",
    "StaffTask",
    "Ticket",
    "TicketAttachment",
    "TicketChange",
    "TicketMessage",
    "TimeOff",
    "Transaction",
    "User",
    "WaitlistEntry",
    "WeeklyHours",
]
