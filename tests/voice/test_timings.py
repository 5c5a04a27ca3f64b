"""A voice turn's timings (app.voice.timings): what is logged from the marks the page gives,
whether marks are missing, repeated or out of order."""

from __future__ import annotations

import math
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from app.store.conversations import VOICE_TURN
from app.voice.timings import MARKS, VoiceTurnClock


def spoken_turn() -> VoiceTurnClock:
    clock = VoiceTurnClock()
    clock.speech_ended(10.0)
    clock.transcript_final(10.25)
    clock.request_sent(10.26)
    clock.first_token(11.0)
    clock.first_audio(11.5)
    clock.finished(14.0)
    return clock


def test_a_spoken_turn_logs_every_timing_in_milliseconds() -> None:
    entry = spoken_turn().entry(provider="gemini", model="flash", conversation_id=7)
    assert entry is not None
    assert (entry.agent, entry.provider, entry.model, entry.conversation_id, entry.outcome) == (
        VOICE_TURN,
        "gemini",
        "flash",
        7,
        "ok",
    )
    assert entry.speech_to_text_ms == 250
    assert entry.first_token_ms == 740  # from sending
    assert entry.first_audio_ms == 1240  # from sending to speech starting
    assert entry.total_ms == 4000  # from the end of speech


def test_a_typed_turn_has_no_speech_timings_and_counts_from_sending() -> None:
    clock = VoiceTurnClock()
    clock.request_sent(2.0)
    clock.first_token(2.5)
    clock.first_audio(3.0)
    clock.finished(5.0)
    entry = clock.entry()
    assert entry is not None
    assert entry.speech_to_text_ms is None
    assert (entry.first_token_ms, entry.first_audio_ms, entry.total_ms) == (500, 1000, 3000)


def test_a_failed_turn_keeps_its_kind_and_has_no_first_audio() -> None:
    clock = VoiceTurnClock()
    clock.speech_ended(1.0)
    clock.transcript_final(1.5)
    clock.request_sent(1.5)
    clock.finished(31.5, "timeout")
    entry = clock.entry()
    assert entry is not None
    assert entry.outcome == "timeout"
    assert (entry.first_token_ms, entry.first_audio_ms, entry.total_ms) == (None, None, 30_500)


def test_nothing_is_logged_before_the_turn_finishes() -> None:
    clock = VoiceTurnClock()
    clock.speech_ended(1.0)
    assert clock.entry() is None


def test_a_turn_that_failed_before_any_other_mark_took_no_time() -> None:
    clock = VoiceTurnClock()
    clock.finished(3.0, "not-allowed")
    entry = clock.entry()
    assert entry is not None
    assert (entry.outcome, entry.total_ms, entry.speech_to_text_ms) == ("not-allowed", 0, None)


def test_the_first_of_repeated_marks_wins() -> None:
    clock = spoken_turn()
    clock.first_token(12.0)
    clock.first_audio(13.0)
    clock.finished(20.0, "server")
    entry = clock.entry()
    assert entry is not None
    assert (entry.first_token_ms, entry.first_audio_ms, entry.total_ms) == (740, 1240, 4000)
    assert entry.outcome == "ok"


def test_a_transcript_final_before_the_end_of_speech_was_no_wait() -> None:
    # Web Speech often delivers the final result just before its speechend event.
    clock = VoiceTurnClock()
    clock.transcript_final(4.0)
    clock.speech_ended(4.1)
    clock.request_sent(4.2)
    clock.finished(6.1)
    entry = clock.entry()
    assert entry is not None
    assert (entry.speech_to_text_ms, entry.total_ms) == (0, 2000)


def test_an_answer_before_its_request_is_not_a_timing() -> None:
    clock = VoiceTurnClock()
    clock.first_token(1.0)
    clock.first_audio(1.2)
    clock.request_sent(2.0)
    clock.finished(1.5)
    entry = clock.entry()
    assert entry is not None
    assert (entry.first_token_ms, entry.first_audio_ms, entry.total_ms) == (None, None, 0)


def test_marks_that_are_not_times_are_ignored() -> None:
    clock = VoiceTurnClock()
    clock.request_sent(float("nan"))
    clock.request_sent(1.0)
    clock.first_token(float("inf"))
    clock.finished(2.0)
    entry = clock.entry()
    assert entry is not None
    assert (entry.first_token_ms, entry.total_ms) == (None, 1000)


def _feed(clock: VoiceTurnClock, mark: str) -> Callable[[float], None]:
    if mark == "finished":
        return lambda at: clock.finished(at, "server")
    feed: Callable[[float], None] = getattr(clock, mark)
    return feed


times = st.floats(allow_nan=True, allow_infinity=True) | st.floats(0, 1e6)


@given(st.lists(st.tuples(st.sampled_from(MARKS), times), max_size=20))
def test_any_marks_in_any_order_give_non_negative_timings_or_none(
    marks: list[tuple[str, float]],
) -> None:
    clock = VoiceTurnClock()
    for mark, at in marks:
        _feed(clock, mark)(at)
    entry = clock.entry()
    assert (entry is not None) == any(m == "finished" and math.isfinite(at) for m, at in marks)
    if entry is not None:
        assert entry.total_ms >= 0
        for value in (entry.speech_to_text_ms, entry.first_token_ms, entry.first_audio_ms):
            assert value is None or value >= 0
