"""Past sessions of the same scope (app/studying/past.py): read back bounded, newest first, and
told in one plain sentence."""

from __future__ import annotations

from datetime import date

from app.store import Store
from app.study.model import Rating
from app.studying.past import PastSession, last_time, previous_sessions
from app.studying.session import StudySession
from tests.study.helpers import SPANISH, Clock, folder_with_words, make_store


def studied(store: Store, clock: Clock, scope: dict[str, object], *ratings: Rating) -> int:
    session = StudySession.start(store, scope, "hands-free", clock, lambda: 0)
    for rating in ratings:
        session.reveal()
        session.grade(rating)
    session.finish()
    clock.advance(days=1)
    return session.row.id


def test_earlier_sessions_of_the_same_scope_newest_first_and_bounded() -> None:
    clock = Clock()
    store = make_store(clock)
    spanish = {"kind": "folder", "folder": folder_with_words(store, "Spanish", SPANISH).id}
    other = {"kind": "folder", "folder": folder_with_words(store, "Other", SPANISH[:2]).id}
    studied(store, clock, spanish, Rating.AGAIN)  # the oldest: beyond the limit
    studied(store, clock, spanish, Rating.AGAIN, Rating.GOOD)
    studied(store, clock, other, Rating.AGAIN)  # another scope
    studied(store, clock, spanish)  # nothing graded: not a session to remember
    studied(store, clock, spanish, Rating.EASY, Rating.AGAIN, Rating.AGAIN)
    now = studied(store, clock, spanish, Rating.GOOD)
    past = previous_sessions(store, now, utc_offset_minutes=0, limit=2)
    assert [(p.cards, p.correct, len(p.missed)) for p in past] == [(3, 1, 2), (2, 1, 1)]
    assert past[1].day == date(2026, 11, 24)
    assert previous_sessions(store, now, utc_offset_minutes=-13 * 60, limit=2)[1].day == date(
        2026, 11, 23
    )


def test_last_time_in_one_sentence() -> None:
    day, later = date(2026, 11, 24), date(2026, 11, 27)
    assert last_time(PastSession(day, 10, 7, ("perro", "gato")), later) == (
        "Last time (24 November 2026) you got 7 of 10 right and missed perro and gato."
    )
    assert last_time(PastSession(day, 1, 1, ()), later) == (
        "Last time (24 November 2026) you got 1 of 1 right and missed none."
    )
    many = last_time(PastSession(day, 2_000, 1_000, tuple(f"w{i}" for i in range(1_000))), later)
    assert "1,000 of 2,000" in many
    assert "w9" in many
    assert "w10," not in many
    assert many.endswith("and 990 more words.")


def test_today_and_yesterday_are_said_as_such() -> None:
    past = PastSession(date(2026, 11, 24), 4, 3, ("perro",))
    assert last_time(past, date(2026, 11, 24)) == (
        "Earlier today you got 3 of 4 right and missed perro."
    )
    assert last_time(past, date(2026, 11, 25)) == (
        "Yesterday you got 3 of 4 right and missed perro."
    )
    assert last_time(past, date(2026, 11, 26)).startswith("Last time (24 November 2026)")
