"""Listening again after a failure (app.voice.restarts): quick failures back off and are
capped, so a recogniser that fails at once is never restarted in a loop."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.voice.restarts import CAP, LONGEST_DELAY, QUICK_SECONDS, WINDOW, Restarts


def test_a_failure_after_listening_a_while_listens_again_at_once() -> None:
    restarts, delay = Restarts().failed(began=0.0, at=8.0)  # "no-speech" after 8 s
    assert (restarts, delay) == (Restarts(), 0.0)


def test_quick_failures_wait_longer_each_time_then_stop() -> None:
    restarts, delays, at = Restarts(), [], 0.0
    for _ in range(CAP):
        restarts, delay = restarts.failed(began=at, at=at + 0.05)
        delays.append(delay)
        at += 0.05 + (delay or 0)
    assert delays == [0.5, 1.0, 2.0, 4.0, None]


def test_quick_failures_spread_over_more_than_the_window_never_stop_listening() -> None:
    restarts = Restarts()
    for minute in range(20):
        for second in (0.0, 20.0):
            at = minute * WINDOW + second
            restarts, delay = restarts.failed(began=at, at=at + 0.1)
            assert delay is not None


def test_hearing_something_starts_the_count_again() -> None:
    restarts, _ = Restarts().failed(0.0, 0.1)
    restarts, _ = restarts.failed(1.0, 1.1)
    assert restarts.heard() == Restarts()
    assert restarts.heard().failed(2.0, 2.1)[1] == 0.5


@given(st.lists(st.tuples(st.floats(0, 5), st.floats(0, 30)), max_size=60))
def test_never_more_than_a_handful_of_quick_restarts_a_minute(
    failures: list[tuple[float, float]],
) -> None:
    """Whatever the recogniser does, the listener restarts at most CAP - 1 times within a
    window of quick failures, each after a bounded wait."""
    restarts, at, restarted = Restarts(), 0.0, []
    for lasted, gap in failures:
        began, at = at + gap, at + gap + lasted
        restarts, delay = restarts.failed(began, at)
        if delay is None:
            break
        assert 0 <= delay <= LONGEST_DELAY
        if lasted < QUICK_SECONDS:
            restarted.append(at)
        at += delay
    for start in restarted:
        assert sum(1 for t in restarted if start <= t < start + WINDOW) < CAP
