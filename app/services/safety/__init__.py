"""Safety checks shared by the AI assistant and the forum (issue 16): the red-flag detector that runs on
every message before anything else (`_red_flags`). It reads plain words and common misspellings, is
deliberately risk-averse (a mention of "chest pain" is flagged even when negated: a false alarm costs a
banner, a miss could cost a life) and never stores the text it reads.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_red_flags": ("CRISIS_MESSAGE", "EMERGENCY_MESSAGE", "RedFlag", "find_red_flag"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
