"""Rescheduling a folder's cards from their logs (app/studying/reschedule.py): the schedule
studying with the folder's options now would have left, later grades included, and exactly
the old one back when the options are taken back."""

from __future__ import annotations

from app.domain import Word
from app.store import Store
from app.store.changes import Changeset
from app.store.db import Database
from app.store.migrations import migrate
from app.store.queries import changes_placement
from app.store.transfer.steps import run_steps
from app.study.model import Rating
from app.study.options import StudyOptions
from app.studying.reschedule import (
    reschedule,
    rescheduled_after_moves,
    rescheduling,
    rescheduling_stale,
)
from app.studying.session import StudySession
from tests.study.helpers import SPANISH, Clock, assert_replays, folder_with_words

# Parameters fsrs-rs fitted to a simulated learner (tests/study/simulated.py, 1,500 cards).
FITTED = (
    *(0.0794, 1.3889, 3.5595, 12.1639, 6.6339, 0.7341, 2.7889, 0.1179, 1.6847, 0.1756),
    *(0.6175, 1.5032, 0.0667, 0.4031, 1.6178, 0.702, 1.2999, 0.5425, 0.0912, 0.0658, 0.1032),
)


def _studied(clock: Clock) -> tuple[Store, int]:
    store = Store(Database.open(), clock=clock)
    folder = folder_with_words(store, "Spanish", SPANISH)
    folder_with_words(store, "Verbs", [("comer", ["to eat"])], parent=folder)
    scope = {"kind": "folder", "folder": folder.id}
    for day in range(6):
        session = StudySession.start(store, scope, "flashcard", clock, lambda: 60)
        for n in range(8):
            if session.turn is None:
                break
            session.reveal()
            session.grade([Rating.GOOD, Rating.EASY, Rating.AGAIN, Rating.HARD][(n + day) % 4])
        clock.advance(days=1 + day)
    return store, folder.id


def _schedules(store: Store) -> dict[int, object]:
    return {card.id: card.progress for card in store.study.logged_cards(None)}


def test_fitted_parameters_reschedule_the_folder_and_taking_them_back_restores_it() -> None:
    clock = Clock()
    store, folder = _studied(clock)
    before = _schedules(store)
    store.study.set_options(folder, StudyOptions(parameters=FITTED))
    assert reschedule(store, folder) == len(before)
    assert_replays(store)
    # Studying goes on with the new parameters, then they are taken back: the card graded
    # since keeps that grade, replayed with the old parameters; every other card is as before.
    scope = {"kind": "folder", "folder": folder}
    session = StudySession.start(store, scope, "flashcard", clock, lambda: 60)
    assert session.turn is not None
    key = session.turn.card.key
    session.reveal()
    session.grade(Rating.GOOD)
    graded = store.study.card(key).card_id
    store.study.set_options(folder, None)
    reschedule(store, folder)
    assert_replays(store)
    after = _schedules(store)
    assert {k: v for k, v in after.items() if k != graded} == {
        k: v for k, v in before.items() if k != graded
    }
    assert after[graded] != before.get(graded)


def test_a_subfolder_with_its_own_options_keeps_its_schedules() -> None:
    clock = Clock()
    store, folder = _studied(clock)
    verbs = next(r.folder for r in store.folder_tree() if r.folder.name == "Verbs")
    store.study.set_options(verbs.id, StudyOptions())
    before = {c.id: c.progress for c in store.study.logged_cards(verbs.id)}
    store.study.set_options(folder, StudyOptions(parameters=FITTED))
    reschedule(store, folder)
    assert {c.id: c.progress for c in store.study.logged_cards(verbs.id)} == before
    assert_replays(store)


def test_taking_parameters_back_before_any_grade_restores_every_schedule_exactly() -> None:
    clock = Clock()
    store, folder = _studied(clock)
    before = _schedules(store)
    store.study.set_options(folder, StudyOptions(parameters=FITTED))
    reschedule(store, folder)
    assert _schedules(store) != before
    store.undo()  # the options step
    assert reschedule(store, folder) == len(before)
    assert _schedules(store) == before


def _moves_followed(store: Store) -> list[int]:
    """Reschedule after every move, undo and redo, as the page does; how many each time."""
    counts: list[int] = []

    def follow(changeset: Changeset) -> None:
        if changes_placement(changeset.changes):
            counts.append(rescheduled_after_moves(store, changeset.changes))

    store.subscribe(follow)
    return counts


def _word(store: Store, term: str) -> Word:
    return next(w for w in store.find_words(term))


