"""The browser's `speechSynthesis`, adapted: speak a text in a language, or queue sentences
of a streaming answer, with the voice app.speech.voices picks.

Voices load asynchronously (Chrome lists none until `voiceschanged`), so speaking waits a
moment for them, counted from when the page first asked. Each utterance settles on `end`
(spoken), on `error` (cancelled or failed), or when it does not start, or end, within the
bound app.speech.outcome sets from its length, since some engines never fire either; then it
is cancelled. What the endings tell of the engine (app.speech.engine) is kept for the page:
once its speech does not work here, nothing more is handed to it. What the browser cannot
say raises `SpeechOff`, for the provider to stand in or the caller to go on in text (told
once, `notice`). Answers are spoken a sentence per utterance: Chrome stops a single long
utterance after about 15 seconds. The JS callbacks of an utterance live as long as it does
and are destroyed after.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import js
from pyodide.ffi import create_proxy

from app.browser.dom import found
from app.browser.timers import Timeout
from app.speech.engine import GAVE_UP, Engine
from app.speech.outcome import (
    STOPPED,
    InText,
    SpeechError,
    SpeechOff,
    failure,
    off_notice,
    patience_s,
    voices_wait_s,
)
from app.speech.route import cannot_speak
from app.speech.settings import VoiceSettings
from app.speech.voices import Voice, choose_voice
from app.tasks import start_now

Listen = Callable[[Any, str, Callable[[Any], None]], None]


class Say(Protocol):
    """Say `text` in `lang` (with `settings` instead of the saved ones, e.g. another rate):
    True once said, False if cancelled; raises SpeechError with its sentence (SpeechOff when
    nobody could say it)."""

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
        self.engine = Engine()  # what this page learnt of the browser's speech
        self._js_voices: dict[str, Any] = {}
        self._listed = asyncio.Event()
        self._asked_at: float | None = None  # when the voices were first asked for
        self._told: set[InText] = set()  # where the page told that speech is off
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
        self._asked_at = time.monotonic()
        self._read_voices()
        listen(self.synth, "voiceschanged", lambda _event: self._read_voices())

    def _read_voices(self) -> None:
        listed = list(js.Array.from_(self.synth.getVoices()))
        self.voices = tuple(_voice(v) for v in listed)
        self._js_voices = {voice.name: v for voice, v in zip(self.voices, listed, strict=True)}
        if self.voices:
            self._listed.set()

    async def ready_voices(self) -> tuple[Voice, ...]:
        """The voices, after waiting a little (once per page) for a browser that lists them
        late."""
        if not self.voices and self.synth is not None:
            if self._asked_at is None:
                self._asked_at = time.monotonic()
            wait = voices_wait_s(asked_at=self._asked_at, now=time.monotonic())
            # A browser with none never says so: after the wait, the caller tells the user.
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._listed.wait(), wait)
        return self.voices

    def cannot(self, lang: str, settings: VoiceSettings) -> str:
        """Why the browser cannot say something in `lang` now, or "" when it can."""
        return cannot_speak(
            lang,
            supported=self.synth is not None,
            broken=self.engine.broken,
            any_voice=bool(self.voices),
            has_voice=self._voice(lang, settings) is not None,
            on_device_only=settings.on_device_only,
        )

    def _voice(self, lang: str, settings: VoiceSettings) -> Voice | None:
        return choose_voice(self.voices, lang, settings.preferred_voice(lang))

    async def speak(self, text: str, lang: str, settings: VoiceSettings | None = None) -> bool:
        """Say `text` in `lang`: True once spoken, False if cancelled. Raises SpeechOff when
        the browser cannot say it (no voice for `lang`, or its speech failed or hung), and
        SpeechError (with its sentence) when the sound output fails."""
        settings = settings or self.settings()
        await self.ready_voices()
        voice = self._voice(lang, settings)
        if voice is None or self.engine.broken:
            raise SpeechOff(self.cannot(lang, settings))
        code = await self._utter(text, lang, voice, settings)
        self.engine = self.engine.after(code)
        if code in STOPPED:
            return False
        if not code:
            return True
        error = failure(code)
        if isinstance(error, SpeechOff) and self.engine.broken:  # from now on, and why
            raise SpeechOff(self.cannot(lang, settings))
        raise error

    async def _utter(self, text: str, lang: str, voice: Voice, settings: VoiceSettings) -> str:
        """Hand `text` to the browser and wait for its ending: "" once said, the error's code,
        or GAVE_UP when it did not start, or end, in time (then it is cancelled)."""
        assert self.synth is not None  # a voice was listed
        utterance = js.window.SpeechSynthesisUtterance.new(text)
        utterance.lang = lang
        utterance.voice = self._js_voices[voice.name]
        utterance.rate = settings.rate
        utterance.pitch = settings.pitch
        outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        patience: list[Timeout] = []

        def settle(code: str) -> None:
            if not outcome.done():
                outcome.set_result(code)

        def wait(*, started: bool) -> None:
            for timeout in patience:
                timeout.cancel()
            patience[:] = [
                Timeout(patience_s(text, settings.rate, started=started), lambda: settle(GAVE_UP))
            ]

        proxies = {
            "onstart": create_proxy(lambda _event: wait(started=True)),
            "onend": create_proxy(lambda _event: settle("")),
            "onerror": create_proxy(lambda event: settle(str(event.error))),
        }
        for name, proxy in proxies.items():
            setattr(utterance, name, proxy)
        self._stop_current = lambda: settle("canceled")
        wait(started=False)  # before `speak`: an engine may start within it
        self.synth.speak(utterance)
        try:
            code = await outcome
        finally:
            for timeout in patience:
                timeout.cancel()
            self._stop_current = None
            for name, proxy in proxies.items():
                setattr(utterance, name, None)
                proxy.destroy()
        if code == GAVE_UP:
            self.synth.cancel()  # a hung engine holds its queue: nothing after it would start
        return code

    def notice(self, off: SpeechOff, where: InText) -> str:
        """The notice that speech is off for `where` and why, the first time this page meets
        it there; "" after, so it is told once, not once per sentence (nor once per language
        without a voice: the reason told first stands for them)."""
        if where in self._told:
            return ""
        self._told.add(where)
        return off_notice(off, where)

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
                try:
                    if not await self.say(sentence, lang):
                        break
                except SpeechOff as off:  # shown, not said; a word in another language may be
                    if told := self.notice(off, "answer"):
                        self.on_error(SpeechOff(told))
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
