"""The hands-free drill in the browser: its events in, its effects performed.

Nothing is decided here: app/drill/machine.py decides, this adapts. The Start button (after
the first session's notice) begins it; `Say` effects are queued on the page's speaker at the
drill's rate and each reports `SpeechDone` once said (or failed: the failure is shown too);
`Listen` starts one recognition session where app/voice/ladder.py says it may run, whose final
result becomes `Heard` (all its alternatives), its first audio `AudioStarted`, its interim
words `Interim` and its errors `ListenFailed`; a `Tick` every quarter second keeps the drill's
clocks; `Explain` (and, after the summary, `Remind` for mnemonics of the missed words) asks the
Scholar through the assistant. Leaving the study screen, Escape or closing the tab pauses the
drill (its decided grade written) and silences it; the Resume button picks it up again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

import js
from pyodide.ffi import JsException, create_proxy

from app.browser import local_storage
from app.browser.dom import found
from app.browser.microphone import Microphone
from app.browser.page_parts import Applies, Spawns, Toasts
from app.browser.recognition import now
from app.domain import LexicalError
from app.drill.commands import Command
from app.drill.events import (
    AudioStarted,
    Awaiting,
    Begin,
    Button,
    Effect,
    Event,
    Explain,
    Explained,
    ExplainFailed,
    Heard,
    Interim,
    Listen,
    ListenFailed,
    Remind,
    Say,
    SpeechDone,
    StopListening,
    StopSpeaking,
    Tick,
)
from app.drill.lines import explain_request, mnemonics_request
from app.drill.where import Listening, hands_free
from app.speech.outcome import SpeechError, SpeechOff
from app.ui.study_dialogs import drill_notice
from app.ui.update import Update
from app.voice.listening_events import (
    AudioStart,
    RecognitionError,
    Result,
    SpeechEnd,
    SpeechStart,
    Transcribing,
)
from app.voice.listening_events import Event as Recognised
from app.voice.problems import problem

if TYPE_CHECKING:
    from app.browser.assistant import Assistant
    from app.browser.commands import Command as PageCommand
    from app.browser.hearing import Hearing, LadderSession
    from app.browser.pronounce import SpeechGlue
    from app.drill.machine import Drill
    from app.ui.controller import Controller

TICK_MS = 250
PREFS_KEY = "lexical-hands-free"  # {"noticed": bool, "awake": bool}
NO_EXPLAINER = "Explanations need the assistant, which is still loading. Try again in a moment."


def _prefs() -> dict[str, bool]:
    try:
        stored = json.loads(local_storage.get(PREFS_KEY) or "{}")
    except ValueError:
        stored = {}
    stored = stored if isinstance(stored, dict) else {}
    return {key: stored.get(key) is True for key in ("noticed", "awake")}


class DrillPage(Applies, Spawns, Toasts, Protocol):
    """What the drill needs of the page (app.py's Page, which builds it): the study session,
    the speaker and voice settings, and the assistant to explain a word."""

    controller: Controller
    commands: dict[str, PageCommand]
    dialog: Any

    @property
    def speech(self) -> SpeechGlue: ...

    @property
    def hearing(self) -> Hearing: ...

    assistant: Assistant | None


class DrillGlue:
    def __init__(self, page: DrillPage) -> None:
        self.page = page
        self._drill: Drill | None = None  # the one running (begun and not set aside)
        self._speech: deque[Say] = deque()
        self._speaking: asyncio.Future[None] | None = None
        self._recognition: LadderSession | None = None
        self._mic = Microphone()  # for the provider rung: the drill records its own answers
        self._listened = 0  # which recognition session is current: older ones are ignored
        self._explaining: asyncio.Future[None] | None = None
        self._ticker: Any = None
        self._tick = create_proxy(lambda: self.feed(Tick(now())))
        self._wake: Any = None
        page.commands["drill-begin"] = lambda _item, _data: self.begin()
        page.commands["drill-accept"] = lambda _item, data: self._accept(data or {})
        page.commands["drill"] = lambda _item, data: self.button((data or {}).get("value", ""))
        page.controller.study.drill_command = self.command

    def start(self, listen: Any) -> None:
        listen(js.document, "keydown", self._on_keydown)
        listen(js.document, "visibilitychange", lambda _event: self._visible())
        listen(js.window, "pagehide", lambda _event: self.set_aside())
        for change in ("online", "offline"):
            listen(js.window, change, lambda _event: self.drawn())
        self.page.hearing.watch(self.drawn)  # the screen says where the audio goes

    # --- starting -----------------------------------------------------------------------------

    def begin(self) -> None:
        """The Start (or Resume) click: the notice the first time, then the drill."""
        self._mic.unlock()  # in the click: the provider rung's detector needs running audio
        study = self.page.controller.study
        study.drill_lang = self._lang
        drill = study.drill
        if drill is None or drill.state.phase != "ready":
            return
        listening = self._listening(self._lang)
        if not listening.can:  # the screen says why, and offers the other modes
            self._show(listening)
            return
        prefs = _prefs()
        if not prefs["noticed"]:
            notice = drill_notice(
                awake=prefs["awake"], wake_supported=self._wake_supported, where=listening.sentence
            )
            self.page.apply(Update(dialog=notice, focus="#drill-accept"))
            return
        self._drill = drill
        self._keep_awake()
        self._ticker = js.setInterval(self._tick, TICK_MS)
        self.feed(Begin(now()))

    def _accept(self, data: dict[str, str]) -> None:
        local_storage.put(PREFS_KEY, json.dumps({"noticed": True, "awake": "awake" in data}))
        self.page.apply(Update(close_dialog=True))
        self.begin()

    @property
    def _lang(self) -> str:
        return self.page.speech.voice.settings.speech_lang

    def _listening(self, lang: str) -> Listening:
        return hands_free(self.page.hearing.rung(lang), online=bool(js.navigator.onLine))

    def _show(self, listening: Listening) -> None:
        study = self.page.controller.study
        if study.drill_listening != listening:
            study.drill_listening = listening
            self.page.apply(Update(main=True))

    # --- the drill ----------------------------------------------------------------------------

    def button(self, value: str) -> None:
        for command in Command:
            if command.value == value:
                self.command(command)

    def command(self, command: Command) -> None:
        self.feed(Button(command, now()))

    def feed(self, event: Event) -> None:
        drill = self._drill
        if drill is None:
            return
        before = drill.view()
        for effect in drill.handle(event):
            self._perform(effect)
        if drill.over:
            self._halt(silence=False)  # the summary (or the mnemonics) is still to be said
        if drill.view() != before:
            self.page.apply(Update(main=True, counts=isinstance(event, Button)))

    def _perform(self, effect: Effect) -> None:
        match effect:
            case Say():
                self._speech.append(effect)
                if self._speaking is None or self._speaking.done():
                    self._speaking = asyncio.ensure_future(self._say_all())
            case StopSpeaking():
                self._hush()
            case Listen(lang=lang, phrases=phrases):
                self._listen(lang, phrases)
            case StopListening():
                self._stop_listening()
            case Explain(card=card):
                self._explaining = asyncio.ensure_future(self._explain(explain_request(card)))
            case Remind(terms=terms):
                self._explaining = asyncio.ensure_future(self._explain(mnemonics_request(terms)))
            case _:  # Finished: the redraw shows the summary
                pass

    async def _say_all(self) -> None:
        settings = self.page.speech.voice.settings
        while self._speech:
            said = self._speech.popleft()
            slower = settings.model_copy(update={"rate": settings.rate * said.rate})
            try:
                await self.page.speech.speaker.say(said.text, said.lang, slower)
            except SpeechOff as off:  # nobody can speak: one notice, not one per sentence
                self.page.speech.tell_off(off, "drill")
            except SpeechError as error:
                self.page.show_toast(error.message)
            # Said, failed or off, the drill goes on at once: the screen shows all it says.
            self.feed(SpeechDone(said.id, now()))

    def _hush(self) -> None:
        self._speech.clear()
        self.page.speech.speaker.cancel()

    def _listen(self, lang: str, phrases: tuple[str, ...]) -> None:
        self._stop_listening()
        listening = self._listening(lang)
        if not listening.can:
            self._later(ListenFailed(problem("unsupported", listening.sentence), now()))
            return
        self._listened += 1
        current = self._listened
        self._recognition = self.page.hearing.session(
            lambda event: self._heard(current, event), self._mic, utterances=True
        )
        self._recognition.start(lang, phrases=phrases)

    def _stop_listening(self) -> None:
        self._listened += 1  # what the old session still sends is not for the drill
        if self._recognition is not None:
            self._recognition.abort()
            self._recognition = None

    def _later(self, event: Event) -> None:
        """Feed `event` once the effects being performed are done (the recogniser may report
        a failure while it is being started)."""
        asyncio.get_running_loop().call_soon(self.feed, event)

    def _heard(self, session: int, event: Recognised) -> None:
        if session != self._listened:
            return
        if isinstance(event, AudioStart):
            self._later(AudioStarted(event.at))
        elif isinstance(event, SpeechStart | SpeechEnd):  # its words may still be on the way
            self._later(Interim(event.at))
        elif isinstance(event, Transcribing):
            self._later(Awaiting(event.at, event.done))
        elif isinstance(event, Result) and event.segments:
            last = event.segments[-1]
            if not last.final:
                self._later(Interim(event.at))
                return
            self._stop_listening()
            self._later(Heard(tuple(a.transcript for a in last.alternatives), event.at))
        elif isinstance(event, RecognitionError):
            self._recognition = None
            found = problem(event.code, event.detail, passing=event.passing)
            self._later(ListenFailed(found, event.at))

    async def _explain(self, request: str) -> None:
        assistant = self.page.assistant
        if assistant is None:
            self.feed(ExplainFailed(NO_EXPLAINER, now()))
            return
        try:
            text = await assistant.controller.explain(request)
        except LexicalError as error:  # no provider, offline, a failed request: said why
            self.feed(ExplainFailed(error.message, now()))
            return
        self.feed(Explained(text, now()))

    # --- stopping -----------------------------------------------------------------------------

    def drawn(self) -> None:
        """The page was drawn again (or went on- or offline): set the drill aside when its
        screen went away, and have the screen say how it can listen."""
        study = self.page.controller.study
        on_screen = self.page.controller.state.route.view == "study"
        if self._drill is not None and (not on_screen or study.drill is not self._drill):
            self.set_aside()
        if on_screen and study.drill is not None:
            self._show(self._listening(self._lang))

    def set_aside(self) -> None:
        """Pause the drill (writing its decided grade) and silence it; Resume goes on."""
        drill = self._drill
        if drill is None:
            return
        if drill.state.phase == "finished":  # only mnemonics were still offered: no more
            self._halt()
            return
        drill.handle(Button(Command.PAUSE, now()))  # what it would say is not said
        self._halt()
        study = self.page.controller.study
        study.set_drill_aside()
        # Still on its screen (Escape, a hidden tab): show Resume. An ended session is not drawn.
        if self.page.controller.state.route.view == "study" and study.session is not None:
            self.page.apply(Update(main=True, counts=True))

    def _halt(self, *, silence: bool = True) -> None:
        self._drill = None
        if silence:
            self._hush()
        self._stop_listening()
        self._mic.close()  # kept open between answers while the provider rung listens
        if self._explaining is not None:
            self._explaining.cancel()
        if self._ticker is not None:
            js.clearInterval(self._ticker)
            self._ticker = None
        self._release_wake()

    def _on_keydown(self, event: Any) -> None:
        if str(event.key) == "Escape" and self._drill is not None and not self.page.dialog.open:
            event.preventDefault()
            self.set_aside()

    # --- keeping the screen awake -------------------------------------------------------------

    @property
    def _wake_supported(self) -> bool:
        return found(getattr(js.navigator, "wakeLock", None))

    def _keep_awake(self) -> None:
        if _prefs()["awake"] and self._wake_supported and self._wake is None:
            self.page.spawn(self._request_wake())

    async def _request_wake(self) -> None:
        with contextlib.suppress(JsException):  # refused (battery saver, hidden page): no lock
            self._wake = await js.navigator.wakeLock.request("screen")

    def _release_wake(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None:
            with contextlib.suppress(JsException):
                wake.release()

    def _visible(self) -> None:
        """The browser drops the lock when the page is hidden: take it again on return."""
        if str(js.document.visibilityState) == "visible" and self._drill is not None:
            self._wake = None
            self._keep_awake()
