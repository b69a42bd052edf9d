"""Accounts: who is signed in on a connection (`resolve_viewer`; the Principal re-check every command makes
and the account mapped from the identity record live in app/services/shared, and are on this surface too),
profiles, two-factor settings, the signed-in devices, e-mail change, data export and
deletion, the welcome overlays, the waitlist, and the operator's account tools.

Its public surface: the names below (`__all__`).
"""

from app.services.accounts._admin import (
    DEMO_PASSWORD,
    DEMO_PATIENT_DOMAIN,
    DEMO_PEOPLE,
    OWN_ROLE,
    demo_email,
    set_role,
    split_name,
)
from app.services.accounts._export import export_my_data
from app.services.accounts._lifecycle import (
    BANNED_FOREVER,
    DELETED_DOMAIN,
    cancel_account_deletion,
    cancel_email_change,
    delete_due_accounts,
    dismiss_onboarding,
    dismiss_vip_welcome,
    get_account_status,
    get_saved_address,
    get_welcome,
    remove_address,
    request_account_deletion,
    request_email_change,
    save_address,
)
from app.services.accounts._principals import Viewer, resolve_viewer
from app.services.accounts._profile import update_profile
from app.services.accounts._sessions import (
    describe_device,
    list_sessions,
    sign_out_other_sessions,
    sign_out_session,
)
from app.services.accounts._two_factor import get_two_factor, start_totp_setup
from app.services.accounts._waitlist import (
    approve_waitlist_entry,
    join_waitlist,
    list_waitlist,
)
from app.services.shared.accounts import account_of, map_account
from app.services.shared.signed_in import SESSION_ENDED, fully_authenticated, identity_of, require_identity

__all__ = [
    "BANNED_FOREVER",
    "DELETED_DOMAIN",
    "DEMO_PASSWORD",
    "DEMO_PATIENT_DOMAIN",
    "DEMO_PEOPLE",
    "OWN_ROLE",
    "SESSION_ENDED",
    "Viewer",
    "account_of",
    "approve_waitlist_entry",
    "cancel_account_deletion",
    "cancel_email_change",
    "delete_due_accounts",
    "demo_email",
    "describe_device",
    "dismiss_onboarding",
    "dismiss_vip_welcome",
    "export_my_data",
    "fully_authenticated",
    "get_account_status",
    "get_saved_address",
    "get_two_factor",
    "get_welcome",
    "identity_of",
    "join_waitlist",
    "list_sessions",
    "list_waitlist",
    "map_account",
    "remove_address",
    "request_account_deletion",
    "request_email_change",
    "require_identity",
    "resolve_viewer",
    "save_address",
    "set_role",
    "sign_out_other_sessions",
    "sign_out_session",
    "split_name",
    "start_totp_setup",
    "update_profile",
]
