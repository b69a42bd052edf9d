"""Organizations and teams (issue 17 part 2): a company client or a provider agency, its members (admin or
member), invitations by e-mail (a link with a random token, of which only a keyed hash is kept, expiring
after INVITATION_DAYS; accepting needs the invited address's own account), leaving (never the last admin)
and removal by an admin (`_team`); staff with manage_services list organizations, see their members,
set one up with its first admin, rename it and remove a member (`_staff`). One organization per person.

Its public surface: the names below (`__all__`).
"""

from app.services.organizations._rules import (
    INVITATION_DAYS,
    clean_email,
)
from app.services.organizations._staff import (
    create_organization_for,
    get_organization,
    list_organizations,
    rename_organization,
    staff_remove_member,
)
from app.services.organizations._team import (
    accept_invitation,
    get_invitation,
    get_my_team,
    invite_member,
    leave_organization,
    remove_member,
    revoke_invitation,
)
from models.organization import MAX_ORG_NAME

__all__ = [
    "INVITATION_DAYS",
    "MAX_ORG_NAME",
    "accept_invitation",
    "clean_email",
    "create_organization_for",
    "get_invitation",
    "get_my_team",
    "get_organization",
    "invite_member",
    "leave_organization",
    "list_organizations",
    "remove_member",
    "rename_organization",
    "revoke_invitation",
    "staff_remove_member",
]
