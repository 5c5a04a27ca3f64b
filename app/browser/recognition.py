"""The browser's speech recogniser (Web Speech `SpeechRecognition`) as listening events.

One recognition object per session; its events become app.voice.listening events with the
page's clock, handed to `on_event`. What the ladder needs to know is asked here too: whether the
browser has a recogniser at all and whether it can listen on this device for a language
(`SpeechRecognition.available`, Chrome 139+), and the download of on-device recognition, which
browsers allow only in a click. Proxies live as long as their session and are released at its
"end", so a hundred turns leave nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import js
from pyodide.ffi import JsException, create_proxy

from app.browser.dom import found, js_object
from app.voice.ladder import OnDevice
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

_ANSWERS: dict[str, OnDevice] = {
    "available": "available",
    "downloadable": "downloadable",
    "downloading": "downloading",
}
ALTERNATIVES = 5  # several hearings let a near miss be matched (and a command be found)
PHRASE_BOOST = 5.0  # how much more likely the folder's terms are than other words
MAX_PHRASES = 200


def now() -> float:
    """The page's clock, in seconds."""
    return float(js.performance.now()) / 1000


def _constructor() -> Any:
    for name in ("SpeechRecognition", "webkitSpeechRecognition"):
        found_one = getattr(js.window, name, None)
        if found(found_one):
            return found_one
    return None


def supported() -> bool:
    return _constructor() is not None


async def availability(lang: str) -> OnDevice:
    """Whether this browser can recognise `lang` on this device."""
    recognition = _constructor()
    if recognition is None:
        return "unsupported"
    if not found(getattr(recognition, "available", None)):
        return "unavailable"  # recognition exists, but only as the browser's online service
    try:
        answer = str(await recognition.available(_options(lang)))
    except JsException:
        return "unavailable"
    return _ANSWERS.get(answer, "unavailable")


async def install(lang: str) -> bool:
    """Download on-device recognition for `lang` (call from a click)."""
    recognition = _constructor()
    if recognition is None or not found(getattr(recognition, "install", None)):
        return False
    try:
        return bool(await recognition.install(_options(lang)))
    except JsException:
        return False


def _options(lang: str) -> Any:
    return js_object(langs=js.Array.of(lang), processLocally=True)


def _segments(results: Any) -> tuple[Segment, ...]:
    segments = []
    for i in range(int(results.length)):
        result = results.item(i)
        alternatives = tuple(
            Alternative(str(result.item(j).transcript), float(result.item(j).confidence or 0))
            for j in range(int(result.length))
        )
        segments.append(Segment(bool(result.isFinal), alternatives))
    return tuple(segments)


class Session:
    """One recognition session: its events go to `on_event` until its "end"."""

    def __init__(self, on_event: Callable[[Event], None]) -> None:
        self.on_event = on_event
        self._recognition: Any = None
        self._listeners: list[tuple[str, Any]] = []

    def start(self, lang: str, *, local: bool, phrases: Sequence[str] = ()) -> None:
        constructor = _constructor()
        if constructor is None:
            self.on_event(RecognitionError(now(), "unsupported"))
            return
        if not bool(js.navigator.onLine) and not local:
            self.on_event(RecognitionError(now(), "offline"))
            return
        recognition = self._recognition = constructor.new()
        recognition.lang = lang
        recognition.continuous = True
        recognition.interimResults = True
        recognition.maxAlternatives = ALTERNATIVES
        if local:
            recognition.processLocally = True
        handlers: dict[str, Callable[[Any], Event]] = {
            "start": lambda _e: RecognitionStart(now()),
            "audiostart": lambda _e: AudioStart(now()),
            "speechstart": lambda _e: SpeechStart(now()),
            "result": lambda e: Result(now(), _segments(e.results)),
            "speechend": lambda _e: SpeechEnd(now()),
            "error": lambda e: RecognitionError(now(), str(e.error)),
            "end": lambda _e: RecognitionEnd(now()),
        }
        for name, make in handlers.items():
            proxy = create_proxy(lambda event, make=make: self._fire(make(event)))
            self._listeners.append((name, proxy))
            recognition.addEventListener(name, proxy)
        # After the listeners: Chromium refuses phrases with an error as they are set.
        _bias(recognition, phrases)
        if self._recognition is not recognition:
            return  # closed by that error's listener
        try:
            recognition.start()
        except JsException:
            self._release()
            self.on_event(RecognitionError(now(), "aborted"))

    def _fire(self, event: Event) -> None:
        if isinstance(event, RecognitionEnd):
            # Not from inside the proxy being called: released once this handler returns.
            asyncio.get_running_loop().call_soon(self._release)
        self.on_event(event)

    def stop(self) -> None:
        if self._recognition is not None:
            self._recognition.stop()

    def abort(self) -> None:
        if self._recognition is not None:
            self._recognition.abort()

    def close(self) -> None:
        """Abort and hear nothing more from this session (a refused one the ladder leaves)."""
        self.abort()
        self._release()

    def _release(self) -> None:
        recognition, self._recognition = self._recognition, None
        listeners, self._listeners = self._listeners, []
        for name, proxy in listeners:
            if recognition is not None:
                recognition.removeEventListener(name, proxy)
            proxy.destroy()


def _bias(recognition: Any, phrases: Sequence[str]) -> None:
    """Hint the folder's terms where the browser takes contextual phrases (Chrome 142+)."""
    phrase = getattr(js.window, "SpeechRecognitionPhrase", None)
    if not phrases or not found(phrase) or not hasattr(recognition, "phrases"):
        return
    # An older shape of the API refuses them: then it listens without hints.
    with contextlib.suppress(JsException):
        recognition.phrases = js.Array.of(
            *(phrase.new(text, PHRASE_BOOST) for text in phrases[:MAX_PHRASES])
        )