def test_a_word_moved_to_a_folder_that_schedules_otherwise_is_rescheduled_and_back() -> None:
    clock = Clock()
    store, _folder = _studied(clock)
    other = folder_with_words(store, "Slow", [])
    store.study.set_options(other.id, StudyOptions(retention=0.8))
    counts = _moves_followed(store)
    before = _schedules(store)
    perro = _word(store, "perro")
    store.move_words([perro.id], other.id)
    moved = {c.id for c in store.study.logged_cards(other.id)}
    assert counts == [len(moved)]
    assert moved
    assert_replays(store)
    assert {k: v for k, v in _schedules(store).items() if k not in moved} == {
        k: v for k, v in before.items() if k not in moved
    }
    # Undo writes back the rows from before the move; redo the rows the move wrote, which
    # held the old schedules.
    store.undo()
    assert _schedules(store) == before
    store.redo()
    assert_replays(store)
    assert counts == [len(moved), 0, len(moved)]


def test_grades_given_after_a_move_survive_its_undo() -> None:
    clock = Clock()
    store, _folder = _studied(clock)
    other = folder_with_words(store, "Other", [])
    counts = _moves_followed(store)
    store.move_words([_word(store, "perro").id], other.id)
    # Perro is due in its new folder: the session shows it.
    clock.now = max(clock.now, *(c.progress.due for c in store.study.logged_cards(other.id)))
    session = StudySession.start(
        store, {"kind": "folder", "folder": other.id}, "flashcard", clock, lambda: 60
    )
    assert session.turn is not None
    session.reveal()
    session.grade(Rating.HARD)
    store.undo()  # the move
    assert counts[-1] == 1
    assert_replays(store)


def test_a_move_between_folders_that_schedule_alike_replays_nothing() -> None:
    clock = Clock()
    store, folder = _studied(clock)
    other = folder_with_words(store, "Same", [])
    store.study.set_options(other.id, StudyOptions(new_per_day=3))  # not a scheduling option
    counts = _moves_followed(store)
    store.move_words([_word(store, "gato").id], other.id)
    store.move_folder(other.id, folder)
    assert counts == [0, 0]


def test_a_folder_moved_under_other_options_follows_them_unless_it_has_its_own() -> None:
    clock = Clock()
    store, _folder = _studied(clock)
    verbs = next(r.folder for r in store.folder_tree() if r.folder.name == "Verbs")
    slow = folder_with_words(store, "Slow", [])
    store.study.set_options(slow.id, StudyOptions(parameters=FITTED))
    counts = _moves_followed(store)
    before = _schedules(store)
    store.move_folder(verbs.id, slow.id)
    assert_replays(store)
    assert counts[-1] == len(store.study.logged_cards(verbs.id)) > 0
    store.undo()
    assert _schedules(store) == before
    store.study.set_options(verbs.id, StudyOptions())
    store.move_folder(verbs.id, slow.id)
    assert counts[-1] == 0


def test_a_card_graded_while_the_chunks_run_is_replayed_from_its_new_log() -> None:
    clock = Clock()
    store, folder = _studied(clock)
    store.study.set_options(folder, StudyOptions(parameters=FITTED))
    steps = rescheduling(store, folder)
    step = next(steps)  # replayed, not written: the page repaints, and the learner grades
    assert step.done == step.total > 0
    scope = {"kind": "folder", "folder": folder}
    session = StudySession.start(store, scope, "flashcard", clock, lambda: 60)
    assert session.turn is not None
    session.reveal()
    session.grade(Rating.AGAIN)
    assert run_steps(steps) == step.total
    assert_replays(store)


def _from_before_the_hashed_fuzz(store: Store) -> Store:
    """`store` as schema 8 left it: due dates drawn with the old fuzz (here: a day later)."""
    db = store.study.db
    db.execute("UPDATE card SET due = due + 86400000 WHERE state = 2")
    db.execute("DROP TABLE stale_schedules")
    db.execute("PRAGMA user_version = 8")
    return Store(Database.from_bytes(db.serialize()))


def test_schedules_from_before_the_hashed_fuzz_are_replayed_once() -> None:
    clock = Clock()
    store, _folder = _studied(clock)
    assert not store.schedules_stale  # made at this schema: its due dates are its replays
    old = _from_before_the_hashed_fuzz(store)
    assert old.schedules_stale
    written: list[Changeset] = []
    old.subscribe(written.append)
    moved = run_steps(rescheduling_stale(old))
    assert moved == len([c for c in old.study.logged_cards(None) if c.progress.state == 2])
    assert_replays(old)
    assert written  # logged and broadcast like any reschedule
    assert not old.schedules_stale
    assert not Store(Database.from_bytes(old.study.db.serialize())).schedules_stale


def test_a_collection_without_cards_in_review_is_not_marked() -> None:
    db = Database.open()
    migrate(db, target=8)
    assert not Store(db).schedules_stale
