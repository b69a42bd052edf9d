"""The patient's phone number, for the provider of their visit: shown only to that provider, only while the
visit is still ahead or under way, and only when asked for — each time written to the audit log with the
provider's address and browser (HIPAA §164.312(b)). Nobody else reads it through a visit: a patient's
contact details do not travel with the visit lists, they are fetched one visit at a time."""

from __future__ import annotations

from dataclasses import dataclass

import phonenumbers
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.principal import Principal
from app.services.appointments._lifecycle import OPEN, PROVIDER_ONLY, Party, _party, _visit
from app.services.errors import PermissionDenied, ValidationFailed
from app.services.shared.accounts import account_of
from app.services.shared.signed_in import require_account
from models.audit import AuditAction
from models.identity import User

VISIT_CLOSED = "The patient's phone number is only shown for visits that are still ahead or under way."


@dataclass(frozen=True)
class PatientPhone:
    """`e164` for a tel: link and `display` as people write it ('(212) 555-0100'); both '' when the patient
    gave no number."""

    e164: str
    display: str


def _display(e164: str) -> str:
    if not e164:
        return ""
    try:
        number = phonenumbers.parse(e164)
    except phonenumbers.NumberParseException:
        return e164
    region = phonenumbers.region_code_for_number(number)
    style = (
        phonenumbers.PhoneNumberFormat.NATIONAL
        if region == "US"
        else phonenumbers.PhoneNumberFormat.INTERNATIONAL
    )
    return phonenumbers.format_number(number, style)


async def show_patient_phone(*, session: AsyncSession, actor: Principal, appointment_id: str) -> PatientPhone:
    """The phone number of the visit's patient, for the visit's own provider; audited as `patient_phone_view`."""
    account = await require_account(session=session, actor=actor)
    row, provider = await _visit(session, appointment_id)
    if await _party(session, account, row, provider) is not Party.provider:
        raise PermissionDenied(PROVIDER_ONLY)
    if row.status not in OPEN:
        raise ValidationFailed(VISIT_CLOSED)
    patient = await session.get(User, row.patient_id)
    e164 = account_of(patient).phone_number if patient is not None else ""
    await audit.record_by(
        session=session,
        account=account,
        actor=actor,
        action=AuditAction.patient_phone_view,
        target=f"appointment {row.id}",
        details={"patient_id": row.patient_id, "given": bool(e164)},
    )
    return PatientPhone(e164=e164, display=_display(e164))
