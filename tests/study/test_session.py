"""The study session engine on a fixed clock: queue order, limits, grading, undo, resume."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fsrs import Card, Scheduler, State
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import Folder, LexicalError
from app.inputs import NewWord, WordPatch
from app.store import Store
from app.store.changes import Changeset
from app.store.db import Database
from app.store.oplog import decode_entry, encode_entry
from app.study.model import DAY_MS, CardKey, CardState, Rating
from app.study.options import StudyOptions
from app.studying.session import Phase, StudySession
from tests.study.helpers import SPANISH, Clock, folder_with_words, make_store

NO_OFFSET = lambda: 0  # noqa: E731 - the local offset, as the browser would report it


def _start(store: Store, clock: Clock, folder: int | None = None, mode: str = "flashcard"):
    scope = {"kind": "folder", "folder": folder} if folder else {"kind": "all"}
    return StudySession.start(store, scope, mode, clock, NO_OFFSET)  # type: ignore[arg-type]


def studying(
    words: list[tuple[str, list[str]]], name: str = "Spanish", mode: str = "flashcard"
) -> tuple[Clock, Store, Folder, StudySession]:
    """A store on a test clock with one folder of `words` and a session studying it."""
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, name, words)
    return clock, store, folder, _start(store, clock, folder.id, mode)


def _grade_all(session: StudySession, rating: Rating) -> list[str]:
    seen = []
    while session.turn is not None and session.turn.card.state == CardState.NEW:
        seen.append(session.turn.card.term)
        session.reveal()
        session.grade(rating)
    return seen


def test_new_words_come_oldest_first_up_to_the_daily_limit() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH)
    store.study.set_options(folder.id, StudyOptions(new_per_day=3))
    session = _start(store, clock, folder.id)
    assert session.counts.new == 3
    assert _grade_all(session, Rating.EASY) == ["perro", "gato", "casa"]
    assert session.phase == Phase.DONE
    assert session.summary is not None
    assert session.summary.new_learned == 3


def test_the_limit_counts_what_was_introduced_earlier_today() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH)
    store.study.set_options(folder.id, StudyOptions(new_per_day=3))
    _grade_all(_start(store, clock, folder.id), Rating.EASY)
    assert _start(store, clock, folder.id).counts.new == 0
    clock.advance(days=1)
    assert _start(store, clock, folder.id).counts.new == 2  # the two words never studied


def test_again_brings_a_card_back_within_the_session_before_new_ones() -> None:
    clock, _store, _folder, session = studying(SPANISH[:2])
    session.reveal()
    session.grade(Rating.AGAIN)  # perro: due again in a minute
    assert session.counts.learning == 1
    assert session.turn is not None
    assert session.turn.card.term == "gato"
    clock.advance(minutes=2)
    session.reveal()
    session.grade(Rating.EASY)
    assert session.turn is not None
    assert session.turn.card.term == "perro"


def test_reviews_come_first_lowest_retrievability_first() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH)
    _grade_all(_start(store, clock, folder.id), Rating.EASY)
    db = store.study.db
    # Same last review, different stability: the least stable is the least likely recalled.
    stabilities = (("perro", 9.0), ("gato", 2.0), ("casa", 30.0), ("libro", 60), ("agua", 5))
    for term, stability in stabilities:
        db.execute(
            "UPDATE card SET stability = ? WHERE word_id = (SELECT id FROM word WHERE term = ?)",
            (stability, term),
        )
    db.execute("UPDATE card SET due = ?", (clock.now,))
    clock.advance(days=40)
    session = _start(store, clock, folder.id)
    assert session.counts.review == 5
    assert session.counts.new == 0
    order = []
    while session.turn is not None:
        order.append(session.turn.card.term)
        session.reveal()
        session.grade(Rating.EASY)
    assert order == ["gato", "agua", "perro", "casa", "libro"]


def test_grade_buttons_show_the_interval_that_is_applied() -> None:
    clock, store, _folder, session = studying(SPANISH[:1])
    session.reveal()
    shown = session.intervals()[Rating.EASY]
    clock.advance(minutes=0.5)  # the user hesitates before pressing Easy
    session.grade(Rating.EASY)
    row = store.study.db.first("SELECT due, last_review FROM card")
    assert row is not None
    assert row["due"] - row["last_review"] == shown


def test_undo_restores_the_exact_previous_schedule_and_the_card() -> None:
    clock, store, _folder, session = studying(SPANISH[:2])
    session.reveal()
    session.grade(Rating.GOOD)
    clock.advance(minutes=15)
    session = StudySession.resume(store, clock, NO_OFFSET) or pytest.fail("no session")
    assert session.turn is not None
    term = session.turn.card.term
    schedule = "SELECT state, step, stability, difficulty, due, last_review, reps, lapses FROM card"
    before = store.study.db.all(schedule)
    session.reveal()
    session.grade(Rating.AGAIN)
    assert store.study.db.all(schedule) != before
    assert session.undo()
    assert [tuple(r) for r in store.study.db.all(schedule)] == [tuple(r) for r in before]
    assert session.turn is not None
    assert session.turn.card.term == term
    assert session.phase == Phase.QUESTION


def test_undoing_a_first_grade_makes_the_word_new_again() -> None:
    _clock, store, _folder, session = studying(SPANISH[:2])
    session.reveal()
    session.grade(Rating.EASY)
    assert session.undo()
    assert store.study.db.scalar("SELECT count(*) FROM card") == 0
    assert session.counts.new == 2
    assert not session.undo() or session.undo() is False


def test_grades_are_not_on_the_edit_undo_stack() -> None:
    _clock, store, _folder, session = studying(SPANISH[:2])
    session.reveal()
    session.grade(Rating.GOOD)
    assert store.undo_label == "Add word gato" or "gato" in (store.undo_label or "")
    store.undo()  # takes back the last edit (adding gato), not the grade of perro
    assert store.study.db.scalar("SELECT count(*) FROM review") == 1


def test_a_reload_resumes_the_same_card_with_the_same_counts() -> None:
    clock, store, _folder, session = studying(SPANISH)
    for rating in (Rating.GOOD, Rating.AGAIN):
        session.reveal()
        session.grade(rating)
    reloaded = Store(Database.from_bytes(store.snapshot()), clock=clock)
    again = StudySession.resume(reloaded, clock, NO_OFFSET)
    assert again is not None
    assert again.turn is not None
    assert session.turn is not None
    assert again.turn.card.key == session.turn.card.key
    assert again.counts == session.counts


def test_typing_grades_forgivingly_and_the_suggestion_can_be_overridden() -> None:
    _clock, store, _folder, session = studying([("casa", ["house", "home"])], mode="typing")
    verdict = session.answer("  Home. ")
    assert verdict.verdict == "exact"
    assert session.phase == Phase.ANSWERED
    assert session.turn is not None
    assert session.turn.suggested == Rating.GOOD
    session.grade(Rating.EASY)
    assert store.study.db.scalar("SELECT rating FROM review") == Rating.EASY


def test_choice_offers_the_answer_among_words_of_the_folder() -> None:
    _clock, _store, _folder, session = studying(SPANISH, mode="choice")
    turn = session.turn
    assert turn is not None
    assert len(turn.choices) == 4
    assert "dog" in turn.choices
    assert session.choose(turn.choices.index("dog"))
    assert turn.suggested == Rating.GOOD


def test_choice_with_a_single_word_falls_back_to_a_flashcard() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], name="Solo", mode="choice")
    assert session.turn is not None
    assert session.turn.mode == "flashcard"
    assert "no other words" in session.turn.notice


def test_words_without_meaning_are_left_out_and_counted() -> None:
    _clock, _store, _folder, session = studying([("hola", ["hello"]), ("adiós", [])], name="Half")
    assert session.counts.new == 1
    assert session.excluded == 1


def test_an_empty_folder_ends_at_once_with_an_empty_summary() -> None:
    _clock, _store, _folder, session = studying([], name="Empty")
    assert session.phase == Phase.DONE
    assert session.summary is not None
    assert session.summary.cards == 0


def test_both_directions_are_separate_cards_forward_first() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:2])
    store.study.set_options(folder.id, StudyOptions(directions="both"))
    session = _start(store, clock, folder.id)
    assert session.counts.new == 4
    prompts = []
    while session.turn is not None:
        prompts.append(session.turn.card.prompt)
        session.reveal()
        session.grade(Rating.EASY)
    assert prompts == ["perro", "gato", "dog", "cat"]


def test_subfolders_inherit_options_unless_they_set_their_own() -> None:
    clock = Clock()
    store = make_store(clock)
    parent = folder_with_words(store, "Lang", [])
    child = folder_with_words(store, "Spanish", SPANISH, parent=parent)
    store.study.set_options(parent.id, StudyOptions(new_per_day=1, directions="reverse"))
    assert store.study.options_for(child.id) == (
        StudyOptions(new_per_day=1, directions="reverse"),
        False,
    )
    session = _start(store, clock, parent.id)
    assert session.counts.new == 1
    assert session.turn is not None
    assert session.turn.card.direction == "reverse"


def test_a_deleted_word_leaves_the_session_without_an_error() -> None:
    _clock, store, _folder, session = studying(SPANISH[:2])
    session.reveal()
    session.grade(Rating.AGAIN)
    perro = store.find_words("perro")[0]
    store.delete_words([perro.id])
    assert store.study.db.scalar("SELECT count(*) FROM card") == 0  # progress goes with it
    store.undo()
    assert store.study.db.scalar("SELECT count(*) FROM card") == 1  # and comes back with it


def test_moving_a_word_moves_its_cards() -> None:
    clock = Clock()
    store = make_store(clock)
    a = folder_with_words(store, "A", SPANISH[:1])
    b = folder_with_words(store, "B", [])
    session = _start(store, clock, a.id)
    session.reveal()
    session.grade(Rating.GOOD)
    store.move_words([store.find_words("perro")[0].id], b.id)
    assert store.study.db.scalar("SELECT folder_id FROM card") == b.id


def test_grading_refuses_before_the_answer_is_shown_in_typing() -> None:
    _clock, _store, _folder, session = studying(SPANISH[:1], mode="typing")
    with pytest.raises(LexicalError):
        session.grade()
    session.answer("dgo")
    with pytest.raises(LexicalError):
        session.answer("dog")  # already answered


def test_a_read_only_store_refuses_to_start_a_session() -> None:
    clock = Clock()
    store = make_store(clock)
    folder_with_words(store, "Spanish", SPANISH[:1])
    follower = Store.from_snapshot(store.snapshot(), read_only=True)
    with pytest.raises(LexicalError, match="read-only"):
        _start(follower, clock)


def test_a_review_dated_in_the_future_does_not_break_scheduling() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:1])
    _grade_all(_start(store, clock, folder.id), Rating.EASY)
    clock.advance(days=-3)  # the computer's clock went back
    session = _start(store, clock, folder.id)
    assert session.phase == Phase.DONE
    clock.advance(days=30)
    session = _start(store, clock, folder.id)
    session.reveal()
    session.grade(Rating.GOOD)


def test_a_damaged_card_row_is_studied_rather_than_crashing() -> None:
    clock, store, folder, session = studying(SPANISH[:1])
    session.reveal()
    session.grade(Rating.AGAIN)
    store.study.db.execute("UPDATE card SET state = 99")
    session = _start(store, clock, folder.id)
    assert session.phase in (Phase.DONE, Phase.QUESTION)


def test_a_grade_survives_the_operation_log() -> None:
    clock = Clock()
    store = make_store(clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:2])
    logged: list[Changeset] = []
    store.subscribe(logged.append)
    session = _start(store, clock, folder.id)
    session.reveal()
    session.grade(Rating.GOOD)
    replica = Store(Database.from_bytes(store.snapshot()), clock=clock)
    replica.study.db.execute("DELETE FROM card")
    for seq, changeset in enumerate(logged, start=1):
        _, decoded = decode_entry(encode_entry(seq, changeset))
        assert decoded == changeset  # stability and difficulty are floats, kept as floats
        replica.apply_logged(decoded.changes)
    row = replica.study.db.first("SELECT stability, difficulty FROM card")
    assert row is not None
    assert isinstance(row["stability"], float)


def test_a_new_word_is_found_beside_a_studied_word_that_lost_its_meaning() -> None:
    clock, store, folder, session = studying(SPANISH[:1])
    session.reveal()
    session.grade(Rating.EASY)
    store.update_word(store.find_words("perro")[0].id, WordPatch(meanings=[]))
    store.add_word(NewWord(folder_id=folder.id, term="gato", meanings=["cat"]))
    again = _start(store, clock, folder.id)
    assert again.counts.new == 1
    assert again.turn is not None
    assert again.turn.card.term == "gato"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(0.1, 400), st.integers(1, 400)), min_size=2, max_size=12))
def test_reviews_are_ordered_by_fsrs_retrievability(cards: list[tuple[float, int]]) -> None:
    """The SQL order (elapsed time over stability) is FSRS's lowest-retrievability order (for
    whole days: FSRS counts elapsed days whole, the SQL exactly)."""
    clock, store, folder, session = studying([(f"w{i}", ["m"]) for i in range(len(cards))])
    _grade_all(session, Rating.EASY)
    db = store.study.db
    for i, (stability, days_ago) in enumerate(cards):
        last = clock.now - days_ago * DAY_MS
        db.execute(
            "UPDATE card SET stability = ?, last_review = ?, due = ? WHERE word_id = "
            "(SELECT id FROM word WHERE term = ?)",
            (stability, last, clock.now - 1, f"w{i}"),
        )
    scheduler = Scheduler()
    now = datetime.fromtimestamp(clock.now / 1000, tz=UTC)

    def recall(key: CardKey) -> float:
        row = db.first("SELECT stability, last_review FROM card WHERE word_id = ?", (key[0],))
        assert row is not None
        last = datetime.fromtimestamp(row["last_review"] / 1000, tz=UTC)
        card = Card(1, State.Review, None, row["stability"], 5.0, now, last)
        return float(scheduler.get_card_retrievability(card, now))

    order = [recall(key) for key in _start(store, clock, folder.id).queue.reviews]
    assert order == sorted(order)
