"""The provider rung without a button (app/browser/utterances.py) over a scripted detector:
each utterance the detector hands over is one request, its words one final result; silence
sends nothing; a lost upload says whether trying again may work; stopping lets an utterance
under way finish; the microphone ending is said."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from app.browser import microphone, utterances
from app.browser.microphone import Microphone
from app.browser.utterances import UtteranceSession
from app.llm.audio import AudioOptions
from app.llm.settings import ProviderSettings
from app.llm.spending import MemoryCounter
from app.voice.listening_events import (
    AudioStart,
    Event,
    RecognitionEnd,
    RecognitionError,
    RecognitionStart,
    Result,
    SpeechEnd,
    SpeechStart,
    Transcribing,
)
from tests.browser import fakes
from tests.browser.audio_fakes import AudioFakes, Blob
from tests.browser.waiting import until
from tests.fake_sleep import Sleeper
from tests.llm.transports import Reply, ScriptedTransport

SETTINGS = ProviderSettings(provider="openai", api_key=SecretStr("sk-test"))


class Detector:
    """static/vad.js as the session uses it: `start` keeps the callbacks; the test plays the
    detector's part by calling them."""

    def __init__(self) -> None:
        self.callbacks: Any = None
        self.stopped: list[bool] = []

    async def start(self, stream: Any, context: Any, callbacks: Any, options: Any) -> Any:
        assert stream is not None
        self.callbacks = callbacks
        return SimpleNamespace(stop=self.stopped.append)

    def flowing(self) -> None:
        """The worker got the session's first frames."""
        self.callbacks.onListening(0.5)

    def utterance(self, audio: bytes = b"RIFF-speech") -> None:
        self.callbacks.onSpeechStart(1.0)
        self.callbacks.onSpeechEnd(2.0, Blob(audio, "audio/wav"), "audio/wav", None)


@pytest.fixture
def detector(monkeypatch: pytest.MonkeyPatch) -> Detector:
    fakes.js.navigator.onLine = True
    AudioFakes().install(monkeypatch, microphone)
    found = Detector()

    async def load(url: str) -> Detector:
        assert url == utterances.DETECTOR
        return found

    monkeypatch.setattr(utterances, "import_script", load)
    monkeypatch.setattr(utterances, "js_object", SimpleNamespace)
    return found


def listening(*replies: Reply) -> tuple[UtteranceSession, list[Event], ScriptedTransport]:
    events: list[Event] = []
    transport = ScriptedTransport(*replies)
    options = AudioOptions(counter=MemoryCounter(), sleep=Sleeper())  # retries without waiting
    session = UtteranceSession(events.append, Microphone(), lambda: SETTINGS, transport, options)
    return session, events, transport


def kinds(events: list[Event]) -> list[type]:
    return [type(event) for event in events]


def test_each_utterance_is_one_request_and_one_final_result(detector: Detector) -> None:
    session, events, transport = listening(Reply(body={"text": "dog"}), Reply(body={"text": ""}))

    async def go() -> None:
        session.start("en", local=False, phrases=["dog", "cat", "repeat"])
        await until(lambda: detector.callbacks is not None)
        detector.flowing()
        detector.utterance()
        await until(lambda: Result in kinds(events))
        detector.utterance(b"RIFF-cough")  # heard as nothing: no result, still listening
        await until(lambda: len(transport.requests) == 2)
        await asyncio.sleep(0)
        session.stop()
        await until(lambda: RecognitionEnd in kinds(events))

    asyncio.run(go())
    assert kinds(events) == [
        RecognitionStart,
        AudioStart,
        SpeechStart,
        SpeechEnd,
        Transcribing,  # sent: the words are on their way
        Transcribing,  # and back
        Result,
        SpeechStart,
        SpeechEnd,
        Transcribing,
        Transcribing,  # heard as nothing: no result
        RecognitionEnd,
    ]
    waits = [e.done for e in events if isinstance(e, Transcribing)]
    assert waits == [False, True, False, True]
    result = events[6]
    assert isinstance(result, Result)
    assert result.segments[0].final
    assert result.segments[0].alternatives[0].transcript == "dog"
    first = transport.requests[0]
    assert b"RIFF-speech" in first.body
    assert b"audio/wav" in first.body
    assert b"dog, cat, repeat" in first.body  # the hints, as the prompt
    assert detector.stopped == [False]


def test_it_says_it_hears_only_once_the_detectors_first_frames_arrive(detector: Detector) -> None:
    """The session starts at once, but its audio reaches the detector a little later: a word
    said before then loses its start, so audiostart waits for the first frames."""
    session, events, _ = listening()

    async def go() -> None:
        session.start("en", local=False)
        await until(lambda: RecognitionStart in kinds(events))
        await asyncio.sleep(0)
        assert AudioStart not in kinds(events)
        detector.flowing()
        assert kinds(events) == [RecognitionStart, AudioStart]

    asyncio.run(go())


def test_a_failed_upload_says_whether_trying_again_may_work(detector: Detector) -> None:
    session, events, _ = listening(*[Reply(status=500, body={"error": {"message": "x"}})] * 3)

    async def go() -> None:
        session.start("en", local=False)
        await until(lambda: detector.callbacks is not None)
        detector.utterance()
        await until(lambda: RecognitionError in kinds(events))

    asyncio.run(go())
    [failed] = [e for e in events if isinstance(e, RecognitionError)]
    # The wait ends after the failure, so the drill is never left waiting for words.
    assert [e.done for e in events if isinstance(e, Transcribing)] == [False, True]
    assert (failed.code, failed.passing) == ("provider", True)
    assert RecognitionEnd not in kinds(events)  # it goes on listening


def test_the_microphone_ending_is_said_and_ends_the_session(detector: Detector) -> None:
    session, events, _ = listening()

    async def go() -> None:
        session.start("en", local=False)
        await until(lambda: detector.callbacks is not None)
        detector.callbacks.onError("ended")
        await asyncio.sleep(0)

    asyncio.run(go())
    assert events[-2:] == [RecognitionError(0.0, "no-microphone"), RecognitionEnd(0.0)]


def test_an_abort_reports_nothing_the_provider_says_afterwards(detector: Detector) -> None:
    session, events, _ = listening(Reply(body={"text": "dog"}, hang=True))

    async def go() -> None:
        session.start("en", local=False)
        await until(lambda: detector.callbacks is not None)
        detector.utterance()
        await asyncio.sleep(0)
        session.abort()
        await asyncio.sleep(0)

    asyncio.run(go())
    assert Result not in kinds(events)
    assert events[-2:] == [RecognitionError(0.0, "aborted"), RecognitionEnd(0.0)]
