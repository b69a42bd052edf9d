"""The AI healthcare assistant (issue 16 part 3): a chat that checks every message for red flags first
(911 / 988, `app.services.safety`), refuses diagnoses and doses, and answers only from the catalog, the help
center and the provider directory, with source links (`_answer`); phrased by an optional OpenAI-compatible
language model from those passages only (`_model`); a signed-in user's stored conversations and
preferences (`_chat`); and the help desk's "AI analysis requested" reply drafts (`_tickets`).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_answer": ("NOT_FOUND", "REFUSAL", "Reply", "answer_question", "asks_for_diagnosis_or_dose"),
    "_chat": (
        "ask_assistant",
        "delete_all_conversations",
        "delete_conversation",
        "get_assistant_preferences",
        "get_conversation",
        "list_conversations",
        "set_assistant_preferences",
    ),
    "_model": ("model_configured",),
    "_tickets": ("draft_ticket_reply",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
