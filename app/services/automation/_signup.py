"""patient.signup: a new account, whichever way it was made (the identity service's sign-up, a one-time
code or OpenID Connect first sign-in, an invitation), queues the event in the transaction that creates it.

The identity core sits below the domain and cannot call it, so the domain watches the session instead: new
`users` rows are noted at flush, and just before that transaction commits, those that are patients (staff
accounts get their role in the same transaction) get their event row, written by the same commit.
`watch_signups()` installs the two listeners once, at startup (medivisit/main.py).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.services.automation._access import INTEGRATION_ID
from app.services.automation._emit import delivery_for
from app.settings import get_settings
from models.account import Role
from models.automation import AutomationIntegration
from models.identity import User

_NEW_USERS = "automation_new_users"


def _note_new_users(session: Session, _context: object, _instances: object) -> None:
    added = [obj.id for obj in session.new if isinstance(obj, User)]
    if added:
        session.info.setdefault(_NEW_USERS, []).extend(added)


def _queue_signups(session: Session) -> None:
    user_ids = session.info.pop(_NEW_USERS, None)
    if not user_ids:
        return
    with session.no_autoflush:
        integration = session.get(AutomationIntegration, INTEGRATION_ID)
        if integration is None or not integration.connected:
            return
        now = datetime.now(UTC)
        for user_id in dict.fromkeys(user_ids):
            user = session.get(User, user_id)
            role = (user.raw_app_meta_data or {}).get("role") if user is not None else None
            if user is None or role not in (None, "", Role.patient.value):
                continue
            if not role and (user.email or "").lower() in get_settings().owner_email_set:
                continue  # OWNER_EMAILS: an owner, not a patient
            delivery = delivery_for(integration, "patient.signup", {"userId": user.id}, None, now)
            if delivery is not None:
                session.add(delivery)


def _forget(session: Session) -> None:
    session.info.pop(_NEW_USERS, None)


def watch_signups() -> None:
    """Install the listeners (idempotent)."""
    if not event.contains(Session, "before_flush", _note_new_users):
        event.listen(Session, "before_flush", _note_new_users)
        event.listen(Session, "before_commit", _queue_signups)
        event.listen(Session, "after_rollback", _forget)
