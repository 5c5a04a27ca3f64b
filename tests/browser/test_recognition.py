"""The browser's recogniser as listening events (app/browser/recognition.py), over a fake
`SpeechRecognition` that fires events the way Chrome does."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, ClassVar

import js
import pytest

from app.browser import recognition
from app.voice.listening_events import (
    Alternative,
    AudioStart,
    Event,
    RecognitionEnd,
    RecognitionError,
    RecognitionStart,
    Result,
    Segment,
    SpeechEnd,
    SpeechStart,
)
from tests.browser import fakes


class Results(list[Any]):
    """SpeechRecognitionResultList / SpeechRecognitionResult: indexable, `length`, `item`."""

    isFinal = False

    @property
    def length(self) -> int:
        return len(self)

    def item(self, index: int) -> Any:
        return self[index]


def result(final: bool, *texts: str) -> Results:
    heard = Results(
        SimpleNamespace(transcript=t, confidence=0.9 - i / 10) for i, t in enumerate(texts)
    )
    heard.isFinal = final
    return heard


class FakeRecognition(fakes.EventTarget):
    made: ClassVar[list[FakeRecognition]] = []
    answer = "available"
    phrases_supported = True

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.continuous = self.interimResults = self.processLocally = False
        self.maxAlternatives = 1
        if self.phrases_supported:
            self.phrases: Any = None
        self.started = self.stopped = self.aborted = 0
        FakeRecognition.made.append(self)

    @classmethod
    def new(cls) -> FakeRecognition:
        return cls()

    @staticmethod
    async def available(options: Any) -> str:
        return FakeRecognition.answer

    def start(self) -> None:
        self.started += 1

    def stop(self) -> None:
        self.stopped += 1

    def abort(self) -> None:
        self.aborted += 1

    def removeEventListener(self, type_: str, handler: Any) -> None:
        self.listeners = [entry for entry in self.listeners if entry[:2] != (type_, handler)]

    def fire(self, type_: str, **fields: Any) -> None:
        self._fire(fakes.Event(type_, **fields), capture=False)


@pytest.fixture(autouse=True)
def browser() -> None:
    FakeRecognition.made = []
    FakeRecognition.answer = "available"
    js.window.SpeechRecognition = FakeRecognition
    js.navigator.onLine = True
    js.Array.of = lambda *items: list(items)
    js.window.SpeechRecognitionPhrase = SimpleNamespace(
        new=lambda text, boost: SimpleNamespace(phrase=text, boost=boost)
    )


def session() -> tuple[recognition.Session, list[Event]]:
    events: list[Event] = []
    return recognition.Session(events.append), events


def test_a_session_reports_the_real_events_in_order_and_lets_go_of_its_proxies() -> None:
    async def go() -> tuple[list[Event], FakeRecognition]:
        listening, events = session()
        listening.start("es-MX", local=True, phrases=["perro", "gato"])
        [made] = FakeRecognition.made
        made.fire("start")
        made.fire("audiostart")
        made.fire("speechstart")
        made.fire("result", results=Results([result(False, "pe")]))
        made.fire("result", results=Results([result(True, "perro", "pero")]))
        made.fire("speechend")
        listening.stop()
        made.fire("end")
        await asyncio.sleep(0)  # released once the "end" handler has returned
        return events, made

    events, made = asyncio.run(go())
    assert [type(e) for e in events] == [
        RecognitionStart,
        AudioStart,
        SpeechStart,
        Result,
        Result,
        SpeechEnd,
        RecognitionEnd,
    ]
    final = events[4]
    assert isinstance(final, Result)
    assert final.segments == (Segment(True, (Alternative("perro", 0.9), Alternative("pero", 0.8))),)
    assert (made.lang, made.continuous, made.interimResults, made.maxAlternatives) == (
        "es-MX",
        True,
        True,
        recognition.ALTERNATIVES,
    )
    assert made.processLocally
    assert made.stopped == 1
    assert [p.phrase for p in made.phrases] == ["perro", "gato"]
    assert fakes.live_proxies == []
    assert made.listeners == []


def test_an_error_code_is_passed_on() -> None:
    listening, events = session()
    listening.start("en", local=False)
    FakeRecognition.made[0].fire("error", error="not-allowed")
    assert events == [RecognitionError(0.0, "not-allowed")]
    assert not FakeRecognition.made[0].processLocally


def test_without_a_recogniser_or_offline_nothing_starts() -> None:
    js.window.SpeechRecognition = None
    listening, events = session()
    listening.start("en", local=False)
    assert events == [RecognitionError(0.0, "unsupported")]
    assert not recognition.supported()
    js.window.SpeechRecognition = FakeRecognition
    js.navigator.onLine = False
    listening, events = session()
    listening.start("en", local=False)
    assert events == [RecognitionError(0.0, "offline")]
    assert FakeRecognition.made == []
    listening.start("en", local=True)  # on this device it needs no network
    assert len(FakeRecognition.made) == 1


def test_a_browser_without_phrases_listens_without_hints() -> None:
    FakeRecognition.phrases_supported = False
    try:
        listening, _events = session()
        listening.start("en", local=False, phrases=["aorta"])
        assert not hasattr(FakeRecognition.made[0], "phrases")
    finally:
        FakeRecognition.phrases_supported = True


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("available", "available"), ("downloadable", "downloadable"), ("nonsense", "unavailable")],
)
def test_on_device_availability(answer: str, expected: str) -> None:
    FakeRecognition.answer = answer
    assert asyncio.run(recognition.availability("en-US")) == expected


def test_availability_without_a_recogniser_or_the_on_device_api() -> None:
    js.window.SpeechRecognition = None
    assert asyncio.run(recognition.availability("en")) == "unsupported"
    js.window.SpeechRecognition = SimpleNamespace(new=FakeRecognition.new)
    assert asyncio.run(recognition.availability("en")) == "unavailable"
    assert asyncio.run(recognition.install("en")) is False
