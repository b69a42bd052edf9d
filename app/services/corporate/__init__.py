"""Corporate work (issue 17 part 3): the /corporate enquiry becomes a lead staff work in the portal
(`_leads`: new → contacted → proposal → won / lost, notes, assignment, every change audited); a won lead
becomes a contract with an organization (`_contracts`: sites, services at agreed prices, a period, draft →
active → ended), which its organization's admins and its booked providers read at /dashboard/contracts; a
contract's on-site event days book one Corporate Venue visit per provider through the booking service and
are invoiced to the organization through the invoices service (`_events`). Staff need manage_services
(and create_invoices to invoice). `_rules` holds the words, limits and pure checks.

Its public surface: the names below (`__all__`).
"""

from app.services.corporate._contracts import (
    create_contract,
    get_contract,
    list_contracts,
    list_my_contracts,
    set_contract_status,
    update_contract,
)
from app.services.corporate._events import book_event_day, invoice_event_day, list_event_providers
from app.services.corporate._leads import (
    EnquiryInvalid,
    add_lead_note,
    get_lead,
    list_lead_assignees,
    list_leads,
    submit_enquiry,
    update_lead,
)
from app.services.corporate._rules import LEAD_STEPS, enquiry_problems, offered_services

__all__ = [
    "EnquiryInvalid",
    "LEAD_STEPS",
    "add_lead_note",
    "book_event_day",
    "create_contract",
    "enquiry_problems",
    "get_contract",
    "get_lead",
    "invoice_event_day",
    "list_contracts",
    "list_event_providers",
    "list_lead_assignees",
    "list_leads",
    "list_my_contracts",
    "offered_services",
    "set_contract_status",
    "submit_enquiry",
    "update_contract",
    "update_lead",
]
