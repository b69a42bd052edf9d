"""SPEC §9's automation event types, named `group.action` (Standard Webhooks' dot-delimited types), and
which of them can carry clinical text (left out unless the owner opts in for that type)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EventType:
    name: str  # "appointment.created"
    label: str  # "Created"
    has_details: bool = False  # carries clinical text when opted in (service, notes, ticket text)

    @property
    def group(self) -> str:
        return self.name.partition(".")[0]


GROUP_LABELS = {
    "provider": "Provider",
    "patient": "Patient",
    "appointment": "Appointment",
    "payment": "Payment",
    "system": "System",
    "support": "Support",
}

EVENT_TYPES: tuple[EventType, ...] = (
    EventType("provider.signup", "Signup"),
    EventType("provider.onboarding_started", "Onboarding started"),
    EventType("provider.onboarding_completed", "Onboarding completed"),
    EventType("provider.document_uploaded", "Document uploaded"),
    EventType("provider.verification_updated", "Verification updated"),
    EventType("provider.account_activated", "Account activated"),
    EventType("provider.account_deactivated", "Account deactivated"),
    EventType("patient.signup", "Signup"),
    EventType("patient.profile_completed", "Profile completed"),
    EventType("patient.membership_started", "Membership started"),
    EventType("patient.membership_updated", "Membership updated"),
    EventType("patient.membership_canceled", "Membership canceled"),
    EventType("appointment.created", "Created", has_details=True),
    EventType("appointment.updated", "Updated", has_details=True),
    EventType("appointment.canceled", "Canceled", has_details=True),
    EventType("appointment.completed", "Completed", has_details=True),
    EventType("appointment.reminder_due", "Reminder due", has_details=True),
    EventType("appointment.feedback_due", "Feedback due", has_details=True),
    EventType("payment.succeeded", "Succeeded"),
    EventType("payment.failed", "Failed"),
    EventType("payment.refunded", "Refunded"),
    EventType("payment.invoice_created", "Invoice created"),
    EventType("payment.subscription_updated", "Subscription updated"),
    EventType("system.error", "Error"),
    EventType("system.report_generation", "Report generation"),
    EventType("system.data_integrity_check", "Data integrity check"),
    EventType("system.maintenance_scheduled", "Maintenance scheduled"),
    EventType("support.ticket_created", "Ticket created", has_details=True),
    EventType("support.ticket_updated", "Ticket updated", has_details=True),
    EventType("support.ticket_resolved", "Ticket resolved", has_details=True),
    EventType("support.ai_analysis_requested", "AI analysis requested", has_details=True),
)
BY_NAME = {event.name: event for event in EVENT_TYPES}
TEST_EVENT = "system.connection_test"  # Test connection's event: always sent, never switched off
