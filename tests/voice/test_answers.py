"""Spoken answers to "Are you sure?" and "Which one?" (app.voice.answers): yes only when it is
clearly yes, in the user's language; silence and anything unclear never confirm."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.text.fold import fold
from app.voice.answers import choose, confirm


@pytest.mark.parametrize(
    "reply",
    ["yes", "Yeah.", "yep", "Sure!", "ok", "Okay, go ahead", "do it", "confirm", "YES PLEASE"],
)
def test_yes_and_its_synonyms_confirm(reply: str) -> None:
    assert confirm(reply) == "yes"


@pytest.mark.parametrize(
    "reply",
    [
        "no",
        "Nope.",
        "don't",
        "Stop!",
        "never mind",
        "cancel",
        "no, don't",
        "not yes",
        "don’t do it",
    ],
)
def test_no_and_negations_decline(reply: str) -> None:
    assert confirm(reply) == "no"


@pytest.mark.parametrize(
    "reply",
    ["", "   ", "...", "yes no", "okay, cancel that", "maybe", "I'm not sure", "banana", "🙂"],
)
def test_silence_mixed_or_other_replies_are_unclear(reply: str) -> None:
    assert confirm(reply) == "unclear"


@pytest.mark.parametrize(
    ("reply", "language", "answer"),
    [
        ("Sí", "es-ES", "yes"),
        ("si, vale", "es", "yes"),
        ("claro", "es-MX", "yes"),
        ("no, cancela", "es", "no"),
        ("Oui", "fr-FR", "yes"),
        ("D’accord", "fr", "yes"),
        ("pas d'accord", "fr", "no"),
        ("non", "fr-CA", "no"),
        ("Ja, genau", "de-DE", "yes"),
        ("okay", "de", "yes"),
        ("nein, lieber nicht", "de", "no"),
        ("weiß nicht", "de", "unclear"),
        ("yes", "pt-BR", "yes"),  # no Portuguese words yet: English
        ("oui", "en", "unclear"),
    ],
)
def test_answers_are_read_in_the_users_language(reply: str, language: str, answer: str) -> None:
    assert confirm(reply, language) == answer


# Every English yes phrase contains one of these ("y" covers yes, yeah, okay…).
YES_MARKS = (
    *("y", "sure", "ok", "do it", "please do", "go ahead", "confirm", "correct"),
    *("alright", "all right", "of course"),
)


@given(st.text())
@example("ALL:RIGHT")  # "all right" is a yes; the list above once missed it
def test_nothing_confirms_without_a_yes_word(reply: str) -> None:
    if confirm(reply) == "yes":
        said = " ".join(re.findall(r"\w+", fold(reply)))
        assert any(mark in said for mark in YES_MARKS)


def test_a_no_never_becomes_yes_whatever_follows() -> None:
    for tail in ["", " yes", " please", " do it", " go ahead"]:
        assert confirm(f"no{tail}") != "yes"


FOLDERS = ["Cardiology", "Neurology", "Cardiology Advanced", "Medicine/Verbs"]


@pytest.mark.parametrize(
    ("reply", "index"),
    [
        ("the first one", 0),
        ("Second.", 1),
        ("number 3", 2),
        ("4", 3),
        ("the 2nd", 1),
        ("the last one", 3),
        ("option two", 1),
        ("two", 1),
        ("neurology", 1),
        ("NEUROLOGÍA please", 1),
        ("the Neurologie one", 1),
        ("cardiology advanced", 2),
        ("Cardiology", 0),
        ("verbs", 3),
        ("the fifth", None),
        ("first or second", None),
        ("", None),
        ("whatever", None),
    ],
)
def test_which_one_can_be_answered_by_position_or_name(reply: str, index: int | None) -> None:
    assert choose(reply, FOLDERS) == index


def test_a_name_shared_by_two_options_is_ambiguous() -> None:
    assert choose("verbs", ["Spanish/Verbs", "French/Verbs"]) is None
    assert choose("french verbs", ["Spanish/Verbs", "French/Verbs"]) == 1


def test_positions_in_other_languages() -> None:
    assert choose("la segunda", FOLDERS, "es") == 1
    assert choose("le dernier", FOLDERS, "fr") == 3
    assert choose("den ersten", FOLDERS, "de") == 0
    assert choose("número dos", FOLDERS, "es") == 1


@given(st.text(), st.lists(st.text(), max_size=5))
def test_choose_answers_an_index_of_the_options_or_none(reply: str, options: list[str]) -> None:
    index = choose(reply, options)
    assert index is None or 0 <= index < len(options)
