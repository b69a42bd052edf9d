"""The audit log: an append-only record of security-relevant events (sign-ins, failed sign-ins, sign-outs,
password and MFA changes, role changes, invitations) and of staff work (viewing a patient's records, ticket
assignment and status changes, staff changes).

Rows are only ever inserted. The migration adds database triggers that refuse UPDATE and DELETE, so not even
a bug (or someone with the application's credentials) can quietly rewrite history. `actor_id` is a plain
column, not a foreign key: the record outlives the account it mentions. `details` never holds secrets
(passwords, tokens, codes, links); `app.audit.record` drops such keys.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, created_at_column, id_column
from models.identity import as_utc


class AuditAction(enum.StrEnum):
    sign_in = "sign_in"  # details.method: password, otp, magiclink, recovery, invite, email/signup
    sign_in_failed = "sign_in_failed"  # details.reason: invalid_credentials, user_banned, email_not_confirmed
    sign_out = "sign_out"  # details.scope: global, local, others
    password_change = "password_change"
    mfa_enroll = "mfa_enroll"
    mfa_verify = "mfa_verify"
    mfa_unenroll = "mfa_unenroll"
    account_create = "account_create"  # details.role
    role_change = "role_change"  # details.from, details.to
    waitlist_approve = "waitlist_approve"
    # Staff portal (issue 5): who looked at or changed what.
    patient_records_view = "patient_records_view"  # target: the patient's user id
    # PHI reads by staff (issue 10, HIPAA §164.312(b)), with the client's address and browser:
    ticket_view = "ticket_view"  # target: "ticket #N"; details.customer (name), details.customer_id
    attachment_download = (
        "attachment_download"  # target: the file name; details.ticket, ticket_id, attachment_id
    )
    patient_phone_view = "patient_phone_view"  # target: "appointment <id>"; details.patient_id, details.given
    ticket_assign = "ticket_assign"  # details.from, details.to (user ids)
    ticket_status = "ticket_status"  # details.from, details.to
    staff_add = "staff_add"  # details.role, details.permissions
    staff_update = "staff_update"  # details: the changed fields
    staff_remove = "staff_remove"


class AuditEntry(Base):
    __tablename__ = "audit_log"

    id: Mapped[str] = id_column()
    actor_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    actor_email: Mapped[str] = mapped_column(String(320), default="")
    action: Mapped[str] = mapped_column(String(64), index=True)
    target: Mapped[str] = mapped_column(String(320), default="")
    ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(512), default="")
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = created_at_column()


class AuditEntryRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    actor_id: str | None
    actor_email: str
    action: str
    target: str
    ip: str
    user_agent: str
    details: dict[str, Any]
    created_at: datetime

    @classmethod
    def of(cls, row: AuditEntry) -> AuditEntryRead:
        return cls(
            id=row.id,
            actor_id=row.actor_id,
            actor_email=row.actor_email or "",
            action=row.action,
            target=row.target or "",
            ip=row.ip or "",
            user_agent=row.user_agent or "",
            details=dict(row.details or {}),
            created_at=as_utc(row.created_at),
        )
