"""The drill's spoken command grammar (app.drill.commands): whole utterances only."""

from __future__ import annotations

import pytest

from app.drill.commands import Command, parse, phrases
from app.study.model import Rating


@pytest.mark.parametrize(
    ("said", "command"),
    [
        ("repeat", Command.REPEAT),
        ("Say that again", Command.REPEAT),
        ("once more", Command.REPEAT),
        ("Slower, please", Command.SLOWER),
        ("skip", Command.SKIP),
        ("pass", Command.SKIP),
        ("Next.", Command.SKIP),
        ("I don't know", Command.DONT_KNOW),
        ("I don’t know", Command.DONT_KNOW),
        ("no idea", Command.DONT_KNOW),
        ("What does it mean?", Command.EXPLAIN),
        ("what's that mean", Command.EXPLAIN),
        ("pause", Command.PAUSE),
        ("wait", Command.PAUSE),
        ("continue", Command.RESUME),
        ("go on", Command.RESUME),
        ("STOP", Command.STOP),
        ("that's enough", Command.STOP),
        ("quit", Command.STOP),
        ("undo", Command.UNDO),
        ("again", Command.AGAIN),
        ("um, hard", Command.HARD),
        ("Good!", Command.GOOD),
        ("easy", Command.EASY),
        ("Give me mnemonics", Command.MNEMONICS),
        ("help me remember, please", Command.MNEMONICS),
        ("Explain the ones I missed.", Command.MNEMONICS),
    ],
)
def test_each_command_and_its_synonyms(said: str, command: Command) -> None:
    assert parse([said], "en") == command


@pytest.mark.parametrize(
    "said",
    ["", "   ", "?!", "stop sign", "I want to pass the exam", "please", "next week", "perro"],
)
def test_a_command_inside_a_longer_utterance_is_no_command(said: str) -> None:
    assert parse([said], "en") is None


def test_the_first_hearing_that_is_a_command_counts() -> None:
    assert parse(["ship", "skip"], "en") == Command.SKIP
    assert parse(["undo", "stop"], "en") == Command.UNDO
    assert parse([], "en") is None


def test_a_language_without_commands_yet_uses_english() -> None:
    assert parse(["pause"], "es-MX") == Command.PAUSE


def test_grade_words_carry_their_rating_and_other_commands_none() -> None:
    assert [c.rating for c in (Command.AGAIN, Command.HARD, Command.GOOD, Command.EASY)] == [
        Rating.AGAIN,
        Rating.HARD,
        Rating.GOOD,
        Rating.EASY,
    ]
    assert Command.STOP.rating is None


def test_the_phrases_for_the_recogniser_include_every_command() -> None:
    said = phrases("en")
    assert {parse([text], "en") for text in said} == set(Command)
    assert "say that again" in said


def test_hints_name_every_command_before_any_second_phrasing() -> None:
    from app.drill.commands import Command, grammar, phrases  # noqa: PLC0415

    hints = phrases("en")
    rules = grammar("en").phrases
    assert sorted(hints) == sorted(" ".join(p) for p in rules)  # every phrase, once
    first = hints[: len(Command)]
    assert {rules[tuple(text.split())] for text in first} == set(Command)
    assert first[:8] == (
        "repeat",
        "slower",
        "skip",
        "i don't know",
        "what does it mean",
        "pause",
        "resume",
        "stop",
    )


def test_the_hints_name_each_command_once() -> None:
    from app.drill.commands import Command, hints, parse  # noqa: PLC0415

    given = hints("en")
    assert len(given) == len(Command)
    assert {parse([text], "en") for text in given} == set(Command)
    assert len(", ".join(given)) < 200  # room in a provider's prompt for the answers
