"""Listening and speaking modes in the session engine, on a fixed clock: what the recogniser
heard is graded (never silence), a near miss waits for "Did you say …?", and both modes are
stored and resumed like the others."""

from __future__ import annotations

import pytest

from app.domain import LexicalError
from app.store import Store
from app.store.db import Database
from app.study.model import MODES, Rating
from app.study.options import StudyOptions
from app.studying.session import NOTHING_HEARD, Phase, StudySession
from tests.study.helpers import SPANISH, Clock, folder_with_words, make_store
from tests.study.test_session import NO_OFFSET, _start, studying


def reverse(mode: str = "speaking") -> StudySession:
    """A session of meaning → term cards, so the spoken answer is the Spanish word."""
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", [("mariposa", ["butterfly"])])
    store.study.set_options(folder.id, StudyOptions(directions="reverse"))
    return _start(store, clock, folder.id, mode)


def test_both_new_modes_are_offered_stored_and_resumed() -> None:
    assert {"listening", "speaking"} <= set(MODES)
    for mode in ("listening", "speaking"):
        clock, store, _folder, session = studying(SPANISH[:1], mode=mode)
        assert session.turn is not None
        assert session.turn.mode == mode
        again = StudySession.resume(
            Store(Database.from_bytes(store.snapshot()), clock=clock), clock, NO_OFFSET
        )
        assert again is not None
        assert again.mode == mode


def test_switching_to_speaking_mid_card_is_kept() -> None:
    clock, store, _folder, session = studying(SPANISH[:2])
    session.set_mode("speaking")
    assert session.turn is not None
    assert session.turn.mode == "speaking"
    again = StudySession.resume(
        Store(Database.from_bytes(store.snapshot()), clock=clock), clock, NO_OFFSET
    )
    assert again is not None
    assert again.mode == "speaking"


def test_a_right_spoken_answer_suggests_good_and_keeps_what_was_heard() -> None:
    _clock, store, _folder, session = studying(SPANISH[:1], mode="speaking")
    spoken = session.answer_spoken(["The dog.", "the doc"])
    assert spoken.heard == "right"
    turn = session.turn
    assert turn is not None
    assert turn.heard == spoken
    assert session.phase == Phase.ANSWERED
    assert turn.suggested == Rating.GOOD
    session.grade(Rating.EASY)  # the suggestion can be overridden
    assert store.study.db.scalar("SELECT rating FROM review") == Rating.EASY
    assert store.study.db.scalar("SELECT mode FROM review") == "speaking"


def test_a_wrong_spoken_answer_suggests_again() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], mode="speaking")
    assert session.answer_spoken(["cat"]).heard == "wrong"
    assert session.phase == Phase.ANSWERED
    assert session.turn is not None
    assert session.turn.suggested == Rating.AGAIN


def test_a_near_miss_asks_and_yes_counts_it_right_but_hard() -> None:
    session = reverse()
    assert session.answer_spoken(["mariposas"]).heard == "near"
    assert session.phase == Phase.CONFIRMING
    with pytest.raises(LexicalError):
        session.grade()  # not before the question is answered
    session.confirm_spoken(said_it=True)
    assert session.phase == Phase.ANSWERED
    turn = session.turn
    assert turn is not None
    assert turn.suggested == Rating.HARD
    assert turn.heard is not None
    assert turn.heard.matched == "mariposa"


def test_no_to_the_near_miss_listens_again() -> None:
    session = reverse()
    session.answer_spoken(["mariposas"])
    session.confirm_spoken(said_it=False)
    assert session.phase == Phase.QUESTION
    assert session.turn is not None
    assert session.turn.heard is None
    assert session.answer_spoken(["mariposa"]).heard == "right"
    with pytest.raises(LexicalError):
        session.confirm_spoken(said_it=True)  # nothing is asked any more


@pytest.mark.parametrize("heard", [[], [""], ["  "], ["um"]])
def test_nothing_heard_is_never_graded(heard: list[str]) -> None:
    _clock, store, _folder, session = studying(SPANISH[:1], mode="speaking")
    assert session.answer_spoken(heard).heard == "empty"
    turn = session.turn
    assert session.phase == Phase.QUESTION
    assert turn is not None
    assert turn.notice == NOTHING_HEARD
    assert turn.suggested is None
    with pytest.raises(LexicalError):
        session.grade()
    assert store.study.db.scalar("SELECT count(*) FROM review") == 0


def test_listening_takes_a_typed_answer_and_can_show_the_prompt() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], mode="listening")
    turn = session.turn
    assert turn is not None
    assert not turn.prompt_shown
    session.show_prompt()
    assert turn.prompt_shown
    assert session.answer("dog").verdict == "exact"
    assert session.phase == Phase.ANSWERED


def test_typing_after_a_near_miss_replaces_it() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], mode="listening")
    session.answer_spoken(["dogs"])  # one letter more than a three-letter word: wrong
    assert session.phase == Phase.ANSWERED
    session = reverse("listening")
    session.answer_spoken(["mariposas"])
    session.answer("mariposa")
    turn = session.turn
    assert turn is not None
    assert turn.heard is None
    assert turn.suggested == Rating.GOOD


def test_spoken_answers_wait_for_a_question() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], mode="speaking")
    session.answer_spoken(["dog"])
    with pytest.raises(LexicalError):
        session.answer_spoken(["dog"])
    session.grade(Rating.EASY)
    assert session.phase == Phase.DONE
    with pytest.raises(LexicalError):
        session.answer_spoken(["dog"])
