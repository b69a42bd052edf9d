"""Safety checks shared by the AI assistant and the forum (issue 16): the red-flag detector that runs on
every message before anything else (`_red_flags`). It reads plain words and common misspellings, is
deliberately risk-averse (a mention of "chest pain" is flagged even when negated: a false alarm costs a
banner, a miss could cost a life) and never stores the text it reads.

Its public surface: the names below (`__all__`).
"""

from app.services.safety._red_flags import CRISIS_MESSAGE, EMERGENCY_MESSAGE, RedFlag, find_red_flag

__all__ = [
    "CRISIS_MESSAGE",
    "EMERGENCY_MESSAGE",
    "RedFlag",
    "find_red_flag",
]
