"""What the drill says (app.drill.lines): the spoken summary in whole, plain sentences."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from app.drill.lines import MISSED_SAID, did_you_say, reveal, summary
from app.study.model import DAY_MS
from app.studying.past import PastSession
from app.studying.summary import Summary

TODAY = date(2026, 11, 27)


def done(
    cards: int, correct: int, missed: tuple[str, ...] = (), next_in: int | None = None
) -> Summary:
    return Summary(cards, correct, 0, 0, missed, next_in, due_tomorrow=0, today=TODAY)


def test_the_summary_says_how_many_how_well_what_was_missed_and_what_comes_next() -> None:
    told = summary(done(1_234, 1_000, ("perro", "gato"), DAY_MS * 3), "en")
    assert told == (
        (
            "You studied 1,234 cards and got 1,000 right (81%). You missed perro and gato. "
            "The next review is due in 3 days.",
            "en",
        ),
    )


def test_one_card_and_no_misses_read_naturally() -> None:
    ((text, _),) = summary(done(1, 1), "en")
    assert text == "You studied 1 card and got 1 right (100%). You missed none. " + (
        "No reviews are scheduled yet."
    )


def test_a_long_list_of_missed_words_is_cut_short_and_counted() -> None:
    missed = tuple(f"word{i}" for i in range(MISSED_SAID + 1))
    ((text, _),) = summary(done(20, 9, missed), "en")
    assert "word9 and 1 more word." in text
    assert "word10" not in text


def test_an_empty_session_says_there_was_nothing() -> None:
    ((text, _),) = summary(done(0, 0), "en")
    assert text == "There was nothing to study. No reviews are scheduled yet."


def test_the_answer_is_said_in_its_own_language() -> None:
    assert reveal("gato", "es", "en") == (("The answer is", "en"), ("gato.", "es"))
    assert did_you_say("gato", "es", "en") == (("Did you say", "en"), ("gato?", "es"))


def test_the_last_session_of_the_same_scope_is_told_after_the_misses() -> None:
    last = PastSession(date(2026, 11, 24), 10, 7, ("perro",))
    ((text, _),) = summary(replace(done(2, 2), previous=last), "en")
    assert text == (
        "You studied 2 cards and got 2 right (100%). You missed none. "
        "Last time (24 November 2026) you got 7 of 10 right and missed perro. "
        "No reviews are scheduled yet."
    )
