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
