"""The red-flag detector: does a message describe an emergency (call 911) or a mental-health crisis (call or
text 988)? Anchors: NHS "when to call 999" (loss of consciousness, chest pain, breathing difficulty, fits,
stroke, severe bleeding, severe allergic reaction, burns, head injury, choking, overdose), the US 988
Suicide & Crisis Lifeline, and the way moderation systems read obfuscated text (normalise, then match).

The text is normalised first, so that what a person means is what gets matched:
- Unicode NFKC (full-width and mathematical letters become plain ones), format characters dropped
  (zero-width spaces and joiners, soft hyphens, direction marks), accents dropped (NFKD without combining
  marks, so "corazón" is "corazon" and "à" is "a"), and look-alike letters from other scripts replaced by
  the Latin letter they imitate (Unicode's confusables table, TR39, from the `confusable_homoglyphs`
  package: a Cyrillic "і" in "kіll" is an "i");
- leetspeak inside a word ("k1ll", "ch3st", "su!c!de", "p1lls"; a lone number stays a number), letters
  spelt out one by one ("k i l l", "s.u.i.c.i.d.e") or broken in two ("blee ding"), stretched letters ("diiiie", "killll"), punctuation
  and apostrophes ("can't" is "cant");
- misspellings corrected against the vocabulary the phrases use (difflib's ratio ≥ 0.87 for words of five
  letters or more that start with the same letter, plus a short list of misspellings too far for that).

Then a few benign phrases that share words with the patterns are blanked out ("stroke of luck", "overdose
of sunshine", "choking hazard"), and each category's phrases are searched as whole words (English, Spanish,
some French; intent phrasing too: methods, plans, "tonight", slang such as "kms" or "unalive"). The first
match wins, crisis before emergency, so a message that names both gets the crisis line as well (the crisis
message also says to call 911 when in danger). It is deliberately risk-averse: a mention of "chest pain" is
flagged even when negated (a false alarm costs a banner, a miss could cost a life). Nothing here keeps the
text it reads: the caches hold single vocabulary-sized words, and a `RedFlag` carries only a category.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache, lru_cache
from typing import Literal

from confusable_homoglyphs import utils as confusable_data

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
# Words are matched after normalisation: lower case, no accents, no apostrophes ("jai mal a la poitrine").
_CATEGORIES: tuple[tuple[str, Level, tuple[str, ...]], ...] = (
    (
        "suicide_or_self_harm",
        "crisis",
        (
            # English: words, intent and plans, methods, slang
            "suicide",
            "suicidal",
            "kill myself",
            "killing myself",
            "kill my self",
            "kill himself",
            "kill herself",
            "kill themselves",
            "kms",
            "unaliv*",
            "sewerslide",
            "end my life",
            "ending my life",
            "end my own life",
            "take my own life",
            "take my life",
            "taking my life",
            "want to die",
            "wanna die",
            "going to die tonight",
            "ready to die",
            "deserve to die",
            "better off dead",
            "better off without me",
            "wish i was dead",
            "wish i were dead",
            "want to be dead",
            "rather be dead",
            "self harm*",
            "selfharm*",
            "hurt myself",
            "hurting myself",
            "harm myself",
            "harming myself",
            "cut myself",
            "cutting myself",
            "cut my wrists",
            "slit my wrists",
            "slit my throat",
            "hang myself",
            "hanging myself",
            "shoot myself",
            "drown myself",
            "gun to my head",
            "tie a noose",
            "noose",
            "jump off a bridge",
            "jump off the bridge",
            "jump off a building",
            "jump off the roof",
            "jump in front of a train",
            "take all my pills",
            "take all of my pills",
            "taking all my pills",
            "swallow all my pills",
            "all my pills tonight",
            "all my pills at once",
            "all of my pills at once",
            "the whole bottle tonight",
            "want to overdose",
            "wanna overdose",
            "going to overdose",
            "gonna overdose",
            "plan to overdose",
            "overdose on purpose",
            "going to od",
            "gonna od",
            "want to od",
            "no reason to live",
            "nothing to live for",
            "nothing left to live for",
            "not want to live",
            "dont want to live",
            "do not want to live",
            "dont want to be alive",
            "dont want to be here anymore",
            "dont want to wake up",
            "do not want to wake up",
            "sleep and never wake up",
            "wont be here tomorrow",
            "not be here tomorrow",
            "life is not worth living",
            "life isnt worth living",
            "end it all",
            "ending it all",
            "end it tonight",
            "ending it tonight",
            "end things tonight",
            "no point in living",
            "cant go on",
            "cannot go on",
            "goodbye note",
            # Spanish
            "suicidio",
            "suicida",
            "suicidar*",
            "quiero morir*",
            "me quiero morir",
            "quiero matarme",
            "me voy a matar",
            "voy a matarme",
            "matarme",
            "no quiero vivir",
            "no quiero seguir viviendo",
            "quitarme la vida",
            "acabar con mi vida",
            "terminar con mi vida",
            "hacerme dano",
            "lastimarme",
            "cortarme las venas",
            "tomarme todas las pastillas",
            "todas mis pastillas",
            "mejor muerto",
            "mejor muerta",
            "no vale la pena vivir",
            # French
            "je veux mourir",
            "envie de mourir",
            "me suicider",
            "suicidaire",
            "me tuer",
            "en finir",
            "mettre fin a mes jours",
            "mettre fin a ma vie",
            "me faire du mal",
            "tous mes medicaments",
            "toutes mes pilules",
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
            "clutching my chest",
            "clutching his chest",
            "clutching her chest",
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
            # Spanish
            "dolor en el pecho",
            "dolor de pecho",
            "dolor en mi pecho",
            "dolor fuerte en el pecho",
            "me duele el pecho",
            "me duele mucho el pecho",
            "le duele el pecho",
            "presion en el pecho",
            "opresion en el pecho",
            "ataque al corazon",
            "ataque cardiaco",
            "infarto",
            # French
            "douleur thoracique",
            "mal a la poitrine",
            "douleur dans la poitrine",
            "douleur a la poitrine",
            "crise cardiaque",
            "infarctus",
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
            "short of breathe",  # "breath" reads "breathe" (a common misspelling of it)
            "shortness of breathe",
            "out of breathe",
            "cant catch my breathe",
            "gasping for air",
            "choking",
            "lips turning blue",
            "lips are blue",
            "turning blue",
            # Spanish
            "no puedo respirar",
            "no puede respirar",
            "me falta el aire",
            "le falta el aire",
            "dificultad para respirar",
            "me ahogo",
            "se esta ahogando",
            "labios morados",
            # French
            "je ne peux pas respirer",
            "je narrive pas a respirer",
            "je narrive plus a respirer",
            "du mal a respirer",
            "ne respire plus",
            "il setouffe",
            "elle setouffe",
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
            "slurr*",
            "suddenly cant speak",
            "sudden numbness",
            "one side of my body",
            "one side of his body",
            "one side of her body",
            "arm weakness",
            "sudden weakness",
            # Spanish
            "derrame cerebral",
            "ictus",
            "cara caida",
            "no puede hablar",
            # French
            "avc",
            "accident vasculaire",
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
            # Spanish
            "sangrado abundante",
            "mucha sangre",
            "no para de sangrar",
            "no deja de sangrar",
            "sangra mucho",
            "vomitando sangre",
            "tosiendo sangre",
            # French
            "saigne beaucoup",
            "saignement abondant",
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
            # Spanish
            "inconsciente",
            "se desmayo",
            "no despierta",
            "no responde",
            "perdio el conocimiento",
            # French
            "inconscient*",
            "evanoui*",
            "sest effondre*",
        ),
    ),
    (
        "seizure",
        "emergency",
        (
            "seizure",
            "seizures",
            "seizing",
            "convulsing",
            "convulsion*",
            "having a fit",
            "ataque epileptico",
            "crise depilepsie",
        ),
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
            "throat swell*",
            "tongue swell*",
            "tongue are swelling",
            "lips and tongue",
            "swollen tongue",
            "face swelling",
            "severe allergic",
            "used my epipen",
            # Spanish
            "anafilaxia",
            "reaccion alergica grave",
            "se me cierra la garganta",
            "se le cierra la garganta",
            "garganta hinchada",
            "lengua hinchada",
            # French
            "choc anaphylactique",
            "reaction allergique grave",
            "gorge qui gonfle",
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
            "drank bleach",
            "swallowed poison",
            "drank poison",
            "ate poison",
            "dishwasher liquid",
            "dishwasher pod*",
            "laundry pod*",
            "button battery",
            "took too many pills",
            "too many pills",
            "whole bottle of",
            # Spanish
            "sobredosis",
            "envenenad*",
            "envenenamiento",
            "demasiadas pastillas",
            # French
            "surdose",
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
            # Spanish
            "golpe en la cabeza",
            "accidente de coche",
            "accidente de carro",
            "quemadura grave",
        ),
    ),
    (
        "sepsis_or_meningitis",
        "emergency",
        ("meningitis", "stiff neck and fever", "rash that does not fade", "sepsis"),
    ),
)

# Benign phrases that share words with the patterns, blanked out before matching (on normalised text).
_BENIGN = re.compile(
    r"\b(?:"
    r"overdose of (?:sunshine|fun|love|cuteness|happiness|joy|nostalgia|positivity|good vibes)"
    r"|stroke of (?:luck|genius|midnight|brilliance|inspiration)"
    r"|(?:brush|back|breast|swim|swimming|paddle|golf|key) ?strokes?"
    r"|stroke (?:rehab\w*|recovery|survivors?)"
    r"|(?:had|after|since) (?:a|his|her|my|their) stroke (?:last (?:year|month|spring|summer|fall|autumn|winter)"
    r"|(?:a few|two|three|four|five|several|some) (?:years|months) ago)"
    r"|heart attack risk|risk of (?:a )?heart attacks?"
    r"|choking (?:hazards?|first aid)"
    r"|(?:car accident|head injury|severe burns?) (?:last (?:year|month|spring|summer|fall|autumn|winter)"
    r"|(?:a few|two|three|four|five|several|some) (?:years|months) ago)"
    r"|cut myself (?:shaving|cooking|gardening|on (?:a|the|some))"
    r"|die (?:my|his|her|their|the) (?:hair|beard|clothes|shirt)"
    r"|passed out (?:the )?(?:flyers|leaflets|samples|candy|forms|papers)"
    r"|suicide (?:squad|doors|squeeze|runs?|sprints?)"
    r"|suicide prevention (?:training|course|class|classes|program|programme|month|week|day)"
    r")\b"
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
    "myslef": "myself",
    "mysef": "myself",
    "tonite": "tonight",
    "2nite": "tonight",
    "2night": "tonight",
    "killmyself": "kill myself",
    "wanna": "wanna",
    "ded": "dead",
    "pils": "pills",
    "tak": "take",
    "cnat": "cant",
    "stroek": "stroke",
}

# Leetspeak inside a word ("2" is texting's "to": "want2die"). "1" and "|" stand for "i" or "l": the reading that makes a known word wins.
_LEET = str.maketrans(
    {"2": " to ", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
_AMBIGUOUS = {"1": ("i", "l"), "|": ("l", "i")}
# difflib's ratio a misspelling needs: 0.8 read "staff" as "stiff", "cooking" as "choking" and "training"
# as "turning"; 0.87 keeps "cheast" (0.91), "suicdal" (0.93) and "unconsious" (0.95).
_CLOSE = 0.87
_RAW_WORD = re.compile(r"[a-z0-9@$!|]+")
_WORD = re.compile(r"[a-z]+")
_APOSTROPHES = str.maketrans("", "", "'’‘ʼ`´")


@cache
def _lookalikes() -> dict[int, str]:
    """Non-ASCII characters Unicode lists as confusable with one ASCII letter, mapped to that letter."""
    table: dict[int, str] = {}
    for char, glyphs in confusable_data.load("confusables.json").items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in glyphs:
            latin = glyph.get("c", "")
            if len(latin) == 1 and latin.isascii() and latin.isalpha():
                table[ord(char)] = latin.lower()
                break
    return table


def _plain_letters(text: str) -> str:
    """NFKC, format characters and accents dropped, look-alikes replaced, lower case, no apostrophes."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        lookalikes = _lookalikes()
        text = "".join(
            lookalikes.get(ord(char), char)
            for char in unicodedata.normalize("NFKD", text)
            if char.isascii() or not (unicodedata.combining(char) or unicodedata.category(char) == "Cf")
        )
    return text.lower().translate(_APOSTROPHES)


