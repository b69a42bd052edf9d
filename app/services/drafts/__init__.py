"""Form drafts: what someone typed into a form they would hate to lose (a new ticket, a reply, a review,
visit notes), kept in the database until they send it, so it survives a reconnect, a server restart and a
reconnect to another worker. Only the typist ever reads a draft back.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_drafts": (
        "DraftValues",
        "discard_draft",
        "load_draft",
        "save_draft",
    ),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
