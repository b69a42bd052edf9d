"""Corporate work (issue 17 part 3): the /corporate enquiry becomes a lead staff work in the portal
(`_leads`: new → contacted → proposal → won / lost, notes, assignment, every change audited); a won lead
becomes a contract with an organization (`_contracts`: sites, services at agreed prices, a period, draft →
active → ended), which its organization's admins and its booked providers read at /dashboard/contracts; a
contract's on-site event days book one Corporate Venue visit per provider through the booking service and
are invoiced to the organization through the invoices service (`_events`). Staff need manage_services
(and create_invoices to invoice). `_rules` holds the words, limits and pure checks.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_rules": ("LEAD_STEPS", "enquiry_problems", "offered_services"),
    "_leads": (
        "EnquiryInvalid",
        "add_lead_note",
        "get_lead",
        "list_lead_assignees",
        "list_leads",
        "submit_enquiry",
        "update_lead",
    ),
    "_contracts": (
        "create_contract",
        "get_contract",
        "list_contracts",
        "list_my_contracts",
        "set_contract_status",
        "update_contract",
    ),
    "_events": ("book_event_day", "invoice_event_day", "list_event_providers"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
