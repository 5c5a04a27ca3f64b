"""Listening through the provider (app/browser/provider_listening.py) when the browser never
answers: a `resume()` that never settles holds nothing up, and a microphone or a recorder that
never answers ends the turn with a listening error, never a wait for ever (issue 24, item 8)."""

from __future__ import annotations

import asyncio

import pytest

from app.browser import microphone
from app.browser.provider_listening import ERROR_CODES
from app.voice.listening_events import Event, RecognitionEnd, RecognitionError, Result
from tests.browser import fakes
from tests.browser.audio_fakes import AudioContext, AudioFakes, MediaRecorder
from tests.browser.test_provider_listening import OPENAI_ANSWER, OPENAI_SETTINGS, SENT, Turn, said


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> AudioFakes:
    fakes.js.navigator.onLine = True
    return AudioFakes().install(monkeypatch, microphone)


def test_a_resume_that_never_settles_still_records_and_transcribes(audio: AudioFakes) -> None:
    AudioContext.settles = False  # Firefox ESR with no sound device: the level stays still
    turn = said(OPENAI_SETTINGS, OPENAI_ANSWER)
    assert turn.kinds == [*SENT, Result, RecognitionEnd]
    assert len(turn.transport.requests) == 1


def ends_soon(turn: Turn) -> None:
    """Hold for a moment and let go, then wait for the end (on real time: the bounds are
    timers), failing instead of hanging if it never comes."""

    async def go() -> None:
        ended = asyncio.Event()

        def on_event(event: Event) -> None:
            turn.events.append(event)
            if isinstance(event, RecognitionEnd):
                ended.set()

        turn.session.on_event = on_event
        turn.session.start("en", local=False)
        await asyncio.sleep(0.005)
        turn.session.stop()
        await ended.wait()

    asyncio.run(asyncio.wait_for(go(), 2))


def test_a_microphone_that_never_answers_ends_the_turn_with_a_sentence(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(microphone, "OPEN_S", 0.001)
    audio.devices.answers = False
    turn = Turn(OPENAI_SETTINGS, ())
    ends_soon(turn)
    assert turn.events == [RecognitionError(0.0, ERROR_CODES["busy"]), RecognitionEnd(0.0)]


def test_a_recorder_that_never_starts_ends_the_turn_before_saying_it_listens(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Audiostart ("Listening") is said only once the recorder records: one that never does
    is a busy microphone, not a turn that records nothing."""
    monkeypatch.setattr(microphone, "START_S", 0.01)
    MediaRecorder.starts = False
    turn = Turn(OPENAI_SETTINGS, ())
    ends_soon(turn)
    assert turn.events == [RecognitionError(0.0, ERROR_CODES["busy"]), RecognitionEnd(0.0)]
    assert not turn.microphone.is_open
    assert audio.proxies.alive == 0


def test_a_recorder_that_never_hands_over_its_data_ends_the_turn_with_a_sentence(
    audio: AudioFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(microphone, "STOP_S", 0.01)
    MediaRecorder.hands_over = False
    turn = Turn(OPENAI_SETTINGS, ())
    ends_soon(turn)
    assert turn.kinds == [*SENT, RecognitionError, RecognitionEnd]
    assert turn.events[4] == RecognitionError(0.0, ERROR_CODES["unreadable"])
    assert turn.transport.requests == []
    assert not turn.microphone.is_open
    assert audio.proxies.alive == 0