@cache
def _vocabulary() -> frozenset[str]:
    """Every word the phrases use (stems without their '*'), for correcting misspelt words."""
    words: set[str] = set()
    for _, _, phrases in _CATEGORIES:
        for phrase in phrases:
            words.update(word.rstrip("*") for word in phrase.split())
    return frozenset(words)


@cache
def _vocabulary_by_letter() -> dict[str, tuple[str, ...]]:
    by_letter: dict[str, list[str]] = {}
    for word in sorted(_vocabulary()):
        by_letter.setdefault(word[0], []).append(word)
    return {letter: tuple(words) for letter, words in by_letter.items()}


def _known(word: str) -> bool:
    return word in _vocabulary() or word in _MISSPELLINGS


def _unleet(raw: str) -> str:
    """A raw word with leetspeak read as letters; a word without letters (a number) is left as it is."""
    raw = raw.rstrip("!|")
    if not any(char.isalpha() for char in raw) or raw.isalpha():
        return raw
    plain = raw.translate(_LEET)
    ambiguous = [index for index, char in enumerate(plain) if char in _AMBIGUOUS]
    if not ambiguous:
        return plain
    readings = []
    for choice in itertools.islice(itertools.product((0, 1), repeat=len(ambiguous)), 16):
        chars = list(plain)
        for index, pick in zip(ambiguous, choice, strict=True):
            chars[index] = _AMBIGUOUS[plain[index]][pick]
        readings.append("".join(chars))
    return next((reading for reading in readings if _known(_destretched(reading))), readings[0])


