"""The page's recognition ladder (app/browser/hearing.py) over recognisers that refuse the way
real browsers were measured to (Debian Chromium 150, 2026-11-27): setting `phrases` fires
`phrases-not-supported` at once, `start()` then fires `audio-capture` although the microphone
records fine, and a build without Google's keys fires `network`. The caller sees one session
that hears, on the rung that works, or one sentence when none does."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import js
import pytest
from pydantic import SecretStr

from app.browser import hearing as hearing_module
from app.browser import local_storage, provider_listening
from app.browser.hearing import MEMORY_KEY, Hearing
from app.llm.settings import ProviderSettings
from app.voice.ladder import SERVICE_FAILED, Memory
from app.voice.listening_events import Event, RecognitionEnd, RecognitionError, RecognitionStart
from tests.browser.test_recognition import FakeRecognition, Results, result
from tests.browser.test_recognition import browser as browser  # noqa: PLC0414 (its fixture)


class Refusing(FakeRecognition):
    """A recogniser that refuses as measured: hints as they are set, then `start_error` once
    started (after its "start", as Chromium fires them), followed by "end"."""

    start_error = "audio-capture"
    phrases_error = "phrases-not-supported"

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "phrases" and value is not None and self.phrases_error:
            self.fire("error", error=self.phrases_error)

    def start(self) -> None:
        super().start()
        loop = asyncio.get_running_loop()
        loop.call_soon(self.fire, "start")
        if self.start_error:
            loop.call_soon(lambda: self.fire("error", error=self.start_error))
            loop.call_soon(self.fire, "end")


class Recorder:
    """Stands in for provider_listening.ProviderSession: records what it was asked."""

    made: list[Recorder] = []  # noqa: RUF012 (reset by the fixture)

    def __init__(self, on_event: Any, *_args: Any, **_kw: Any) -> None:
        self.on_event = on_event
        self.started: list[tuple[str, tuple[str, ...]]] = []
        self.aborted = 0
        Recorder.made.append(self)

    def start(self, lang: str, *, local: bool, phrases: Sequence[str] = ()) -> None:
        assert not local
        self.started.append((lang, tuple(phrases)))
        self.on_event(RecognitionStart(0.0))

    def stop(self) -> None:
        pass

    def abort(self) -> None:
        self.aborted += 1


def provider() -> Any:
    settings = SimpleNamespace(settings=ProviderSettings(provider="openai", api_key=SecretStr("k")))
    return SimpleNamespace(
        settings=settings,
        configured=True,
        dialog=SimpleNamespace(transport=None),
        audio_options=lambda: None,
    )


@pytest.fixture(autouse=True)
def refusing(monkeypatch: pytest.MonkeyPatch) -> None:
    Refusing.start_error, Refusing.phrases_error = "audio-capture", "phrases-not-supported"
    FakeRecognition.answer = "unavailable"
    js.window.SpeechRecognition = Refusing
    Recorder.made = []
    monkeypatch.setattr(provider_listening, "ProviderSession", Recorder)
    local_storage.put(MEMORY_KEY, None)


def listen(
    assistant: Any = None, phrases: Sequence[str] = ("dog", "repeat"), *, stop: bool = False
) -> tuple[Hearing, list[Event]]:
    heard: list[Event] = []
    hearing = Hearing(lambda: False, lambda: assistant)

    async def go() -> None:
        session = hearing.session(heard.append, SimpleNamespace())  # type: ignore[arg-type]
        session.start("en-US", phrases=phrases)
        if stop:
            session.stop()
        for _ in range(10):
            await asyncio.sleep(0)

    asyncio.run(go())
    return hearing, heard


def errors(heard: list[Event]) -> list[RecognitionError]:
    return [event for event in heard if isinstance(event, RecognitionError)]


def test_debian_chromium_refusing_everything_falls_to_the_provider_with_the_hints() -> None:
    hearing, heard = listen(provider())
    assert [r.phrases for r in FakeRecognition.made] != []
    first, second = FakeRecognition.made
    assert first.started == 0  # refused as the hints were set: never started
    assert second.phrases is None  # the same recogniser again, without hints
    assert second.started == 1
    [recorder] = Recorder.made
    assert recorder.started == [("en-US", ("dog", "repeat"))]  # the provider gets the hints
    assert errors(heard) == []  # the caller saw none of the refusals
    assert heard[-1] == RecognitionStart(0.0)  # the provider's
    assert hearing.memory == Memory(
        hints=False, failed=frozenset({("on-device", ""), ("browser-service", "")})
    )


def test_without_a_provider_the_one_sentence_says_what_would_fix_it() -> None:
    _, heard = listen(None)
    assert errors(heard) == [RecognitionError(0.0, "unsupported", SERVICE_FAILED)]
    assert "provider" in SERVICE_FAILED


def test_refused_hints_are_remembered_for_this_browser() -> None:
    listen(provider())
    assert json.loads(local_storage.get(MEMORY_KEY) or "") == {"hints": False}
    FakeRecognition.made = []
    Refusing.start_error = ""  # a recogniser that works, once it is given no hints
    hearing, heard = listen(provider())
    [only] = FakeRecognition.made
    assert only.phrases is None
    assert only.started == 1
    assert hearing.memory.hints is False
    assert Recorder.made[-1].started == [("en-US", ("dog", "repeat"))]  # from the first listen
    assert heard[0] == RecognitionStart(0.0)


def test_a_browser_without_a_speech_service_skips_it_from_then_on() -> None:
    Refusing.phrases_error, Refusing.start_error = "", "network"
    hearing, heard = listen(provider())
    assert len(FakeRecognition.made) == 1
    assert len(Recorder.made) == 1
    assert errors(heard) == []
    FakeRecognition.made = []
    assert hearing.rung("en-US").path == "provider"


def test_after_the_user_let_go_it_says_to_try_again_another_way() -> None:
    Refusing.phrases_error = ""
    hearing, heard = listen(provider(), stop=True)
    assert [e.code for e in errors(heard)] == ["tried-another-way"]
    assert isinstance(heard[-1], RecognitionEnd)
    assert Recorder.made == []  # nothing recorded after the user let go
    assert hearing.rung("en-US").path == "provider"  # the next press


def test_a_failure_after_speech_was_heard_is_the_callers() -> None:
    class Hearing(Refusing):
        start_error = ""

    Refusing.phrases_error = ""
    js.window.SpeechRecognition = Hearing
    heard: list[Event] = []
    ladder = hearing_module.Hearing(lambda: False, provider)

    async def go() -> None:
        session = ladder.session(heard.append, SimpleNamespace())  # type: ignore[arg-type]
        session.start("en-US")
        await asyncio.sleep(0)
        made = FakeRecognition.made[-1]
        made.fire("speechstart")
        made.fire("result", results=Results([result(False, "do")]))
        made.fire("error", error="network")
        await asyncio.sleep(0)

    asyncio.run(go())
    assert RecognitionError(0.0, "network") in heard
    assert Recorder.made == []
