"""The managed list of decision reasons: the starting set, added by `python -m medivisit seed` (reference
data, like the service catalog: the migration creates the table empty). Staff may reword or retire them
later; existing rows are never overwritten."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.enrollment import DecisionReason, ReasonUse

REASONS = (  # (code, label, advice, applies to, position)
    (
        "license_number_mismatch",
        "The licence number does not match the state board’s record",
        "Check the licence number and issuing state against your board’s record and correct them.",
        "both",
        10,
    ),
    (
        "license_expired",
        "The licence has expired",
        "Renew your licence and upload the renewed licence with its new expiry date.",
        "both",
        20,
    ),
    (
        "license_state_mismatch",
        "The licence was not issued in the state you practise in",
        "Add a licence issued by the state of your service area, or change your ZIP codes.",
        "both",
        30,
    ),
    (
        "document_unreadable",
        "A document is unreadable",
        "Upload a clear scan or photo of the whole document (PDF, PNG or JPEG), with every corner visible.",
        "information",
        40,
    ),
    (
        "name_mismatch",
        "The name on a document does not match your application",
        "Use your legal name as it appears on your licence and ID, or upload a document showing the name change.",
        "both",
        50,
    ),
    (
        "dates_mismatch",
        "The dates on a document do not match the form",
        "Enter the issue and expiry dates exactly as printed on the document.",
        "information",
        60,
    ),
    (
        "npi_mismatch",
        "The NPI does not match your name in the NPPES registry",
        "Check your NPI in the NPPES registry and enter the number registered to you.",
        "both",
        70,
    ),
    (
        "insurance_missing",
        "Proof of malpractice insurance is missing or does not cover you",
        "Upload your malpractice insurance certificate showing your name and the coverage dates.",
        "both",
        80,
    ),
    (
        "cpr_missing",
        "The CPR/BLS certificate is missing or expired",
        "Upload a current CPR/BLS certificate.",
        "both",
        90,
    ),
    (
        "id_invalid",
        "The government ID is missing, expired or not accepted",
        "Upload a current driver’s licence, state ID or passport.",
        "both",
        100,
    ),
    (
        "scope_not_supported",
        "We do not offer visits for this type of provider yet",
        "You may apply again when we open to your profession.",
        "rejection",
        110,
    ),
    (
        "area_not_served",
        "We do not serve your area yet",
        "You may apply again when we open in your area.",
        "rejection",
        120,
    ),
    (
        "disciplinary_action",
        "The licensing board records a disciplinary action",
        "Contact us if you believe this is a mistake.",
        "rejection",
        130,
    ),
    ("other", "Another reason (see the message)", "Read the reviewer’s message below.", "both", 1000),
)


async def ensure_decision_reasons(*, session: AsyncSession) -> list[str]:
    """Add the starting reasons that are missing (by code); returns the codes added."""
    existing = set((await session.scalars(select(DecisionReason.code))).all())
    added = []
    for code, label, advice, use, position in REASONS:
        if code not in existing:
            session.add(
                DecisionReason(
                    code=code,
                    label=label,
                    advice=advice,
                    applies_to=ReasonUse(use),
                    position=position,
                    active=True,
                )
            )
            added.append(code)
    await session.flush()
    return added
