"""Who a command acts for: the one actor type every service takes.

A `Principal` is one of three things, never `None` and never a snapshot of an account:
- a signed-in user: the identity session the browser holds (the user id and the session id, never a token).
  Services re-check it against the database on every call (`app.services.accounts.require_account`), so a
  sign-out, a revoked session, a ban or a demotion stops an open tab at once;
- a visitor: an anonymous browser, known only by its `mv_visitor` cookie (its cart, nothing else);
- `SYSTEM`: the command line, seeders and background jobs, which act on the operator's authority.

A user or visitor principal may carry where the connection comes from (`ip`, `user_agent`): the page's
websocket or the HTTP request it was built for. Services write them into audit entries (who read a patient's
records, from where); they never decide access.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    ip: str = ""
    user_agent: str = ""

    @classmethod
    def user(cls, *, user_id: str, session_id: str) -> Principal:
        return cls(PrincipalKind.user, user_id=user_id, session_id=session_id)

    @classmethod
    def visitor(cls, visitor_id: str) -> Principal:
        return cls(PrincipalKind.visitor, visitor_id=visitor_id)

    def from_client(self, *, ip: str, user_agent: str) -> Principal:
        """The same actor, noted as acting from this client address and browser."""
        return replace(self, ip=(ip or "")[:64], user_agent=(user_agent or "")[:512])

    @property
    def is_user(self) -> bool:
        return self.kind is PrincipalKind.user

    @property
    def is_system(self) -> bool:
        return self.kind is PrincipalKind.system

    def __repr__(self) -> str:  # never print a session id into a log
        return f"Principal({self.kind.value}, user_id={self.user_id!r})"


SYSTEM = Principal(PrincipalKind.system)
