"""The browser's `speechSynthesis`, adapted: speak a text in a language, or queue sentences
of a streaming answer, with the voice app.speech.voices picks.

Voices load asynchronously (Chrome lists none until `voiceschanged`), so speaking waits a
moment for them. Each utterance settles on `end` (spoken), on `error` (cancelled or failed),
or after a wait proportional to its length, since some engines never fire either. Answers
are spoken a sentence per utterance: Chrome stops a single long utterance after about 15
seconds. The JS callbacks of an utterance live as long as it does and are destroyed after.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import js
from pyodide.ffi import create_proxy

from app.browser.dom import found
from app.browser.timers import Timeout
from app.speech.outcome import STOPPED, TIMED_OUT, UNSUPPORTED, SpeechError, failure, patience_s
from app.speech.settings import VoiceSettings
from app.speech.voices import Voice, choose_voice, no_voice_message
from app.tasks import start_now

GAVE_UP = "lexical-gave-up"  # no end nor error came in time
VOICES_WAIT_S = 2.0  # how long a first `speak` waits for the browser to list its voices
Listen = Callable[[Any, str, Callable[[Any], None]], None]


class Say(Protocol):
    """Say `text` in `lang` (with `settings` instead of the saved ones, e.g. another rate):
    True once said, False if cancelled; raises SpeechError with its sentence."""

    def __call__(
        self, text: str, lang: str, settings: VoiceSettings | None = None
    ) -> Awaitable[bool]: ...


def _voice(js_voice: Any) -> Voice:
    return Voice(
        name=str(js_voice.name),
        lang=str(js_voice.lang or ""),
        local_service=bool(js_voice.localService),
        default=bool(js_voice.default),
        voice_uri=str(js_voice.voiceURI or ""),
    )


class Speaker:
    """Says things aloud. `on_start` / `on_end` mark a run of queued sentences (for the
    listening state machine: speech started / ended); `on_error` hears a queued failure."""

    def __init__(self, settings: Callable[[], VoiceSettings]) -> None:
        synth = getattr(js.window, "speechSynthesis", None)
        self.synth: Any = synth if found(synth) else None
        self.settings = settings
        self.voices: tuple[Voice, ...] = ()
        self._js_voices: dict[str, Any] = {}
        self._listed = asyncio.Event()
        self._queue: deque[tuple[str, str]] = deque()
        self._worker: asyncio.Future[None] | None = None
        self._stop_current: Callable[[], None] | None = None
        self.on_start: Callable[[], None] = lambda: None
        self.on_end: Callable[[], None] = lambda: None
        self.on_error: Callable[[SpeechError], None] = lambda _error: None
        # How queued sentences and words are said: this speaker's `speak`, or, once the
        # assistant has loaded, app/browser/provider_speaker.py, where the user's provider
        # stands in for a language the browser has no voice for.
        self.say: Say = self.speak

    @property
    def busy(self) -> bool:
        """Sentences are queued or being said."""
        return self._worker is not None and not self._worker.done()

    @property
    def supported(self) -> bool:
        return self.synth is not None

    def start(self, listen: Listen) -> None:
        """Read the voices now and again whenever the browser's list changes."""
        if self.synth is None:
            return
        self._read_voices()
        listen(self.synth, "voiceschanged", lambda _event: self._read_voices())

    def _read_voices(self) -> None:
        listed = list(js.Array.from_(self.synth.getVoices()))
        self.voices = tuple(_voice(v) for v in listed)
        self._js_voices = {voice.name: v for voice, v in zip(self.voices, listed, strict=True)}
        if self.voices:
            self._listed.set()

    async def ready_voices(self) -> tuple[Voice, ...]:
        """The voices, after waiting a little for a browser that lists them late."""
        if not self.voices and self.synth is not None:
            # A browser with none never says so: after the wait, the caller tells the user.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listed.wait(), VOICES_WAIT_S)
        return self.voices

    async def speak(self, text: str, lang: str, settings: VoiceSettings | None = None) -> bool:
        """Say `text` in `lang`: True once spoken, False if cancelled. Raises SpeechError
        (with its sentence) when there is no voice for `lang` or the browser fails."""
        if self.synth is None:
            raise SpeechError(UNSUPPORTED)
        settings = settings or self.settings()
        voice = choose_voice(await self.ready_voices(), lang, settings.preferred_voice(lang))
        if voice is None:
            raise SpeechError(no_voice_message(lang))
        utterance = js.window.SpeechSynthesisUtterance.new(text)
        utterance.lang = lang
        utterance.voice = self._js_voices[voice.name]
        utterance.rate = settings.rate
        utterance.pitch = settings.pitch
        outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def settle(code: str) -> None:
            if not outcome.done():
                outcome.set_result(code)

        proxies = {
            "onend": create_proxy(lambda _event: settle("")),
            "onerror": create_proxy(lambda event: settle(str(event.error))),
        }
        for name, proxy in proxies.items():
            setattr(utterance, name, proxy)
        self._stop_current = lambda: settle("canceled")
        self.synth.speak(utterance)
        patience = Timeout(patience_s(text, settings.rate), lambda: settle(GAVE_UP))
        try:
            code = await outcome
        finally:
            patience.cancel()
            self._stop_current = None
            for name, proxy in proxies.items():
                setattr(utterance, name, None)
                proxy.destroy()
        if code == GAVE_UP:
            self.synth.cancel()
            raise SpeechError(TIMED_OUT)
        if code in STOPPED:
            return False
        if code:
            raise failure(code)
        return True

    def enqueue(self, sentence: str, lang: str) -> None:
        """Add a sentence to say after those before it (an answer as it streams)."""
        if not sentence.strip():
            return
        self._queue.append((sentence, lang))
        if self._worker is None or self._worker.done():
            # The first sentence reaches the browser before this returns.
            self._worker = start_now(self._drain())

    async def _drain(self) -> None:
        # Told once the first sentence is handed to the browser (at the first pause of `say`),
        # so what listens (redraws, the usage log) never delays the speech itself; the end is
        # told the same way, so it always comes after the start.
        loop = asyncio.get_running_loop()
        loop.call_soon(self.on_start)
        try:
            while self._queue:
                sentence, lang = self._queue.popleft()
                if not await self.say(sentence, lang):
                    break
        except SpeechError as error:
            self.on_error(error)
        finally:
            self._queue.clear()
            loop.call_soon(self.on_end)

    def cancel(self) -> None:
        """Stop speaking now and forget the queued sentences."""
        self._queue.clear()
        if self._stop_current is not None:
            self._stop_current()
        if self.synth is not None:
            self.synth.cancel()
