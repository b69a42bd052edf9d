"""Who a command acts for: the one actor type every service takes.

A `Principal` is one of three things, never `None` and never a snapshot of an account:
- a signed-in user: the identity session the browser holds (the user id and the session id, never a token).
  Services re-check it against the database on every call (`app.services.accounts.require_account`), so a
  sign-out, a revoked session, a ban or a demotion stops an open tab at once;
- a visitor: an anonymous browser, known only by its `mv_visitor` cookie (its cart, nothing else);
- `SYSTEM`: the command line, seeders and background jobs, which act on the operator's authority.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PrincipalKind(StrEnum):
    user = "user"
    visitor = "visitor"
    system = "system"


@dataclass(frozen=True)
class Principal:
    kind: PrincipalKind
    user_id: str = ""
    session_id: str = ""
    visitor_id: str = ""

    @classmethod
    def user(cls, *, user_id: str, session_id: str) -> Principal:
        return cls(PrincipalKind.user, user_id=user_id, session_id=session_id)

    @classmethod
    def visitor(cls, visitor_id: str) -> Principal:
        return cls(PrincipalKind.visitor, visitor_id=visitor_id)

    @property
    def is_user(self) -> bool:
        return self.kind is PrincipalKind.user

    @property
    def is_system(self) -> bool:
        return self.kind is PrincipalKind.system

    def __repr__(self) -> str:  # never print a session id into a log
        return f"Principal({self.kind.value}, user_id={self.user_id!r})"


SYSTEM = Principal(PrincipalKind.system)
