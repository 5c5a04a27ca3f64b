"""Listening through the user's provider: the microphone is recorded, and the provider
transcribes the recording, reported as the listening events the browser's recogniser fires.

`ProviderSession` has `recognition.Session`'s interface, so the glue drives either the same
way. `start` opens the microphone and records (start, audiostart, speechstart, as a browser
would, once the recorder says it records: a word said before would not be in the recording);
`stop` ends the recording and sends it (Gemini takes only WAV: the recording is decoded
to 16 kHz samples first; OpenAI-compatible servers take the WebM as it is), then reports one
final result and the end, or only the end when nothing was said. `abort` drops the recording,
or cancels the transcription under way. Every request counts against the daily cap and is
reported for the usage log through the `AudioOptions` given (transcribe does both).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

import js

from app.browser.microphone import Microphone, MicrophoneError, MicrophoneErrorKind, decode
from app.browser.recognition import now
from app.llm.audio import AudioOptions
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.settings import ProviderSettings
from app.llm.transcribe import GEMINI_MIME, transcribe
from app.llm.transport import Transport
from app.llm.wav import samples_wav
from app.voice.ladder import on_this_network
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

# The listening error code for each way the microphone fails (app.voice.problems says them).
ERROR_CODES: dict[MicrophoneErrorKind, str] = {
    "denied": "not-allowed",
    "no-microphone": "no-microphone",
    "busy": "microphone-busy",
    "unsupported": "microphone-unsupported",
    "unreadable": "no-speech",  # an empty recording, or one that cannot be decoded
    "failed": "microphone-busy",
}

Stage = Literal["opening", "recording", "transcribing", "over"]


def provider_failure(error: ProviderError) -> RecognitionError:
    """The provider could not transcribe: its own sentence, and whether trying again later
    may work (a rate limit, a server error, a timeout, the network or an upload cut off)."""
    passing = error.retryable or error.kind in ("offline", "stream_cut")
    return RecognitionError(now(), "provider", error.message, passing=passing)


def _online() -> bool:
    return bool(js.navigator.onLine)


@dataclass
class _Turn:
    """One session's progress: a later start gets a new one, so nothing crosses turns."""

    stage: Stage = "opening"
    aborted: bool = False
    stopped: asyncio.Event = field(default_factory=asyncio.Event)
    cancel: CancelToken = field(default_factory=CancelToken)


class ProviderSession:
    """One recording at a time, transcribed by the provider in `settings()`; its events go
    to `on_event`. `options` carries the daily counter and the usage sink."""

    def __init__(
        self,
        on_event: Callable[[Event], None],
        microphone: Microphone,
        settings: Callable[[], ProviderSettings],
        transport: Transport,
        options: AudioOptions,
        *,
        online: Callable[[], bool] = _online,
    ) -> None:
        self.on_event = on_event
        self._microphone = microphone
        self._settings = settings
        self._transport = transport
        self._options = options
        self._online = online
        self._turn = _Turn(stage="over")
        self._task: asyncio.Future[None] | None = None  # held: the loop keeps only weak ones

    def start(self, lang: str, *, local: bool, phrases: Sequence[str] = ()) -> None:
        """Record until `stop`. `local` is part of the shared interface only: the ladder
        (app.voice.ladder) never chooses the provider when the audio must stay local."""
        self._microphone.unlock()  # still inside the click: browsers allow audio only there
        self._turn = turn = _Turn()
        self._task = asyncio.ensure_future(self._run(turn, lang, tuple(phrases)))

    def stop(self) -> None:
        self._turn.stopped.set()

    def abort(self) -> None:
        turn = self._turn
        if turn.stage == "over" or turn.aborted:
            return
        turn.aborted = True
        turn.cancel.cancel()
        turn.stopped.set()
        if turn.stage in ("opening", "recording"):
            self._microphone.close()  # drops the recording; an open() under way backs out

    def close(self) -> None:
        """Abort and report nothing more."""
        self.abort()
        self.on_event = lambda _event: None

    async def _run(self, turn: _Turn, lang: str, phrases: tuple[str, ...]) -> None:
        try:
            await self._listen(turn, lang, phrases)
        finally:
            turn.stage = "over"

    async def _listen(self, turn: _Turn, lang: str, phrases: tuple[str, ...]) -> None:
        settings = self._settings()
        if not self._online() and not on_this_network(settings):
            self.on_event(RecognitionError(now(), "offline"))  # nothing started, so no end
            return
        try:
            await self._microphone.open()
            if not turn.aborted and not turn.stopped.is_set():
                self._microphone.start_recording()
                await self._microphone.recording_started()
        except MicrophoneError as error:
            self._microphone.close()
            self.on_event(RecognitionError(now(), ERROR_CODES[error.kind]))
            self.on_event(RecognitionEnd(now()))
            return
        if turn.aborted or turn.stopped.is_set():
            self._microphone.close()  # stopped before a word could be recorded
            self._end(turn)
            return
        turn.stage = "recording"
        for opened in (RecognitionStart, AudioStart, SpeechStart):
            self.on_event(opened(now()))
        await turn.stopped.wait()
        if turn.aborted:
            self._end(turn)
            return
        turn.stage = "transcribing"
        self.on_event(SpeechEnd(now()))  # as a recogniser does, before its final result
        await self._report(settings, turn, lang, phrases)

    async def _report(
        self, settings: ProviderSettings, turn: _Turn, lang: str, phrases: tuple[str, ...]
    ) -> None:
        """Transcribe the recording and say what was heard, or why nothing was."""
        try:
            text = await self._transcribe(settings, turn, lang, phrases)
        except MicrophoneError as error:
            if not turn.aborted:
                self.on_event(RecognitionError(now(), ERROR_CODES[error.kind]))
        except ProviderError as error:
            if not turn.aborted:
                self.on_event(provider_failure(error))
        else:
            if text and not turn.aborted:
                alternative = (Alternative(text),)
                self.on_event(Result(now(), (Segment(final=True, alternatives=alternative),)))
        self._end(turn)

    async def _transcribe(
        self, settings: ProviderSettings, turn: _Turn, lang: str, phrases: tuple[str, ...]
    ) -> str:
        try:
            recording = await self._microphone.stop_recording()
        finally:
            self._microphone.close()
        audio, mime = recording.data, recording.mime
        if settings.provider == "gemini":
            samples = await decode(recording)
            audio, mime = samples_wav([samples.samples], samples.rate), GEMINI_MIME
        if turn.aborted:  # while the recording was being decoded
            return ""
        options = replace(self._options, cancel=turn.cancel)
        transcript = await transcribe(
            settings, self._transport, audio, mime, lang, prompt_terms=phrases, options=options
        )
        return transcript.text

    def _end(self, turn: _Turn) -> None:
        """The session is over: an abort says so first, as the browser's does."""
        if turn.aborted:
            self.on_event(RecognitionError(now(), "aborted"))
        self.on_event(RecognitionEnd(now()))
