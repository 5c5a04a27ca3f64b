"""The provider rung without a button: the learner's utterances, each transcribed on its own.

For the hands-free drill (and any listener that cannot wait for a button to be let go):
static/vad.js (decision 030) hears where speech starts and ends on the open microphone and
hands over each utterance as a WAV; this sends that one recording to the user's provider with
the expected words as hints, and reports it as the events a browser's recogniser fires
(audiostart once the detector has the microphone's first frames, then speechstart, a final
result, speechend). Nothing is sent for sounds too short to be speech,
and nothing at all between utterances. `UtteranceSession` has `recognition.Session`'s
interface; the microphone stays open between sessions and its owner closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from pyodide.ffi import JsException, create_proxy

from app.browser.dom import js_object
from app.browser.microphone import Microphone, MicrophoneError
from app.browser.provider_listening import ERROR_CODES, provider_failure
from app.browser.recognition import now
from app.browser.scripts import import_script
from app.llm.audio import AudioOptions
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.settings import ProviderSettings
from app.llm.transcribe import transcribe
from app.llm.transport import Transport
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
    Transcribing,
)

DETECTOR = "./static/vad.js"  # relative to the page; precached with its worker and model


async def _bytes(blob: Any) -> bytes:
    return bytes((await blob.arrayBuffer()).to_bytes())


class UtteranceSession:
    """Listen until stopped; every utterance heard is transcribed and reported."""

    def __init__(
        self,
        on_event: Callable[[Event], None],
        microphone: Microphone,
        settings: Callable[[], ProviderSettings],
        transport: Transport,
        options: AudioOptions,
    ) -> None:
        self.on_event = on_event
        self._microphone = microphone
        self._settings = settings
        self._transport = transport
        self._options = options
        self._handle: Any = None
        self._proxies: list[Any] = []
        self._cancel = CancelToken()
        self._over = False
        self._sending: set[asyncio.Future[None]] = set()  # held: the loop keeps weak ones
        self._task: asyncio.Future[None] | None = None
        self._flowing = False  # the detector has the microphone's first frames

    def start(self, lang: str, *, local: bool, phrases: Sequence[str] = ()) -> None:
        """`local` is part of the shared interface only (the ladder decides)."""
        self._microphone.unlock()  # still inside the click, when a click started it
        self._task = asyncio.ensure_future(self._listen(lang, tuple(phrases)))

    async def _listen(self, lang: str, phrases: tuple[str, ...]) -> None:
        try:
            await self._microphone.open()
            module = await import_script(DETECTOR)
            if self._over:
                return
            callbacks = self._callbacks(lang, phrases)
            self._handle = await module.start(
                self._microphone.stream,
                self._microphone.context,
                callbacks,
                js_object(),  # the detector's own defaults, as decision 030 measured them
            )
        except MicrophoneError as error:
            self._fail(ERROR_CODES[error.kind])
            return
        except JsException as error:  # the detector could not load (offline, not cached)
            self._fail("no-detector", why=str(error))
            return
        if self._over:
            self._stop_handle()
            return
        self.on_event(RecognitionStart(now()))
        if self._flowing:
            self.on_event(AudioStart(now()))

    def _callbacks(self, lang: str, phrases: tuple[str, ...]) -> Any:
        def listening(_at: Any) -> None:
            # The session begins at once, its audio a little later: audiostart waits for it,
            # as the learner is told to speak only then.
            if self._over or self._flowing:
                return
            self._flowing = True
            if self._handle is not None:
                self.on_event(AudioStart(now()))

        def speech_start(_at: Any) -> None:
            if not self._over:
                self.on_event(SpeechStart(now()))

        def speech_end(_at: Any, blob: Any, _mime: Any, _info: Any = None) -> None:
            if self._over:
                return
            self.on_event(SpeechEnd(now()))
            sending = asyncio.ensure_future(self._send(blob, lang, phrases))
            self._sending.add(sending)
            sending.add_done_callback(self._sending.discard)

        def error(reason: Any) -> None:
            if not self._over:  # the microphone's track ended (unplugged, taken away)
                self._fail("no-microphone" if str(reason) == "ended" else "microphone-busy")

        handlers: dict[str, Callable[..., None]] = {
            "onListening": listening,
            "onSpeechStart": speech_start,
            "onSpeechEnd": speech_end,
            "onMisfire": lambda *_args: None,  # too short to be speech: nothing is sent
            "onError": error,
        }
        proxies = {name: create_proxy(handler) for name, handler in handlers.items()}
        self._proxies.extend(proxies.values())
        return js_object(**proxies)

    async def _send(self, blob: Any, lang: str, phrases: tuple[str, ...]) -> None:
        """One utterance to the provider; what it heard as a final result."""
        settings = self._settings()
        options = replace(self._options, cancel=self._cancel)
        self.on_event(Transcribing(now(), done=False))
        try:
            audio = await _bytes(blob)
            heard = await transcribe(
                settings,
                self._transport,
                audio,
                "audio/wav",
                lang,
                prompt_terms=phrases,
                options=options,
            )
        except ProviderError as failure:
            if not self._over:
                self.on_event(provider_failure(failure))
            return
        finally:
            if not self._over:  # after the words or the failure: either ends the wait
                self.on_event(Transcribing(now(), done=True))
        text = heard.text.strip()
        if text and not self._over:
            alternative = (Alternative(text),)
            self.on_event(Result(now(), (Segment(final=True, alternatives=alternative),)))

    def _fail(self, code: str, detail: str = "", why: str = "") -> None:
        del why  # for the log only; the sentence says what to do
        self._end(RecognitionError(now(), code, detail))

    def stop(self) -> None:
        """Stop listening; an utterance already being transcribed is still reported."""
        if self._over:
            return
        self._stop_handle()
        pending = list(self._sending)
        if not pending:
            self._end()
            return
        waiting = asyncio.ensure_future(asyncio.gather(*pending, return_exceptions=True))
        waiting.add_done_callback(lambda _done: self._end())

    def abort(self) -> None:
        if self._over:
            return
        self._cancel.cancel()
        self._stop_handle()
        self._end(RecognitionError(now(), "aborted"))

    def close(self) -> None:
        """Abort and report nothing more."""
        self.on_event = lambda _event: None
        self.abort()

    def _stop_handle(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(JsException):
                handle.stop(False)

    def _end(self, error: RecognitionError | None = None) -> None:
        if self._over:
            return
        self._over = True
        self._stop_handle()
        if error is not None:
            self.on_event(error)
        self.on_event(RecognitionEnd(now()))
        # Not from inside a proxy being called (the detector's onError): once it returns.
        asyncio.get_running_loop().call_soon(self._release)

    def _release(self) -> None:
        proxies, self._proxies = self._proxies, []
        for proxy in proxies:
            proxy.destroy()
