"""Hold to talk: a talk button and keys held and let go, as listening-machine events.

Holding the talk button (pointer, or Space/Enter on it) or the talk key is a press; letting go,
a pointer cancel or the window losing focus is a release; key repeats while held are swallowed.
The assistant's Ctrl+M and Escape (which stops the voice before it closes anything) and the
study card's M and Say it are the same gesture, so both use this; what a press does is the
caller's (`press`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser.dom import found
from app.browser.recognition import now
from app.voice.listening import Listener
from app.voice.listening_events import Event, Release, Stop

BUTTON_KEYS = (" ", "Enter")
FIELDS = ("INPUT", "TEXTAREA", "SELECT")

Listen = Callable[..., None]
KeyTest = Callable[[Any], bool]


def ctrl_m(event: Any) -> bool:
    """The assistant's talk key, which works while typing too."""
    return bool(event.ctrlKey) and str(event.key).lower() == "m"


def plain_m(event: Any) -> bool:
    """The study card's talk key: M alone, outside text fields."""
    modified = event.ctrlKey or event.metaKey or event.altKey
    return str(event.key) in ("m", "M") and not modified and str(event.target.tagName) not in FIELDS


class TalkInput:
    def __init__(
        self,
        button_id: str,
        talk_key: KeyTest,
        state: Callable[[], Listener],
        feed: Callable[[Event], None],
        press: Callable[[], None],
        *,
        allowed: Callable[[], bool] = lambda: True,
        escape_stops: bool = False,
    ) -> None:
        self._button, self._talk_key = button_id, talk_key
        self._state, self._feed, self._press, self._allowed = state, feed, press, allowed
        self._escape_stops = escape_stops
        self._key_down = False

    def start(self, listen: Listen, area: Any) -> None:
        """Listen for the button inside `area` and for the keys anywhere on the page."""
        listen(area, "pointerdown", self._on_pointerdown)
        listen(area, "pointerup", self._on_pointerup)
        listen(area, "pointercancel", self._on_pointerup)
        listen(js.document, "keydown", self._on_keydown, capture=True)
        listen(js.document, "keyup", self._on_keyup, capture=True)
        listen(js.window, "blur", lambda _e: self._release())

    def _release(self) -> None:
        self._key_down = False
        if self._state().held:
            self._feed(Release(now()))

    def _on_pointerdown(self, event: Any) -> None:
        hit = hasattr(event.target, "closest")
        target = event.target.closest(f"#{self._button}") if hit else None
        if found(target) and int(event.button) == 0 and self._allowed():
            event.preventDefault()
            target.setPointerCapture(event.pointerId)  # the release arrives even off the button
            self._press()

    def _on_pointerup(self, _event: Any) -> None:
        if self._state().held and not self._key_down:
            self._release()

    def _on_keydown(self, event: Any) -> None:
        key = str(event.key)
        if key == "Escape" and self._escape_stops and self._state().phase != "idle":
            event.preventDefault()
            event.stopPropagation()  # Escape stops the voice before it closes anything
            self._feed(Stop(now()))
            return
        on_button = key in BUTTON_KEYS and getattr(event.target, "id", "") == self._button
        if not (on_button or self._talk_key(event)) or not self._allowed():
            return
        event.preventDefault()
        if not event.repeat:  # a repeat while held is swallowed
            self._key_down = True
            self._press()

    def _on_keyup(self, event: Any) -> None:
        key = str(event.key)
        talk_up = key in (*BUTTON_KEYS, "Control") or key.lower() == "m"
        if self._key_down and talk_up:
            event.preventDefault()
            self._release()
