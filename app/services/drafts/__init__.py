"""Form drafts: what someone typed into a form they would hate to lose (a new ticket, a reply, a review,
visit notes), kept in the database until they send it, so it survives a reconnect, a server restart and a
reconnect to another worker. Only the typist ever reads a draft back.

Its public surface: the names below (`__all__`).
"""

from app.services.drafts._drafts import DraftValues, discard_draft, load_draft, save_draft

__all__ = [
    "DraftValues",
    "discard_draft",
    "load_draft",
    "save_draft",
]