def _destretched(word: str) -> str:
    """Stretched letters undone: three or more of a letter become two ("killll"), or one ("diiie")."""
    if _known(word) or not re.search(r"(.)\1\1", word):
        return word
    double = re.sub(r"(.)\1{2,}", r"\1\1", word)
    if _known(double):
        return double
    single = re.sub(r"(.)\1+", r"\1", word)
    return single if _known(single) else double


@lru_cache(maxsize=4096)
def _corrected(word: str) -> str:
    word = _destretched(word)
    if word in _MISSPELLINGS:
        return _MISSPELLINGS[word]
    if len(word) < 5 or word in _vocabulary():
        return word
    # Misspellings keep their first letter almost always; requiring it keeps "bills" from reading "pills".
    close = get_close_matches(word, _vocabulary_by_letter().get(word[0], ()), n=1, cutoff=_CLOSE)
    return close[0] if close else word


def _joined_spelling(words: list[str]) -> tuple[list[str], list[str]]:
    """Letters spelt out one by one ("k i l l m y s e l f", "s.u.i.c.i.d.e") joined into one word; the
    words, and those that were joined."""
    joined: list[str] = []
    spelt: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) >= 3:
            spelt.append("".join(run))
            joined.append(spelt[-1])
        else:
            joined.extend(run)
        run = []
        if word:
            joined.append(word)
    return joined, spelt


