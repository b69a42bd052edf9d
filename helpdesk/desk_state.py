"""What the help desk shows, kept in the URL so a reload, the back button or a shared link keeps it:
`?tab=waiting&q=refund&ticket=<id>` (the tab, the search and the selected ticket)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from urllib.parse import urlencode

from app.services.support import TicketFilter

# SPEC §2 tabs, in order.
TABS: tuple[tuple[TicketFilter, str], ...] = (
    (TicketFilter.all, "All"),
    (TicketFilter.open, "Open"),
    (TicketFilter.mine, "My Tickets"),
    (TicketFilter.in_progress, "In Progress"),
    (TicketFilter.waiting, "Waiting"),
    (TicketFilter.resolved, "Resolved"),
)
MAX_SEARCH = 200


class _Keep(Enum):
    """`DeskState.href(ticket=...)` left out: the selected ticket stays (None drops it)."""

    KEEP = "keep"


def _first(params: dict[str, list[str]], name: str) -> str:
    return (params.get(name) or [""])[0].strip()


@dataclass(frozen=True)
class DeskState:
    path: str  # /staff/help-desk or /staff/helpdesk: links keep the spelling in use
    tab: TicketFilter = TicketFilter.all
    search: str = ""
    ticket: str | None = None

    @classmethod
    def from_params(cls, path: str, params: dict[str, list[str]]) -> DeskState:
        try:
            tab = TicketFilter(_first(params, "tab") or TicketFilter.all)
        except ValueError:
            tab = TicketFilter.all
        return cls(path, tab, _first(params, "q")[:MAX_SEARCH], _first(params, "ticket") or None)

    def href(
        self,
        *,
        tab: TicketFilter | None = None,
        search: str | None = None,
        ticket: str | None | _Keep = _Keep.KEEP,
    ) -> str:
        """This view's URL with the given tab, search and ticket (`ticket=None` drops it); defaults are left
        out."""
        state = replace(
            self,
            tab=self.tab if tab is None else tab,
            search=self.search if search is None else search,
            ticket=self.ticket if ticket is _Keep.KEEP else ticket,
        )
        query = {
            "tab": "" if state.tab == TicketFilter.all else state.tab.value,
            "q": state.search,
            "ticket": state.ticket or "",
        }
        encoded = urlencode({k: v for k, v in query.items() if v})
        return f"{state.path}?{encoded}" if encoded else state.path
