"""The red-flag detector (app/services/safety): emergencies and crises in plain words and common
misspellings are caught; ordinary questions about visits are not."""

from __future__ import annotations

import pytest

from app.services.safety import CRISIS_MESSAGE, EMERGENCY_MESSAGE, find_red_flag


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("I have crushing chest pain", "chest_pain"),
        ("cheast pian since an hour", "chest_pain"),
        ("I can't breathe", "breathing"),
        ("cant brethe properly", "breathing"),
        ("My dad is having a siezure", "seizure"),
        ("her face is drooping and her speech is slurred", "stroke"),
        ("the bleeding won't stop", "severe_bleeding"),
        ("my wife passed out and won't wake up", "unconscious"),
        ("my throat is closing after a bee sting", "severe_allergic_reaction"),
        ("I took too many pills", "overdose_or_poisoning"),
    ],
)
def test_emergencies_get_the_911_message(text: str, category: str) -> None:
    flag = find_red_flag(text)
    assert flag is not None and flag.level == "emergency" and flag.category == category
    assert "911" in flag.message and flag.message == EMERGENCY_MESSAGE


@pytest.mark.parametrize("text", ["I want to kill myself", "i feel suicdal", "I don't want to live anymore"])
def test_a_crisis_gets_988_even_when_an_emergency_is_named_too(text: str) -> None:
    flag = find_red_flag(text + " and my chest hurts")
    assert flag is not None and flag.level == "crisis" and flag.message == CRISIS_MESSAGE
    assert "988" in flag.message and "911" in flag.message


@pytest.mark.parametrize(
    "text",
    [
        "How do I prepare for a blood draw at home?",
        "My vein collapsed last time, can a phlebotomist come?",
        "Can a nurse come to my office for a breast exam?",
        "What does IV therapy cost?",
        "The provider was fitting me in on Tuesday",
        "",
    ],
)
def test_ordinary_questions_are_not_flagged(text: str) -> None:
    assert find_red_flag(text) is None


def test_a_very_long_message_is_read_up_to_its_limit_without_error() -> None:
    assert find_red_flag("blood draw " * 50_000) is None


# Issue 27: ten of 32 crisis phrasings were missed. Among them, and the normalisation each one needs.
@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("I'm going to take all my pills tonight", "crisis"),  # a plan and a method, no keyword
        ("kms", "crisis"),  # slang
        ("k1ll myself", "crisis"),  # leetspeak
        ("ki11 myself", "crisis"),  # "1" read as "l" when that makes the word
        ("ch3st pain", "emergency"),
        ("k\u0456ll myself", "crisis"),  # a Cyrillic look-alike letter
        ("\u0455uicide", "crisis"),  # Cyrillic dze for "s"
        ("sui\u200bcide", "crisis"),  # a zero-width space
        ("su\u00adicide", "crisis"),  # a soft hyphen
        ("ｃｈｅｓｔ ｐａｉｎ", "emergency"),  # full-width letters (NFKC)
        ("k i l l  m y s e l f", "crisis"),  # spelt out
        ("s.u.i.c.i.d.e", "crisis"),
        ("i want to diiiie", "crisis"),  # stretched letters
        ("want2die", "crisis"),
        ("blee ding won't stop", "emergency"),  # a word broken in two
        ("Tengo dolor en el pecho", "emergency"),
        ("quiero morir", "crisis"),
        ("no puedo respirar", "emergency"),
        ("j'ai mal à la poitrine", "emergency"),
        ("je veux mourir", "crisis"),
    ],
)
def test_obfuscated_slang_spanish_and_french_red_flags_are_caught(text: str, level: str) -> None:
    flag = find_red_flag(text)
    assert flag is not None and flag.level == level


@pytest.mark.parametrize(
    "text",
    [
        "chest X-ray results",
        "a killer deal on IV hydration",
        "I'm dying to try IV therapy",
        "overdose of sunshine at the beach, need a hydration drip",
        "shoot me an email when the nurse is confirmed",
        "What a stroke of luck",
        "My dad had a stroke last year, can a nurse check his blood pressure?",
        "Do you offer a CPR and choking first aid class?",
        "I cut my finger cooking, can a nurse clean it?",  # "cooking" is not read as "choking"
        "for our staff",  # nor "staff" as "stiff"
        "pay all my bills tonight",  # nor "bills" as "pills"
        "poison ivy rash",
        "I want to die my hair blue",
        "c\u0430ncel my visit",  # a look-alike letter in an ordinary request
    ],
)
def test_benign_near_misses_are_not_flagged(text: str) -> None:
    assert find_red_flag(text) is None


def test_the_flag_carries_a_category_and_never_the_words() -> None:
    flag = find_red_flag("I'm going to take all my pills tonight")
    assert flag is not None and flag.category == "suicide_or_self_harm"
    assert "pills" not in repr(flag).replace(flag.message, "")
