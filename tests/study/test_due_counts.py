"""Due counts kept current by grades equal counts read from scratch, and edits read again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.inputs import NewWord, WordPatch
from app.store.due_counts import RollUp, collection_due, read_parts
from app.store.study_queries import effective_options, stored_options
from app.study.model import Rating
from app.study.options import StudyOptions
from app.studying.session import StudySession
from app.ui.due import DueCounts
from tests.study.helpers import SPANISH, Clock, folder_with_words, make_store


def _fresh(store, counter: DueCounts, now: int):  # type: ignore[no-untyped-def]
    rows = store.folder_tree()
    day = counter.day(now)
    parts = read_parts(store.study.db, day.start, day.end)
    return RollUp(
        parts, rows, effective_options([r.folder for r in rows], stored_options(store.study.db))
    ).counts


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), max_size=12), st.integers(0, 3))
def test_counts_after_grades_match_a_fresh_read(ratings: list[int], new_per_day: int) -> None:
    clock = Clock()
    store = make_store(clock)
    parent = folder_with_words(store, "Lang", SPANISH[:2])
    child = folder_with_words(store, "Spanish", SPANISH[2:], parent=parent)
    store.study.set_options(child.id, StudyOptions(directions="both", new_per_day=new_per_day))
    counter = DueCounts(lambda: store, lambda: 60)
    counter.counts(clock.now, store.folder_tree())
    session = StudySession.start(store, {"kind": "all"}, "flashcard", clock, lambda: 60)
    for rating in ratings:
        if session.turn is None:
            break
        session.reveal()
        session.grade(Rating(rating))
        _check(store, counter, clock.now)
    session.undo()
    _check(store, counter, clock.now)


def _check(store, counter: DueCounts, now: int) -> None:  # type: ignore[no-untyped-def]
    """Both the folders' counts and the top bar's total (kept between redraws) are current."""
    fresh, rows = _fresh(store, counter, now), store.folder_tree()
    assert counter.counts(now, rows) == fresh
    assert counter.total(now, rows) == collection_due(fresh, rows)


def test_words_added_emptied_or_moved_change_the_counts() -> None:
    clock = Clock()
    store = make_store(clock)
    a = folder_with_words(store, "A", SPANISH[:2])
    b = folder_with_words(store, "B", [])
    counter = DueCounts(lambda: store, lambda: 0)
    assert counter.counts(clock.now, store.folder_tree())[a.id].new == 2
    store.add_word(NewWord(folder_id=a.id, term="sin", meanings=[]))
    assert counter.counts(clock.now, store.folder_tree())[a.id].new == 2
    assert counter.total(clock.now, store.folder_tree()).new == 2
    word = store.find_words("perro")[0]
    store.update_word(word.id, WordPatch(meanings=[]))
    assert counter.counts(clock.now, store.folder_tree())[a.id].new == 1
    assert counter.total(clock.now, store.folder_tree()).new == 1
    store.move_words([store.find_words("gato")[0].id], b.id)
    counts = counter.counts(clock.now, store.folder_tree())
    assert (counts[a.id].new, counts[b.id].new) == (0, 1)


def test_the_same_counts_come_back_until_something_changes() -> None:
    clock = Clock()
    store = make_store(clock)
    folder_with_words(store, "A", SPANISH)
    counter = DueCounts(lambda: store, lambda: 0)
    first = counter.counts(clock.now, store.folder_tree())
    assert counter.counts(clock.now, store.folder_tree()) is first
    clock.advance(days=1)
    assert counter.counts(clock.now, store.folder_tree()) is not first
