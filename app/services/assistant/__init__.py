"""The AI healthcare assistant (issue 16 part 3): a chat that checks every message for red flags first
(911 / 988, `app.services.safety`), refuses diagnoses and doses, and answers only from the catalog, the help
center and the provider directory, with source links (`_answer`); phrased by an optional OpenAI-compatible
language model from those passages only (`_model`); a signed-in user's stored conversations and
preferences (`_chat`); and the help desk's "AI analysis requested" reply drafts (`_tickets`).

Its public surface: the names below (`__all__`).
"""

from app.services.assistant._answer import (
    NOT_FOUND,
    REFUSAL,
    Reply,
    asks_for_diagnosis_or_dose,
)
from app.services.assistant._chat import (
    ask_assistant,
    delete_all_conversations,
    delete_conversation,
    get_assistant_preferences,
    get_conversation,
    list_conversations,
    set_assistant_preferences,
)
from app.services.assistant._model import model_configured
from app.services.assistant._tickets import draft_ticket_reply

__all__ = [
    "NOT_FOUND",
    "REFUSAL",
    "Reply",
    "ask_assistant",
    "asks_for_diagnosis_or_dose",
    "delete_all_conversations",
    "delete_conversation",
    "draft_ticket_reply",
    "get_assistant_preferences",
    "get_conversation",
    "list_conversations",
    "model_configured",
    "set_assistant_preferences",
]
