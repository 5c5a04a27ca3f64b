"""How saying something fails (app.speech.outcome): the sentences, the notice said once when
nobody can speak, and how long the browser is waited for: its voices, then each utterance's
start and end (a bound that grows with the text), so a hung engine never blocks."""

from __future__ import annotations

import pytest

from app.speech.outcome import (
    END_BASE_S,
    FAILED,
    FAILURES,
    IN_TEXT,
    START_WAIT_S,
    VOICES_WAIT_S,
    SpeechError,
    SpeechOff,
    failure,
    off_notice,
    patience_s,
    playback_s,
    voices_wait_s,
)


def test_an_utterance_must_start_soon_whatever_its_length() -> None:
    assert patience_s("perro", 1.0, started=False) == START_WAIT_S
    assert patience_s("a much longer sentence " * 10, 0.5, started=False) == START_WAIT_S
    assert 1.0 <= START_WAIT_S <= 5.0  # longer than a network voice takes, short enough to wait


def test_once_started_it_may_take_twice_as_long_as_speech_at_its_rate() -> None:
    assert patience_s("", 1.0, started=True) == END_BASE_S
    word, sentence = "perro", "The answer is the hospital, el hospital." * 2
    assert patience_s(word, 1.0, started=True) < patience_s(sentence, 1.0, started=True)
    # About 14 characters a second is ordinary speech; the bound allows at most half that pace.
    assert patience_s(sentence, 1.0, started=True) >= END_BASE_S + len(sentence) / 7
    assert patience_s(sentence, 0.5, started=True) == pytest.approx(
        END_BASE_S + 2 * (patience_s(sentence, 1.0, started=True) - END_BASE_S)
    )


def test_a_rate_of_zero_never_means_waiting_for_ever() -> None:
    assert patience_s("perro", 0.0, started=True) < 60


def test_the_providers_audio_may_take_both_to_start_and_to_be_said() -> None:
    sentence = "The answer is the hospital."
    assert playback_s(sentence, 0.5) == START_WAIT_S + patience_s(sentence, 0.5, started=True)


def test_voices_are_waited_for_from_when_they_were_first_asked_for() -> None:
    assert voices_wait_s(asked_at=10.0, now=10.0) == VOICES_WAIT_S
    assert voices_wait_s(asked_at=10.0, now=10.5) == VOICES_WAIT_S - 0.5
    assert voices_wait_s(asked_at=10.0, now=10.0 + VOICES_WAIT_S) == 0.0
    assert voices_wait_s(asked_at=10.0, now=99.0) == 0.0  # long after the page loaded


def test_failures_of_the_sound_output_are_their_sentence() -> None:
    for code in ("not-allowed", "audio-busy", "audio-hardware"):
        error = failure(code)
        assert type(error) is SpeechError
        assert error.message == FAILURES[code]


def test_other_failures_mean_the_browser_cannot_say_it_so_someone_else_may() -> None:
    for code in ("synthesis-failed", "voice-unavailable", "network", "something-new"):
        error = failure(code)
        assert isinstance(error, SpeechOff)
        assert error.message == FAILURES.get(code, FAILED)


def test_the_notice_says_what_goes_on_in_text_then_why() -> None:
    off = SpeechOff("Your browser has no voices.")
    assert off_notice(off, "drill") == (
        "Speech is off, so the drill goes on in text. Your browser has no voices."
    )
    assert set(IN_TEXT) == {"drill", "answer", "prompt"}
    assert all(text.startswith("Speech is off") for text in IN_TEXT.values())
