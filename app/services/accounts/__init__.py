"""Accounts: who is signed in (the Principal re-check every command makes), the account mapped from the
identity record, profiles, two-factor settings, the waitlist, and the operator's account tools.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_admin": (
        "DEMO_PASSWORD",
        "DEMO_PEOPLE",
        "create_account",
        "create_demo_accounts",
        "demo_email",
        "mark_enrollment_complete",
        "set_role",
        "split_name",
    ),
    "_mapping": (
        "account_of",
        "get_account",
        "map_account",
    ),
    "_principals": (
        "SESSION_ENDED",
        "Viewer",
        "fully_authenticated",
        "identity_of",
        "require_identity",
        "resolve_viewer",
    ),
    "_profile": ("update_profile",),
    "_two_factor": (
        "get_two_factor",
        "start_totp_setup",
    ),
    "_waitlist": (
        "approve_waitlist_entry",
        "join_waitlist",
        "list_waitlist",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
