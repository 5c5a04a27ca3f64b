"""The page's one recognition ladder: which rung hears, and sessions that climb down it.

The assistant, Speaking mode and the hands-free drill all listen through `Hearing.session`,
whose `LadderSession` has the interface of `recognition.Session`: it starts the session of
the rung app.voice.ladder chooses (the browser's recogniser on this device or its service,
or the user's provider transcribing a recording), and when that rung refuses in a way the
ladder learns from (app.voice.problems `then`: hints refused, no service, no audio capture, a
language it lacks) it closes it and starts the next rung at once, so the caller only ever sees
one session that hears. What was learnt is kept here for every caller: refused hints across
reloads (localStorage), failed rungs for the page's life. Whether each language can be
recognised on this device (`SpeechRecognition.available`) is asked once per language.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import js

from app.browser import local_storage
from app.browser.recognition import Session, availability, now, supported
from app.voice.ladder import Means, Memory, OnDevice, Path, Rung, choose, learn, transcriber
from app.voice.listening_events import Event, RecognitionEnd, RecognitionError, Result, SpeechStart
from app.voice.problems import problem

if TYPE_CHECKING:
    from app.browser.ai_settings import SettingsDialog
    from app.browser.microphone import Microphone
    from app.browser.provider_listening import ProviderSession
    from app.browser.settings_store import SettingsStore
    from app.browser.utterances import UtteranceSession
    from app.llm.audio import AudioOptions

MEMORY_KEY = "lexical-recognition"  # {"hints": false} once this browser refused hints
CLIMBS = 4  # rungs a session may move down in one start: hints, on-device, service, provider


class Transcribing(Protocol):
    """What the ladder needs of the assistant (app/browser/assistant.py), which holds the
    provider: its settings, whether it is set up, its transport and usage options."""

    settings: SettingsStore
    dialog: SettingsDialog

    @property
    def configured(self) -> bool: ...

    def audio_options(self) -> AudioOptions: ...


def _stored_memory() -> Memory:
    try:
        stored = json.loads(local_storage.get(MEMORY_KEY) or "{}")
    except ValueError:
        stored = {}
    return Memory(hints=not (isinstance(stored, dict) and stored.get("hints") is False))


class Hearing:
    def __init__(
        self, on_device_only: Callable[[], bool], assistant: Callable[[], Transcribing | None]
    ) -> None:
        self._on_device_only = on_device_only
        self.assistant = assistant  # the provider's settings live with it, once it has loaded
        self._watchers: list[Callable[[], None]] = []
        self._asking: set[asyncio.Future[None]] = set()  # held: the loop keeps weak references
        self.memory = _stored_memory()
        self._on_device: dict[str, OnDevice] = {}

    def watch(self, changed: Callable[[], None]) -> None:
        """Call `changed` whenever the rung may differ (to show where the audio goes)."""
        self._watchers.append(changed)

    def _changed(self) -> None:
        for changed in self._watchers:
            changed()

    # --- the rung -----------------------------------------------------------------------------

    def on_device(self, lang: str) -> OnDevice:
        if lang not in self._on_device:
            try:
                asking = asyncio.get_running_loop().create_task(self.check(lang))
            except RuntimeError:  # not from the page's loop: asked by the next caller
                return "unavailable"
            self._on_device[lang] = "unavailable"  # until the browser answers
            self._asking.add(asking)
            asking.add_done_callback(self._asking.discard)
        return self._on_device[lang]

    async def check(self, lang: str) -> None:
        """Ask the browser again whether `lang` can be recognised on this device."""
        self._on_device[lang] = await availability(lang)
        self._changed()

    def rung(self, lang: str) -> Rung:
        """How speech in `lang` becomes text right now."""
        assistant = self.assistant()
        provider = (
            None
            if assistant is None
            else transcriber(assistant.settings.settings, configured=assistant.configured)
        )
        return choose(
            Means(
                recognition=supported(),
                on_device=self.on_device(lang),
                on_device_only=self._on_device_only(),
                provider=provider,
                online=bool(js.navigator.onLine),
                failed=self.memory.failed_for(lang),
            )
        )

    def learn(self, code: str, path: Path, lang: str, *, hinted: bool) -> bool:
        """Learn from a refusal; whether anything changed (so another try may work)."""
        learnt = learn(self.memory, problem(code), path, lang, hinted=hinted)
        if learnt == self.memory:
            return False
        if learnt.hints != self.memory.hints:
            local_storage.put(MEMORY_KEY, json.dumps({"hints": learnt.hints}))
        self.memory = learnt
        self._changed()
        return True

    # --- sessions -----------------------------------------------------------------------------

    def session(
        self, on_event: Callable[[Event], None], mic: Microphone, *, utterances: bool = False
    ) -> LadderSession:
        """A session for `on_event`. `utterances`: listening goes on with no button to let go
        (the drill), so the provider is sent each utterance the detector hears."""
        return LadderSession(self, on_event, mic, utterances=utterances)


class LadderSession:
    """One listening session on whichever rung works; `recognition.Session`'s interface."""

    def __init__(
        self,
        hearing: Hearing,
        on_event: Callable[[Event], None],
        mic: Microphone,
        *,
        utterances: bool,
    ) -> None:
        self.hearing = hearing
        self.on_event = on_event
        self._mic = mic
        self._utterances = utterances
        self._inner: Session | ProviderSession | UtteranceSession | None = None
        self._path: Path = "typing"
        self._lang = ""
        self._phrases: tuple[str, ...] = ()
        self._hinted = False
        self._stopped = False
        self._heard = False  # the current rung heard speech: its failures are its own
        self._climbs = 0

    def start(self, lang: str, *, local: bool = False, phrases: Sequence[str] = ()) -> None:
        """Listen for `lang`; `local` is decided by the ladder, not the caller."""
        del local
        self._lang, self._phrases = lang, tuple(phrases)
        self._stopped, self._climbs = False, 0
        self._begin()

    def _begin(self) -> None:
        self._heard = False
        rung = self.hearing.rung(self._lang)
        self._path = rung.path
        if rung.path == "typing":
            self._inner = None
            error = RecognitionError(now(), "unsupported", rung.sentence)
            asyncio.get_running_loop().call_soon(self.on_event, error)
            return
        inner = self._inner = self._make(rung.path)
        if rung.path == "provider":
            self._hinted = bool(self._phrases)  # a prompt to the provider, never refused
            inner.start(self._lang, local=False, phrases=self._phrases)
            return
        self._hinted = bool(self._phrases) and self.hearing.memory.hints
        hints = self._phrases if self._hinted else ()
        inner.start(self._lang, local=rung.path == "on-device", phrases=hints)

    def _make(self, path: Path) -> Session | ProviderSession | UtteranceSession:
        # A rung's session reports nothing once closed (`close`), so one relay serves them all.
        relay = self._relay
        if path != "provider":
            return Session(relay)
        from app.browser.provider_listening import ProviderSession  # noqa: PLC0415
        from app.browser.utterances import UtteranceSession  # noqa: PLC0415

        assistant = self.hearing.assistant()
        assert assistant is not None, "the ladder chooses the provider only once it is set up"
        recording = UtteranceSession if self._utterances else ProviderSession
        return recording(
            relay,
            self._mic,
            lambda: assistant.settings.settings,
            assistant.dialog.transport,
            assistant.audio_options(),
        )

    def _relay(self, event: Event) -> None:
        if isinstance(event, SpeechStart | Result):
            self._heard = True
        if isinstance(event, RecognitionError) and self._climb(event):
            return
        self.on_event(event)

    def _climb(self, error: RecognitionError) -> bool:
        """After a refusal the ladder learns from, try the next way at once (unless the user
        has let go, or this rung had already heard them). Whether the error was handled."""
        climbable = problem(error.code).then in ("without-hints", "next-rung")
        if self._heard or self._climbs >= CLIMBS or not climbable:
            return False
        learnt = self.hearing.learn(error.code, self._path, self._lang, hinted=self._hinted)
        if not learnt:
            return False
        self._close()
        if self._stopped:  # too late to listen now: the next press will use what was learnt
            self.on_event(RecognitionError(error.at, "tried-another-way"))
            self.on_event(RecognitionEnd(now()))
            return True
        self._climbs += 1
        self._begin()
        return True

    def _close(self) -> None:
        """Let go of the current rung's session without hearing from it again."""
        inner, self._inner = self._inner, None
        if inner is not None:
            inner.close()

    def stop(self) -> None:
        self._stopped = True
        if self._inner is not None:
            self._inner.stop()

    def abort(self) -> None:
        self._stopped = True
        if self._inner is not None:
            self._inner.abort()
