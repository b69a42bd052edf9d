"""The red-flag detector: does a message describe an emergency (call 911) or a mental-health crisis (call or
text 988)? Anchors: NHS "when to call 999" (loss of consciousness, chest pain, breathing difficulty, fits,
stroke, severe bleeding, severe allergic reaction, burns, head injury, choking, overdose) and the US 988
Suicide & Crisis Lifeline.

The text is normalised first: lower case, letters only, and each word checked against the vocabulary the
patterns use, so "cheast pian", "cant breath" and "siezure" read as what they mean (difflib's ratio ≥ 0.8 for
words of five letters or more, plus a short list of misspellings too far for that ratio). Then each
category's phrases are searched as whole words. The first match wins, crisis before emergency, so a
message that names both gets the crisis line as well (the crisis message also says to call 911 when in
danger).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache
from typing import Literal

MAX_TEXT = 20_000  # characters read: a longer message is checked on its first MAX_TEXT

EMERGENCY_MESSAGE = (
    "This may be a medical emergency. Call 911 now, or go to the nearest emergency room. "
    "Do not wait for a home visit or an online answer."
)
CRISIS_MESSAGE = (
    "You deserve support right now. Call or text 988 (the Suicide & Crisis Lifeline) to talk with someone "
    "any time, or chat at 988lifeline.org. If you are in immediate danger, call 911."
)

Level = Literal["emergency", "crisis"]


@dataclass(frozen=True)
class RedFlag:
    """What was found: the level (`emergency`: call 911; `crisis`: call or text 988), the category (a
    short name safe for logs, never the person's words) and the message to show."""

    level: Level
    category: str
    message: str


# (category, level, phrases). A phrase is words separated by spaces; "*" ends a word stem ("bleed*").
_CATEGORIES: tuple[tuple[str, Level, tuple[str, ...]], ...] = (
    (
        "suicide_or_self_harm",
        "crisis",
        (
            "suicide",
            "suicidal",
            "kill myself",
            "killing myself",
            "end my life",
            "ending my life",
            "take my own life",
            "want to die",
            "wanna die",
            "better off dead",
            "self harm",
            "selfharm",
            "hurt myself",
            "hurting myself",
            "cut myself",
            "cutting myself",
            "no reason to live",
            "not want to live",
            "dont want to live",
            "do not want to live",
            "dont want to be alive",
            "end it all",
            "ending it all",
            "no point in living",
            "take my life",
        ),
    ),
    (
        "chest_pain",
        "emergency",
        (
            "chest pain*",
            "chest pressure",
            "chest tight*",
            "pain in my chest",
            "pain in the chest",
            "pressure in my chest",
            "crushing chest",
            "heart attack",
            "cardiac arrest",
            "chest hurts",
            "my chest hurt*",
            "chest is tight",
            "chest feels tight",
            "chest feels really tight",
            "chest is really tight",
            "tight chest",
            "chest feels heavy",
        ),
    ),
    (
        "breathing",
        "emergency",
        (
            "cant breathe",
            "cannot breathe",
            "can not breathe",
            "not breathing",
            "stopped breathing",
            "trouble breathing",
            "difficulty breathing",
            "hard to breathe",
            "struggling to breathe",
            "short of breath",
            "shortness of breath",
            "gasping for air",
            "choking",
            "lips turning blue",
            "lips are blue",
            "turning blue",
        ),
    ),
    (
        "stroke",
        "emergency",
        (
            "stroke",
            "face drooping",
            "face is drooping",
            "drooping face",
            "slurred speech",
            "slurring",
            "suddenly cant speak",
            "sudden numbness",
            "one side of my body",
            "one side of his body",
            "one side of her body",
            "arm weakness",
            "sudden weakness",
        ),
    ),
    (
        "severe_bleeding",
        "emergency",
        (
            "severe bleeding",
            "bleeding heavily",
            "heavy bleeding",
            "bleeding a lot",
            "wont stop bleeding",
            "will not stop bleeding",
            "cant stop the bleeding",
            "cant stop bleeding",
            "bleeding wont stop",
            "bleeding will not stop",
            "coughing up blood",
            "vomiting blood",
            "throwing up blood",
            "spurting blood",
            "lots of blood",
        ),
    ),
    (
        "unconscious",
        "emergency",
        (
            "unconscious",
            "passed out",
            "wont wake up",
            "will not wake up",
            "cant wake",
            "not waking up",
            "unresponsive",
            "has collapsed",
            "just collapsed",
            "collapsed on",
            "blacked out",
            "wont respond",
            "not responding",
        ),
    ),
    (
        "seizure",
        "emergency",
        ("seizure", "seizures", "seizing", "convulsing", "convulsion*", "having a fit"),
    ),
    (
        "severe_allergic_reaction",
        "emergency",
        (
            "anaphylaxis",
            "anaphylactic",
            "throat closing",
            "throat is closing",
            "throat is swelling",
            "tongue is swelling",
            "lips are swelling",
            "throat swelling",
            "tongue swelling",
            "swollen tongue",
            "face swelling",
            "severe allergic",
            "used my epipen",
        ),
    ),
    (
        "overdose_or_poisoning",
        "emergency",
        (
            "overdose*",
            "overdosed",
            "poisoned",
            "poisoning",
            "swallowed bleach",
            "took too many pills",
            "too many pills",
            "whole bottle of",
        ),
    ),
    (
        "serious_injury",
        "emergency",
        (
            "head injury",
            "hit my head",
            "hit his head",
            "hit her head",
            "severe burn*",
            "badly burned",
            "broken bone sticking",
            "bone sticking out",
            "bone is sticking out",
            "bone poking out",
            "car accident",
            "major trauma",
        ),
    ),
    (
        "sepsis_or_meningitis",
        "emergency",
        ("meningitis", "stiff neck and fever", "rash that does not fade", "sepsis"),
    ),
)

# Misspellings too far from the word for difflib's ratio, and contractions written without the apostrophe
# (the apostrophe is dropped before matching, so "can't" is "cant" already).
_MISSPELLINGS = {
    "brethe": "breathe",
    "breath": "breathe",
    "breth": "breathe",
    "brething": "breathing",
    "pian": "pain",
    "pane": "pain",
    "chesst": "chest",
    "chset": "chest",
    "siezure": "seizure",
    "sezure": "seizure",
    "seisure": "seizure",
    "stroak": "stroke",
    "suicde": "suicide",
    "sucide": "suicide",
    "suiside": "suicide",
    "sucidal": "suicidal",
    "unconcious": "unconscious",
    "unconsious": "unconscious",
    "anaphalaxis": "anaphylaxis",
    "anaphylaxsis": "anaphylaxis",
    "bleding": "bleeding",
    "bleedin": "bleeding",
    "heartattack": "heart attack",
    "overdoze": "overdose",
}

_WORD = re.compile(r"[a-z]+")


@cache
def _vocabulary() -> tuple[str, ...]:
    """Every word the phrases use (stems without their '*'), for correcting misspelt words."""
    words = set()
    for _, _, phrases in _CATEGORIES:
        for phrase in phrases:
            words.update(word.rstrip("*") for word in phrase.split())
    return tuple(sorted(words))


@cache
def _patterns() -> tuple[tuple[str, Level, re.Pattern[str]], ...]:
    compiled = []
    for category, level, phrases in _CATEGORIES:
        parts = []
        for phrase in phrases:
            words = [
                re.escape(word[:-1]) + "[a-z]*" if word.endswith("*") else re.escape(word)
                for word in phrase.split()
            ]
            parts.append(r"\b" + " ".join(words) + r"\b")
        compiled.append((category, level, re.compile("|".join(parts))))
    return tuple(compiled)


@cache
def _corrected(word: str) -> str:
    if word in _MISSPELLINGS:
        return _MISSPELLINGS[word]
    vocabulary = _vocabulary()
    if len(word) < 5 or word in vocabulary:
        return word
    close = get_close_matches(word, vocabulary, n=1, cutoff=0.8)
    return close[0] if close else word


def normalised(text: str) -> str:
    """Lower case, apostrophes dropped ("can't" → "cant"), letters only, misspellings corrected."""
    plain = text[:MAX_TEXT].lower().replace("'", "").replace("’", "")
    return " ".join(_corrected(word) for word in _WORD.findall(plain))


def find_red_flag(text: str) -> RedFlag | None:
    """The red flag in `text`, if any: crisis first, then the emergencies in the order above."""
    plain = normalised(text)
    for category, level, pattern in _patterns():
        if pattern.search(plain):
            message = CRISIS_MESSAGE if level == "crisis" else EMERGENCY_MESSAGE
            return RedFlag(level=level, category=category, message=message)
    return None