def _joined_halves(words: list[str]) -> list[str]:
    """A word broken in two ("blee ding", "st roke") joined again when together they make a word of the
    phrases that at least one half is not."""
    vocabulary = _vocabulary()
    joined: list[str] = []
    for word in words:
        if joined:
            whole = joined[-1] + word
            halves_known = joined[-1] in vocabulary and word in vocabulary
            if len(whole) >= 6 and whole in vocabulary and not halves_known:
                joined[-1] = whole
                continue
        joined.append(word)
    return joined


def _read(text: str) -> tuple[str, list[str]]:
    plain = _plain_letters(text[:MAX_TEXT])
    words = []
    for raw in _RAW_WORD.findall(plain):
        words.extend(_WORD.findall(_unleet(raw)))
    joined, spelt = _joined_spelling(words)
    joined = _joined_halves(joined)
    return " ".join(_corrected(word) for word in joined), spelt


def normalised(text: str) -> str:
    """What the patterns read: `text` as plain lower-case words (see the module's docstring)."""
    return _read(text)[0]


def _phrase_pattern(phrase: str) -> str:
    # Words may also be run together ("killmyself", "chestpain"): the space between them is optional.
    words = [
        re.escape(word[:-1]) + "[a-z]*" if word.endswith("*") else re.escape(word) for word in phrase.split()
    ]
    return r"\b" + " ?".join(words) + r"\b"


@cache
def _patterns() -> tuple[tuple[str, Level, re.Pattern[str]], ...]:
    return tuple(
        (category, level, re.compile("|".join(_phrase_pattern(phrase) for phrase in phrases)))
        for category, level, phrases in _CATEGORIES
    )


@cache
def _squashed_patterns() -> tuple[re.Pattern[str], ...]:
    """Each category's phrases without spaces, found anywhere inside a word that was spelt out letter by
    letter ("i w a n t t o d i e" is read as one word, "iwanttodie", which holds "wanttodie")."""
    found = []
    for _, _, phrases in _CATEGORIES:
        squashed = {phrase.replace(" ", "").rstrip("*") for phrase in phrases}
        found.append(re.compile("|".join(sorted(map(re.escape, (w for w in squashed if len(w) >= 5))))))
    return tuple(found)


def _flag(level: Level, category: str) -> RedFlag:
    message = CRISIS_MESSAGE if level == "crisis" else EMERGENCY_MESSAGE
    return RedFlag(level=level, category=category, message=message)


def find_red_flag(text: str) -> RedFlag | None:
    """The red flag in `text`, if any: crisis first, then the emergencies in the order above."""
    plain, spelt = _read(text or "")
    plain = _BENIGN.sub(" ", plain)
    for (category, level, pattern), squashed in zip(_patterns(), _squashed_patterns(), strict=True):
        if pattern.search(plain) or any(squashed.search(word) for word in spelt):
            return _flag(level, category)
    return None
