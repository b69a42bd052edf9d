"""Accounts: who is signed in (the Principal re-check every command makes), the account mapped from the
identity record, profiles, two-factor settings, the waitlist, and the operator's account tools.

The public surface of the domain: screens, HTTP routes and the assembly import from here only; the
`_*` modules are private (other domains may import them directly to avoid import cycles)."""

from __future__ import annotations

from app.services.accounts._admin import (
    DEMO_PASSWORD,
    DEMO_PEOPLE,
    create_account,
    create_demo_accounts,
    demo_email,
    mark_enrollment_complete,
    set_role,
    split_name,
)
from app.services.accounts._mapping import (
    account_of,
    get_account,
    map_account,
)
from app.services.accounts._principals import (
    SESSION_ENDED,
    Viewer,
    fully_authenticated,
    identity_of,
    require_identity,
    resolve_viewer,
)
from app.services.accounts._profile import (
    update_profile,
)
from app.services.accounts._two_factor import (
    TotpSetup,
    get_two_factor,
    start_totp_setup,
)
from app.services.accounts._waitlist import (
    approve_waitlist_entry,
    join_waitlist,
    list_waitlist,
)

__all__ = [
    "DEMO_PASSWORD",
    "DEMO_PEOPLE",
    "SESSION_ENDED",
    "TotpSetup",
    "Viewer",
    "account_of",
    "approve_waitlist_entry",
    "create_account",
    "create_demo_accounts",
    "demo_email",
    "fully_authenticated",
    "get_account",
    "get_two_factor",
    "identity_of",
    "join_waitlist",
    "list_waitlist",
    "map_account",
    "mark_enrollment_complete",
    "require_identity",
    "resolve_viewer",
    "set_role",
    "split_name",
    "start_totp_setup",
    "update_profile",
]
