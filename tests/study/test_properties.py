"""Properties of the session engine over any sequence of grades, undos and reloads: no grade
is ever lost or applied twice, and every card's schedule is what its review log says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.store import Store
from app.store.db import Database
from app.study.model import Rating
from app.studying.session import StudySession
from tests.study.helpers import SPANISH, Clock, folder_with_words

Step = tuple[str, int]
steps = st.lists(
    st.one_of(
        st.tuples(st.just("grade"), st.integers(1, 4)),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("reload"), st.just(0)),
        st.tuples(st.just("wait"), st.integers(1, 60 * 24 * 3)),
    ),
    max_size=25,
)


def _offset() -> int:
    return 60


@settings(max_examples=40, deadline=None)
@given(steps)
def test_no_grade_is_lost_or_applied_twice(plan: list[Step]) -> None:
    clock = Clock()
    store = Store(Database.open(), clock=clock)
    folder = folder_with_words(store, "Spanish", SPANISH[:3])
    session = StudySession.start(
        store, {"kind": "folder", "folder": folder.id}, "flashcard", clock, _offset
    )
    graded: list[tuple[int, str]] = []  # what the user did and did not take back
    for action, value in plan:
        if action == "grade" and session.turn is not None:
            session.reveal()
            graded.append((session.turn.card.word_id, session.turn.card.direction))
            session.grade(Rating(value))
        elif action == "undo":
            if session.undo():
                graded.pop()
        elif action == "reload":
            store = Store(Database.from_bytes(store.snapshot()), clock=clock)
            resumed = StudySession.resume(store, clock, _offset)
            assert resumed is not None
            session = resumed
        else:
            clock.advance(minutes=value)
            session = StudySession.resume(store, clock, _offset) or session
    db = store.study.db
    logged = [
        (r["word_id"], r["direction"])
        for r in db.all(
            "SELECT c.word_id, c.direction FROM review r JOIN card c ON c.id = r.card_id "
            "ORDER BY r.id"
        )
    ]
    assert logged == graded
    # Each card counts every review of it, and only its first review saw it new.
    for card in db.all("SELECT * FROM card"):
        befores = [
            r["state_before"]
            for r in db.all(
                "SELECT state_before FROM review WHERE card_id = ? ORDER BY id", (card["id"],)
            )
        ]
        assert card["reps"] == len(befores)
        assert [b == 0 for b in befores] == [i == 0 for i in range(len(befores))]
