"""Organizations and teams (issue 17 part 2): a company client or a provider agency, its members (admin or
member), invitations by e-mail (a link with a random token, of which only a keyed hash is kept, expiring
after INVITATION_DAYS; accepting needs the invited address's own account), leaving (never the last admin)
and removal by an admin (`_team`); staff with manage_services list organizations, see their members,
set one up with its first admin, rename it and remove a member (`_staff`). One organization per person.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_rules": ("INVITATION_DAYS", "MAX_ORG_NAME"),
    "_team": (
        "accept_invitation",
        "get_invitation",
        "get_my_team",
        "invite_member",
        "leave_organization",
        "remove_member",
        "revoke_invitation",
    ),
    "_staff": (
        "create_organization_for",
        "get_organization",
        "list_organizations",
        "rename_organization",
        "staff_remove_member",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
