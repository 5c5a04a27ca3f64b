"""A scripted `speechSynthesis` for the browser tests: voices listed late (as Chrome does,
with `voiceschanged`), utterances recorded, and `start`, `end` or `error` fired on cue.

The real engine speaks one utterance at a time; so does this: `finish` ends the one being
spoken. With `auto` set, each utterance ends by itself on the next turn of the event loop
(with that error code, or "" for a normal end). `cancel` fires "interrupted" on the one
being spoken and "canceled" on those waiting, as Chrome does. With `starts` off it never
fires `start` either (a hung speech-dispatcher, until cancelled).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from tests.browser.fakes import Event, EventTarget


def voice(name: str, lang: str, *, local: bool = True, default: bool = False) -> Any:
    return SimpleNamespace(
        name=name, lang=lang, localService=local, default=default, voiceURI=f"urn:{name}"
    )


class Utterance:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lang = ""
        self.voice: Any = None
        self.rate = 1.0
        self.pitch = 1.0
        self.onstart: Any = None
        self.onend: Any = None
        self.onerror: Any = None

    @classmethod
    def new(cls, text: str) -> Utterance:
        return cls(text)

    def fire(self, kind: str, code: str = "") -> None:
        handler = getattr(self, f"on{kind}")
        if handler is not None:
            handler(SimpleNamespace(type=kind, error=code, utterance=self))


class Synthesis(EventTarget):
    def __init__(self, voices: list[Any], *, auto: str | None = "", starts: bool = True) -> None:
        super().__init__()
        self.listed = voices
        self.shown: list[Any] = []
        self.auto = auto
        self.starts = starts
        self.spoken: list[Utterance] = []
        self.waiting: list[Utterance] = []
        self.cancels = 0

    def getVoices(self) -> list[Any]:
        return list(self.shown)

    def list_voices(self) -> None:
        """The engine has loaded: the voices appear and `voiceschanged` fires."""
        self.shown = self.listed
        self._fire(Event("voiceschanged"), capture=False)

    def speak(self, utterance: Utterance) -> None:
        self.spoken.append(utterance)
        self.waiting.append(utterance)
        if len(self.waiting) == 1 and self.starts:
            utterance.fire("start")
        if self.auto is not None:
            asyncio.get_running_loop().call_soon(self.finish, self.auto)

    def finish(self, code: str = "") -> None:
        if not self.waiting:
            return
        utterance = self.waiting.pop(0)
        utterance.fire("error" if code else "end", code)
        if self.waiting and self.starts:
            self.waiting[0].fire("start")

    def cancel(self) -> None:
        self.cancels += 1
        waiting, self.waiting = self.waiting, []
        for index, utterance in enumerate(waiting):
            utterance.fire("error", "interrupted" if index == 0 else "canceled")

    def said(self) -> list[tuple[str, str, str, float, float]]:
        """(text, lang, voice name, rate, pitch) of each utterance, in order."""
        return [(u.text, u.lang, u.voice.name, u.rate, u.pitch) for u in self.spoken]
