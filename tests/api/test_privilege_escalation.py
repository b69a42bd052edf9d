"""A user cannot make themselves an owner (or any privileged role) through metadata they can write.

The original product read the role from user-writable metadata, so anyone could sign up as an owner. Here
the official client tries both ways in; the account the product sees must stay a plain patient.
"""

from __future__ import annotations

from app.services.accounts import map_account
from models.account import Role
from tests.api.conftest import gotrue, unique_email

ESCALATION = {"role": "owner", "is_master_admin": True, "is_vip": True, "has_free_access": True}


def _product_account(user):  # noqa: ANN001, ANN202 - a supabase_auth User
    return map_account(
        user_id=user.id, email=user.email, app_metadata=user.app_metadata, user_metadata=user.user_metadata
    )


def _assert_plain_patient(account) -> None:  # noqa: ANN001
    assert account.role == Role.patient
    assert not (account.is_master_admin or account.is_vip or account.has_free_access)


def test_sign_up_with_a_role_in_metadata_grants_nothing(auth_server) -> None:
    client = gotrue(auth_server)
    signed_up = client.sign_up(
        {"email": unique_email("escalate"), "password": "secret-1234", "options": {"data": ESCALATION}}
    )
    assert signed_up.user.user_metadata["role"] == "owner"  # stored as the user's own data...
    assert "role" not in signed_up.user.app_metadata  # ...but never where the product reads roles from
    _assert_plain_patient(_product_account(client.get_user().user))


def test_update_user_with_a_role_in_metadata_grants_nothing(auth_server) -> None:
    client = gotrue(auth_server)
    client.sign_up({"email": unique_email("escalate2"), "password": "secret-1234"})
    updated = client.update_user({"data": ESCALATION}).user
    assert updated.user_metadata["is_master_admin"] is True
    _assert_plain_patient(_product_account(updated))
    # A refreshed token carries the same, unprivileged app_metadata.
    refreshed = client.refresh_session()
    assert "role" not in refreshed.user.app_metadata
