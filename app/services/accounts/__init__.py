"""Accounts: who is signed in (the Principal re-check every command makes), the account mapped from the
identity record, profiles, two-factor settings, the signed-in devices, e-mail change, data export and
deletion, the welcome overlays, the waitlist, and the operator's account tools.

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
    "_export": ("export_my_data",),
    "_lifecycle": (
        "cancel_account_deletion",
        "cancel_email_change",
        "delete_due_accounts",
        "dismiss_onboarding",
        "dismiss_vip_welcome",
        "get_account_status",
        "get_saved_address",
        "get_welcome",
        "remove_address",
        "request_account_deletion",
        "request_email_change",
        "save_address",
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
    "_sessions": (
        "describe_device",
        "list_sessions",
        "sign_out_other_sessions",
        "sign_out_session",
    ),
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
