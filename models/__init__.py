"""SQLAlchemy tables, enums and pydantic schemas, one module per aggregate.

Importing this package registers every table on `Base.metadata` (Alembic and tests rely on it).
"""

from models.account import AccountState, SavedAddress
from models.admin import JobRun
from models.ads import AdDailyStat, AdFlight, AdFlightPlacement, AdImage, AdViewMark
from models.analytics import UnmetSearchDay
from models.assistant import AssistantConversation, AssistantMessage, AssistantPreference
from models.audit import AuditEntry
from models.automation import AutomationAttempt, AutomationDelivery, AutomationIntegration
from models.base import Base
from models.booking import Appointment, Order, Transaction
from models.bug_report import BugReport
from models.card_refund import CardRefund
from models.careers import CareerApplication, CareerFile, CareerPosting
from models.cart import CartItem
from models.catalog import Service, ServiceCategory
from models.checkout_credit import OrderCredit
from models.connect import ConnectAccount
from models.corporate import (
    CorporateContract,
    CorporateContractService,
    CorporateEventDay,
    CorporateEventVisit,
    CorporateLead,
    CorporateLeadNote,
)
from models.dispute import Dispute
from models.draft import FormDraft
from models.enrollment import (
    ApplicationEvent,
    CredentialDocument,
    DecisionReason,
    ProviderApplication,
    ProviderLicense,
)
from models.feature import FeatureSetting
from models.forum import (
    ForumCategory,
    ForumFlag,
    ForumLike,
    ForumMember,
    ForumModerationEntry,
    ForumPost,
    ForumTopic,
    ForumTopicUser,
)
from models.handbook import HandbookArticle
from models.help_center import HelpArticle, HelpVote
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
from models.invoice import Invoice, InvoiceCounter, InvoiceLine
from models.ledger import JournalEntry, LedgerAccount, PayoutRequest, Posting, VisitCharge
from models.mail import OutboxMessage
from models.not_found import NotFoundPath
from models.notification import Notification, NotificationPreference
from models.organization import Organization, OrganizationInvitation, OrganizationMember
from models.payment import CardPayment, PaymentCustomer, PaymentEvent
from models.provider import Provider, ProviderService, ProviderZip, Review, TimeOff, WeeklyHours
from models.ratelimit import RateLimitCounter
from models.service_request import ServiceRequest, ServiceRequestOffer
from models.staff import StaffMember, StaffPreference, StaffTask
from models.store import CartProduct, Product, ProductImage, StoreCardPayment, StoreOrder, StoreOrderLine
from models.support import CannedResponse, Ticket, TicketAttachment, TicketChange, TicketMessage
from models.waitlist import WaitlistEntry

__all__ = [
    "ConnectAccount",
    "CorporateContract",
    "CorporateContractService",
    "CorporateEventDay",
    "CorporateEventVisit",
    "CorporateLead",
    "CorporateLeadNote",
    "Organization",
    "OrganizationInvitation",
    "OrganizationMember",
    "ForumCategory",
    "ForumFlag",
    "ForumLike",
    "ForumMember",
    "ForumModerationEntry",
    "ForumPost",
    "ForumTopic",
    "ForumTopicUser",
    "AssistantConversation",
    "AssistantMessage",
    "AssistantPreference",
    "CareerApplication",
    "CareerFile",
    "CareerPosting",
    "AdDailyStat",
    "AdFlight",
    "AdFlightPlacement",
    "AdImage",
    "AdViewMark",
    "Product",
    "ServiceRequest",
    "ServiceRequestOffer",
    "ProductImage",
    "StoreOrder",
    "StoreCardPayment",
    "StoreOrderLine",
    "AccountState",
    "ApplicationEvent",
    "Appointment",
    "AuditEntry",
    "AutomationAttempt",
    "AutomationDelivery",
    "AutomationIntegration",
    "AuthSession",
    "Base",
    "BugReport",
    "CannedResponse",
    "CardRefund",
    "CartItem",
    "OrderCredit",
    "CartProduct",
    "CredentialDocument",
    "DecisionReason",
    "Dispute",
    "FlowState",
    "FeatureSetting",
    "FormDraft",
    "JobRun",
    "Invoice",
    "InvoiceCounter",
    "InvoiceLine",
    "HandbookArticle",
    "HelpArticle",
    "HelpVote",
    "Identity",
    "MfaAmrClaim",
    "MfaChallenge",
    "MfaFactor",
    "NotFoundPath",
    "Notification",
    "NotificationPreference",
    "CardPayment",
    "PaymentCustomer",
    "PaymentEvent",
    "OneTimeToken",
    "Order",
    "OutboxMessage",
    "Provider",
    "ProviderApplication",
    "ProviderLicense",
    "RateLimitCounter",
    "ProviderService",
    "ProviderZip",
    "RefreshToken",
    "Review",
    "SavedAddress",
    "Service",
    "ServiceCategory",
    "StaffMember",
    "StaffPreference",
    "StaffTask",
    "Ticket",
    "TicketAttachment",
    "TicketChange",
    "TicketMessage",
    "TimeOff",
    "UnmetSearchDay",
    "Transaction",
    "VisitCharge",
    "JournalEntry",
    "LedgerAccount",
    "PayoutRequest",
    "Posting",
    "User",
    "WaitlistEntry",
    "WeeklyHours",
]
