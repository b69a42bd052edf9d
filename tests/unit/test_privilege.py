"""You hand out only what you hold (issue 27, privilege), on a real database (and PostgreSQL with
TEST_DATABASE_URL): the admin console cannot make anyone Management or HR, nor change a staff account;
HR cannot demote, deactivate or remove a Management member; staff with toggle_features cannot reset the
business settings; every refused escalation is in the audit log although its command was rolled back; the
audit log names the people behind its ids; the command line (SYSTEM) still gives any role."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app import db as app_db
from app.principal import SYSTEM
from app.services.accounts import set_role
from app.services.accounts.internal import get_account
from app.services.admin import change_user_role, disable_user, force_sign_out, get_user, set_user_flags
from app.services.errors import PermissionDenied
from app.services.features import reset_feature, set_feature
from app.services.staff import get_staff_access, read_audit_log, remove_staff, update_staff
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.feature import FeatureSetting
from models.staff import ROLE_GRANTS, Permission, StaffMember
from tests.factories import ServiceCall, person, present, run

NY = "America/New_York"


async def refusals(target_email: str) -> list[AuditEntry]:
    async with app_db.unit_of_work() as session:
        rows = await session.scalars(
            select(AuditEntry)
            .where(
                AuditEntry.action == AuditAction.privilege_refused.value, AuditEntry.target == target_email
            )
            .order_by(AuditEntry.created_at)
        )
        return list(rows)


async def refused(fn, **kwargs) -> str:  # noqa: ANN001
    with pytest.raises(PermissionDenied) as caught:
        await run(fn, **kwargs)
    return caught.value.message


# ---- the admin console ------------------------------------------------------------------------------
@pytest.mark.parametrize("role", ["management", "hr", "support"])
async def test_an_admin_cannot_make_a_patient_staff_and_the_attempt_is_audited(configured, role) -> None:
    admin, patient = await person(Role.admin, "Adrian Cole"), await person(Role.patient, "Jordan Lee")

    message = await refused(change_user_role, actor=admin.actor, user_id=patient.account.id, role=role)

    assert message.startswith(f"You cannot give the {role} role: it holds permissions you do not hold:")
    assert present(await run(get_account, user_id=patient.account.id)).role == Role.patient
    [entry] = await refusals(patient.account.email)  # kept although the command was rolled back
    assert (entry.actor_id, entry.actor_email) == (admin.account.id, admin.account.email)
    assert entry.details["attempt"] == f"give the {role} role"
    assert set(entry.details["missing"]) == {p.value for p in ROLE_GRANTS[Role(role)]}
    # The console offers only what the admin may give; the admin still manages patients and providers.
    shown = await run(get_user, actor=admin.actor, user_id=patient.account.id)
    assert (shown.roles_grantable, shown.may_manage) == ([Role.provider], True)
    assert (
        await run(change_user_role, actor=admin.actor, user_id=patient.account.id, role="provider")
    ).role == Role.provider


@pytest.mark.parametrize("role", [Role.management, Role.hr, Role.support])
async def test_an_admin_cannot_demote_disable_flag_or_sign_out_a_staff_account(configured, role) -> None:
    admin, owner = await person(Role.admin), await person(Role.owner)
    member = await person(role, "Morgan Hayes")
    attempts: dict[str, ServiceCall] = {
        "give the patient role": (change_user_role, {"role": "patient"}),
        "disable the account": (disable_user, {}),
        "change the account's flags": (set_user_flags, {"is_vip": True}),
        "sign the account out everywhere": (force_sign_out, {}),
    }
    for fn, kwargs in attempts.values():
        message = await refused(fn, actor=admin.actor, user_id=member.account.id, **kwargs)
        assert message.startswith("Only an owner can change Morgan Hayes: they hold permissions")
    assert [e.details["attempt"] for e in await refusals(member.account.email)] == list(attempts)
    account = present(await run(get_account, user_id=member.account.id))
    assert (account.role, account.is_vip) == (role, False)
    await run(get_staff_access, actor=member.actor)  # still signed in, still staff
    shown = await run(get_user, actor=admin.actor, user_id=member.account.id)
    assert (shown.roles_grantable, shown.may_manage) == ([], False)
    assert (
        shown.why_not == "This account holds staff permissions you do not hold: only an owner can change it."
    )
    # The owner may.
    assert (await run(disable_user, actor=owner.actor, user_id=member.account.id)).disabled


async def test_the_command_line_gives_any_role(configured) -> None:
    patient = await person(Role.patient)
    for role in (Role.management, Role.admin, Role.owner, Role.patient):
        assert (await run(set_role, actor=SYSTEM, email=patient.account.email, role=role)).role == role
    assert await refusals(patient.account.email) == []


# ---- staff management -------------------------------------------------------------------------------
async def test_hr_cannot_demote_deactivate_or_remove_a_management_member(configured) -> None:
    hr, owner = await person(Role.hr, "Harper Quinn"), await person(Role.owner)
    manager = await person(Role.management, "Morgan Hayes")
    support = await person(Role.support, "Sam Rivera")
    attempts: dict[str, ServiceCall] = {
        "give the support role": (update_staff, {"role": "support"}),
        "deactivate": (update_staff, {"active": False}),
        "change the extra permissions": (update_staff, {"extra_permissions": []}),
        "remove from the staff": (remove_staff, {}),
    }
    for fn, kwargs in attempts.values():
        message = await refused(fn, actor=hr.actor, user_id=manager.account.id, **kwargs)
        assert message.startswith(
            "Only an owner can change Morgan Hayes: they hold permissions you do not hold:"
        )
        assert "view_revenue" in message
    assert [e.details["attempt"] for e in await refusals(manager.account.email)] == list(attempts)
    access = await run(get_staff_access, actor=manager.actor)
    assert (access.role, access.permissions) == (Role.management, ROLE_GRANTS[Role.management])
    # HR still runs the team it may: a support member (nothing HR lacks).
    assert not (await run(update_staff, actor=hr.actor, user_id=support.account.id, active=False)).active
    # An inactive manager still holds the role's permissions: reactivating them is the owner's.
    await run(update_staff, actor=owner.actor, user_id=manager.account.id, active=False)
    await refused(update_staff, actor=hr.actor, user_id=manager.account.id, active=True)
    assert (await run(update_staff, actor=owner.actor, user_id=manager.account.id, active=True)).active
    assert (await run(remove_staff, actor=owner.actor, user_id=manager.account.id)).role == Role.management


async def test_a_member_with_a_permission_hr_lacks_is_an_owners_to_change(configured) -> None:
    hr = await person(Role.hr)
    support = await person(Role.support, "Sam Rivera", extras=(Permission.view_revenue,))
    message = await refused(remove_staff, actor=hr.actor, user_id=support.account.id)
    assert (
        message == "Only an owner can change Sam Rivera: they hold permissions you do not hold: view_revenue."
    )


async def test_granting_a_permission_or_the_owner_role_one_lacks_is_refused_and_audited(configured) -> None:
    hr, support = await person(Role.hr, "Harper Quinn"), await person(Role.support, "Sam Rivera")

    message = await refused(
        update_staff, actor=hr.actor, user_id=support.account.id, extra_permissions=["toggle_features"]
    )
    assert message == "You cannot grant permissions you do not hold: toggle_features."
    await refused(update_staff, actor=hr.actor, user_id=support.account.id, role="owner")

    entries = await refusals(support.account.email)
    assert [(e.details["attempt"], e.details["missing"]) for e in entries] == [
        ("grant toggle_features", ["toggle_features"]),
        (
            "give the owner role",
            ["administration rights", *[p.value for p in Permission if p not in ROLE_GRANTS[Role.hr]]],
        ),
    ]
    async with app_db.unit_of_work() as session:
        row = await session.scalar(select(StaffMember).where(StaffMember.user_id == support.account.id))
    assert row.extra_permissions == []
    # The audit log shows the people by name, the ids kept beside them.
    owner = await person(Role.owner)
    page = await run(
        read_audit_log, actor=owner.actor, time_zone=NY, action=AuditAction.privilege_refused.value
    )
    shown = [e for e in page.entries if e.target == support.account.email]
    assert {(e.actor_name, e.actor_id, e.target_name) for e in shown} == {
        ("Harper Quinn", hr.account.id, "Sam Rivera")
    }


async def test_the_audit_log_names_a_target_given_by_id(configured) -> None:
    owner, patient = await person(Role.owner, "Olivia Bennett"), await person(Role.patient, "Jordan Lee")
    async with app_db.unit_of_work() as session:
        from app import audit

        await audit.record(
            session=session,
            actor_id=owner.account.id,
            actor_email=owner.account.email,
            action=AuditAction.patient_records_view,
            target=patient.account.id,
            ip="",
            user_agent="",
        )
    page = await run(read_audit_log, actor=owner.actor, time_zone=NY, action="patient_records_view")
    [entry] = page.entries
    assert (entry.actor_name, entry.target_name, entry.target) == (
        "Olivia Bennett",
        "Jordan Lee",
        patient.account.id,
    )


# ---- business settings ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "value"),
    [("support_email", "help@medivisit.test"), ("travel_buffer_minutes", 45), ("forum_flag_threshold", 7)],
)
async def test_toggle_features_does_not_reset_the_business_settings(configured, key, value) -> None:
    owner = await person(Role.owner)
    toggler = await person(Role.support, extras=(Permission.toggle_features,))
    await run(set_feature, actor=owner.actor, key=key, value=value)

    message = await refused(reset_feature, actor=toggler.actor, key=key)

    assert message == "Only owners and admins change the business settings."
    async with app_db.unit_of_work() as session:
        assert (await session.get(FeatureSetting, key)).value in (value, str(value))
    await run(reset_feature, actor=owner.actor, key=key)
    async with app_db.unit_of_work() as session:
        assert await session.get(FeatureSetting, key) is None
