"""Listening through the provider (app/browser/provider_listening.py) over the fake microphone
and a scripted provider: the events a browser recogniser would fire, what is sent to each
provider, failures as listening errors, abort at every stage, and the usage log and cap."""

from __future__ import annotations

import asyncio
import base64
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from pydantic import SecretStr

from app.browser import microphone
from app.browser.microphone import Microphone
from app.browser.provider_listening import ProviderSession
from app.llm.audio import AudioOptions, AudioUsage
from app.llm.settings import ProviderSettings
from app.llm.spending import MemoryCounter
from app.voice.listening import Listener, step
from app.voice.listening_events import (
    Alternative,
    AudioStart,
    Event,
    Press,
    RecognitionEnd,
    RecognitionError,
    RecognitionStart,
    Release,
    Result,
    Segment,
    Send,
    SpeechEnd,
    SpeechStart,
    StartRecognition,
    StopRecognition,
)
from app.voice.problems import problem
from tests.browser import fakes
from tests.browser.audio_fakes import AudioFakes
from tests.llm import gemini_fixtures as gx
from tests.llm.transports import Reply, ScriptedTransport

OPENAI_SETTINGS = ProviderSettings(provider="openai", api_key=SecretStr("sk-test"))
GEMINI_SETTINGS = OPENAI_SETTINGS.model_copy(update={"provider": "gemini"})
LOCAL_SETTINGS = OPENAI_SETTINGS.model_copy(
    update={"provider": "openai_compatible", "model": "m", "transcription_model": "whisper"}
)
OPENAI_ANSWER = Reply(body={"text": " make a folder Cardiology "})
OPENING = [RecognitionStart, AudioStart, SpeechStart]
SENT = [*OPENING, SpeechEnd]  # the recording stopped and went to the provider


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> AudioFakes:
    fakes.js.navigator.onLine = True
    return AudioFakes().install(monkeypatch, microphone)


@dataclass
class Turn:
    """A session wired to a scripted provider, recording what it reports."""

    settings: ProviderSettings
    replies: tuple[Reply, ...]
    events: list[Event] = field(default_factory=list)
    usage: list[AudioUsage] = field(default_factory=list)
    counter: MemoryCounter = field(default_factory=MemoryCounter)

    def __post_init__(self) -> None:
        self.transport = ScriptedTransport(*self.replies)
        self.microphone = Microphone()
        options = AudioOptions(counter=self.counter, on_usage=self.usage.append)
        self.session = ProviderSession(
            self.events.append,
            self.microphone,
            lambda: self.settings,
            self.transport,
            options,
        )

    @property
    def kinds(self) -> list[type]:
        return [type(event) for event in self.events]

    async def until(self, done: Callable[[], bool]) -> None:
        for _ in range(1_000):
            if done():
                return
            await asyncio.sleep(0)
        raise AssertionError(f"never happened; events so far: {self.events}")

    async def ended(self) -> None:
        await self.until(lambda: any(isinstance(e, RecognitionEnd) for e in self.events))

    async def recording(self) -> None:
        self.session.start("es-ES", local=False, phrases=["aorta", "Herz"])
        await self.until(lambda: SpeechStart in self.kinds)


def said(
    settings: ProviderSettings,
    *replies: Reply,
    act: Callable[[ProviderSession], None] | None = None,
) -> Turn:
    """Start, then `act` (stop, by default) once recording, until the session ends."""
    turn = Turn(settings, replies)

    async def go() -> None:
        await turn.recording()
        (act or ProviderSession.stop)(turn.session)
        await turn.ended()

    asyncio.run(go())
    return turn


def test_openai_gets_the_recording_as_made_and_the_words_come_back_as_a_final_result(
    audio: AudioFakes,
) -> None:
    turn = said(OPENAI_SETTINGS, OPENAI_ANSWER)
    assert turn.kinds == [*SENT, Result, RecognitionEnd]
    result = turn.events[4]
    assert isinstance(result, Result)
    assert result.segments == (Segment(True, (Alternative("make a folder Cardiology"),)),)
    request = turn.transport.requests[0]
    assert request.url.endswith("/audio/transcriptions")
    assert request.body is not None
    assert b"speech" in request.body  # the WebM, untouched
    assert b'filename="speech.webm"' in request.body
    assert b"aorta, Herz" in request.body
    assert not turn.microphone.is_open
    assert audio.proxies.alive == 0


def test_the_request_is_logged_and_counts_against_the_daily_cap(audio: AudioFakes) -> None:
    turn = said(OPENAI_SETTINGS, OPENAI_ANSWER)
    assert [(u.kind, u.provider, u.outcome) for u in turn.usage] == [
        ("transcription", "openai", "ok")
    ]
    assert turn.counter.saved is not None
    assert turn.counter.saved[1] == 1


def test_a_reached_daily_cap_is_said_and_nothing_is_sent(audio: AudioFakes) -> None:
    capped = OPENAI_SETTINGS.model_copy(update={"daily_request_cap": 1})
    turn = Turn(capped, (OPENAI_ANSWER,))

    async def go() -> None:
        for _ in range(2):
            turn.events.clear()
            await turn.recording()
            turn.session.stop()
            await turn.ended()

    asyncio.run(go())
    error = turn.events[-2]
    assert isinstance(error, RecognitionError)
    assert error.code == "provider"
    assert "your limit in Settings" in error.detail
    assert len(turn.transport.requests) == 1


def test_gemini_gets_a_16_khz_mono_wav(audio: AudioFakes) -> None:
    turn = said(GEMINI_SETTINGS, Reply(body=gx.answer([{"text": "hola"}])))
    assert turn.kinds == [*SENT, Result, RecognitionEnd]
    inline = turn.transport.json_sent()["contents"][0]["parts"][1]["inlineData"]
    wav = base64.b64decode(inline["data"])
    assert inline["mimeType"] == "audio/wav"
    assert wav[:4] == b"RIFF"
    channels, rate = struct.unpack("<HI", wav[22:28])
    assert (channels, rate) == (1, 16_000)


