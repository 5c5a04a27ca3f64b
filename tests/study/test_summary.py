"""The end-of-session summary and the question it hands to the Scholar."""

from __future__ import annotations

from app.study.model import Rating
from app.studying.session import StudySession
from app.studying.summary import scholar_prompt
from tests.study.helpers import SPANISH, Clock, folder_with_words, make_store


def test_the_summary_counts_what_happened() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:3])
    session = StudySession.start(
        store, {"kind": "folder", "folder": folder.id}, "flashcard", clock, lambda: 0
    )
    for rating in (Rating.AGAIN, Rating.EASY, Rating.EASY):
        session.reveal()
        clock.advance(minutes=0.1)
        session.grade(rating)
    summary = session.finish()
    assert (summary.cards, summary.correct, summary.new_learned) == (3, 2, 3)
    assert summary.missed == ("perro",)
    assert summary.time_ms == 3 * 6_000
    assert summary.next_in_ms is not None
    assert 0 < summary.next_in_ms <= 60_000
    assert summary.accuracy == 2 / 3


def test_the_scholar_is_asked_about_the_missed_words_only() -> None:
    text = scholar_prompt(("perro", "gato"), "Spanish")
    assert "perro, gato" in text
    assert "Spanish" in text
    assert "mnemonic" in text
    many = scholar_prompt(tuple(f"w{i}" for i in range(40)), "all")
    assert "w29" in many
    assert "w30" not in many
    assert "(and 10 more)" in many