def test_nothing_said_ends_without_a_result(audio: AudioFakes) -> None:
    turn = said(OPENAI_SETTINGS, Reply(body={"text": "  "}))
    assert turn.kinds == [*SENT, RecognitionEnd]


def test_a_provider_failure_carries_the_providers_sentence(audio: AudioFakes) -> None:
    turn = said(OPENAI_SETTINGS, Reply(status=401, body={"error": {"message": "bad key"}}))
    assert turn.kinds == [*SENT, RecognitionError, RecognitionEnd]
    error = turn.events[4]
    assert isinstance(error, RecognitionError)
    assert error.code == "provider"
    assert error.detail.startswith("OpenAI did not accept the API key.")
    assert [u.outcome for u in turn.usage] == ["bad_key"]


def test_abort_while_recording_drops_it_and_sends_nothing(audio: AudioFakes) -> None:
    turn = said(OPENAI_SETTINGS, act=ProviderSession.abort)
    assert turn.events[3:] == [RecognitionError(0.0, "aborted"), RecognitionEnd(0.0)]
    assert turn.transport.requests == []
    assert not turn.microphone.is_open
    assert all(track.stopped for s in audio.devices.streams for track in s.tracks)


def test_abort_while_transcribing_cancels_the_request(audio: AudioFakes) -> None:
    turn = Turn(OPENAI_SETTINGS, (Reply(body=b'{"text": "', hang=True),))

    async def go() -> None:
        await turn.recording()
        turn.session.stop()
        await turn.until(lambda: bool(turn.transport.requests))
        turn.session.abort()
        await turn.ended()

    asyncio.run(go())
    assert turn.kinds == [*SENT, RecognitionError, RecognitionEnd]
    assert turn.events[4] == RecognitionError(0.0, "aborted")
    assert [u.outcome for u in turn.usage] == ["stopped"]


def test_stopped_before_the_microphone_opened_sends_nothing(audio: AudioFakes) -> None:
    turn = Turn(OPENAI_SETTINGS, ())

    async def go() -> None:
        turn.session.start("en", local=False)
        turn.session.stop()  # a quick tap: released before the browser granted the microphone
        await turn.ended()

    asyncio.run(go())
    assert turn.kinds == [RecognitionEnd]
    assert not turn.microphone.is_open


@pytest.mark.parametrize(
    ("refusal", "code"),
    [
        ("NotAllowedError", "not-allowed"),
        ("NotFoundError", "no-microphone"),
        ("NotReadableError", "microphone-busy"),
        ("TypeError", "microphone-busy"),
    ],
)
def test_a_refused_microphone_is_a_listening_error_then_the_end(
    audio: AudioFakes, refusal: str, code: str
) -> None:
    audio.devices.failure = refusal
    turn = Turn(OPENAI_SETTINGS, ())

    async def go() -> None:
        turn.session.start("en", local=False)
        await turn.ended()

    asyncio.run(go())
    assert turn.events == [RecognitionError(0.0, code), RecognitionEnd(0.0)]


def run_start(turn: Turn) -> None:
    async def go() -> None:
        turn.session.start("en", local=False)
        await turn.until(lambda: bool(turn.events))
        for _ in range(10):  # and nothing after it
            await asyncio.sleep(0)

    asyncio.run(go())


def test_a_page_without_a_microphone_api_says_so_not_that_recognition_is_missing(
    audio: AudioFakes,
) -> None:
    # An http page other than localhost: no navigator.mediaDevices at all (issue 24, item 6).
    del fakes.js.navigator.mediaDevices
    turn = Turn(OPENAI_SETTINGS, ())
    run_start(turn)
    assert turn.events == [RecognitionError(0.0, "microphone-unsupported"), RecognitionEnd(0.0)]
    assert "https" in problem("microphone-unsupported").message


def test_offline_nothing_is_recorded(audio: AudioFakes) -> None:
    fakes.js.navigator.onLine = False
    turn = Turn(OPENAI_SETTINGS, ())
    run_start(turn)
    assert turn.events == [RecognitionError(0.0, "offline")]
    assert audio.devices.asked == []


def test_offline_a_server_on_this_machine_still_transcribes(audio: AudioFakes) -> None:
    fakes.js.navigator.onLine = False
    turn = said(LOCAL_SETTINGS, Reply(body={"text": "hola"}))
    assert turn.kinds == [*SENT, Result, RecognitionEnd]


def test_push_to_talk_through_the_listening_machine_sends_what_the_provider_heard(
    audio: AudioFakes,
) -> None:
    """The glue's loop in small: the machine's effects drive the session, its events the
    machine."""
    state = Listener()
    sent: list[Send] = []
    turn = Turn(OPENAI_SETTINGS, (OPENAI_ANSWER,))

    def feed(event: Event) -> None:
        nonlocal state
        state, effects = step(state, event)
        for effect in effects:
            if isinstance(effect, StartRecognition):
                turn.session.start("en", local=False)
            elif isinstance(effect, StopRecognition):
                turn.session.stop()
            elif isinstance(effect, Send):
                sent.append(effect)

    turn.session.on_event = lambda event: (turn.events.append(event), feed(event))[0]

    async def go() -> None:
        feed(Press(0.0))
        await turn.until(lambda: SpeechStart in turn.kinds)
        feed(Release(1.0))
        await turn.ended()

    asyncio.run(go())
    assert sent == [Send("make a folder Cardiology", ("make a folder Cardiology",))]
