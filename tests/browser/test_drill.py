"""The hands-free drill in the browser (app/browser/drill.py) over the fake page, a scripted
speaker, the fake recogniser and a fake wake lock: the drill's effects are performed in order,
the recogniser's events become the drill's, the Scholar is asked through the assistant, and
Escape or leaving the screen pauses and silences it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import js
import pytest

from app.browser import local_storage
from app.browser.dom import by_id, replace_children
from app.browser.drill import NO_EXPLAINER, PREFS_KEY, TICK_MS, DrillGlue
from app.browser.hearing import Hearing
from app.domain import LexicalError
from app.drill.events import AudioStarted, Event, Heard, Interim, ListenFailed, SpeechDone, Tick
from app.drill.lines import NUDGE, explain_request, mnemonics_request
from app.drill.where import ANOTHER_MODE, OFFLINE
from app.speech.outcome import SpeechError
from app.speech.settings import VoiceSettings
from app.ui.assistant_controller import EXPLAIN_NEEDS_PROVIDER
from app.ui.routes import Route
from app.ui.update import Update
from app.voice.ladder import NO_RECOGNITION
from tests.browser import fakes
from tests.browser.fakes import Event as DomEvent
from tests.browser.fakes import dispatch, load_shell
from tests.browser.test_recognition import FakeRecognition, Results, result
from tests.browser.test_recognition import browser as browser  # noqa: PLC0414 (its fixture)
from tests.ui.test_drill_screen import study_hands_free
from tests.ui.test_study_actions import setup


@dataclass
class Speaker:
    """Says at once (or fails on `broken` texts; or, `holding`, until cancelled) and records
    (text, lang, rate)."""

    said: list[tuple[str, str, float]] = field(default_factory=list)
    cancels: int = 0
    broken: str = ""
    holding: bool = False
    _cut: asyncio.Event | None = None

    async def say(self, text: str, lang: str, settings: VoiceSettings) -> None:
        self.said.append((text, lang, settings.rate))
        if self.holding:
            self._cut = asyncio.Event()
            await self._cut.wait()
        await asyncio.sleep(0)
        if text == self.broken:
            raise SpeechError("The voice could not say that.")

    def cancel(self) -> None:
        self.cancels += 1
        if self._cut is not None:
            self._cut.set()

    @property
    def texts(self) -> list[str]:
        return [text for text, _, _ in self.said]


@dataclass
class Scholar:
    """The assistant's controller as the drill uses it: `explain` answers or fails."""

    answer: str = ""
    failure: str = ""
    asked: list[str] = field(default_factory=list)

    async def explain(self, question: str) -> str:
        self.asked.append(question)
        if self.failure:
            raise LexicalError(self.failure)
        return self.answer


class WakeLock:
    def __init__(self) -> None:
        self.requested: list[str] = []
        self.released = 0

    async def request(self, kind: str) -> Any:
        self.requested.append(kind)
        return SimpleNamespace(release=self.release)

    def release(self) -> None:
        self.released += 1


class Page:
    """What the drill uses of app.browser.app.Page: a hands-free session drawn into the fake
    page after each update."""

    def __init__(self, scholar: Scholar | None = None) -> None:
        self.controller, self.folder, _ = setup()
        study_hands_free(self.controller, self.folder)
        self.commands: dict[str, Callable[[str | None, dict[str, str] | None], None]] = {}
        self.speaker = Speaker()
        self.speech = SimpleNamespace(
            speaker=self.speaker, voice=SimpleNamespace(settings=VoiceSettings(rate=1.0))
        )
        self.assistant = None if scholar is None else SimpleNamespace(controller=scholar)
        self.hearing = Hearing(lambda: False, lambda: None)  # no provider set up
        self.dialog = SimpleNamespace(open=False)
        self.dialogs: list[Any] = []
        self.toasts: list[str] = []
        self.glue = DrillGlue(self)  # type: ignore[arg-type]
        self.glue.start(self.listen)
        self.fed: list[Event] = []  # every event the drill was fed, in order
        self._feed = self.glue.feed
        self.glue.feed = self._record  # type: ignore[method-assign]
        self.draw()

    def _record(self, event: Event) -> None:
        self.fed.append(event)
        self._feed(event)

    def listen(self, target: Any, event: str, handler: Any, *, capture: bool = False) -> None:
        target.addEventListener(event, handler, capture)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # drawn outside a running loop: nothing to wait for here
            work.close()

    def apply(self, update: Update) -> None:
        if update.dialog is not None:
            self.dialogs.append(update.dialog)
        if update.navigate is not None:
            self.glue.drawn()  # as the page does: before the new place is drawn on hashchange
            self.controller.navigate(Route.parse(update.navigate))
        if update.main or update.navigate is not None:
            self.draw()

    def show_toast(self, text: str) -> None:
        self.toasts.append(text)

    def draw(self) -> None:
        replace_children(by_id("main"), self.controller.render_main())
        self.glue.drawn()

    def fed_kinds(self) -> list[str]:
        return [type(event).__name__ for event in self.fed]


class Interval:
    """`setInterval`/`clearInterval`: the callbacks set and not cleared, run by the test."""

    def __init__(self) -> None:
        self.running: dict[int, tuple[Callable[[], None], float]] = {}
        self.made = 0

    def set(self, callback: Callable[[], None], ms: float) -> int:
        self.made += 1
        self.running[self.made] = (callback, ms)
        return self.made

    def clear(self, key: int) -> None:
        self.running.pop(key, None)


@pytest.fixture
def interval(monkeypatch: pytest.MonkeyPatch) -> Interval:
    load_shell()
    ticks = Interval()
    monkeypatch.setattr(js, "setInterval", ticks.set, raising=False)
    monkeypatch.setattr(js, "clearInterval", ticks.clear, raising=False)
    js.document.visibilityState = "visible"
    js.navigator.wakeLock = WakeLock()
    local_storage.put(PREFS_KEY, json.dumps({"noticed": True, "awake": True}))
    return ticks


def run(action: Callable[[], None]) -> None:
    """Do `action` inside the page's event loop, then let everything it started finish."""

    async def go() -> None:
        action()
        for _ in range(50):
            await asyncio.sleep(0)

    asyncio.run(go())


def listening() -> FakeRecognition:
    made = FakeRecognition.made[-1]
    assert made.started
    assert not made.aborted
    return made


def hear(*texts: str, final: bool = True) -> None:
    run(lambda: listening().fire("result", results=Results([result(final, *texts)])))


def begun(scholar: Scholar | None = None) -> Page:
    """A drill where on-device recognition is not available: the browser's service."""
    FakeRecognition.answer = "unavailable"
    page = Page(scholar)
    run(page.glue.begin)
    return page


def text(element_id: str) -> str:
    return str(by_id(element_id).text)


def test_the_prompt_is_said_then_the_answer_listened_for_and_graded(interval: Interval) -> None:
    page = begun()
    assert page.speaker.said == [("perro", "en", 1.0)]  # the folder has no language of its own
    assert page.fed_kinds() == ["Begin", "SpeechDone"]  # said, then listened for
    made = listening()
    assert made.lang == "en"
    assert not made.processLocally  # the browser's service (online)
    assert "dog" in [p.phrase for p in made.phrases]
    assert "repeat" in [p.phrase for p in made.phrases]
    assert text("drill-where").startswith("Your voice is sent to your browser's speech service")
    hear("dog", "dug")
    assert page.fed[-2] == Heard(("dog", "dug"), 0.0)
    assert made.aborted  # a final result ends that recognition
    assert page.speaker.texts[-1] == "Right."
    assert isinstance(page.fed[-1], SpeechDone)
    assert text("drill-heard") == "dog"
    assert text("drill-said") == "Right."


def test_the_recognisers_first_audio_makes_the_screen_say_it_listens(interval: Interval) -> None:
    page = begun()
    drill = by_id("drill-status").closest(".drill")
    assert (drill.dataset.listening, drill.dataset.hearing) == ("true", "false")
    run(lambda: listening().fire("audiostart"))
    assert page.fed[-1] == AudioStarted(0.0)
    drill = by_id("drill-status").closest(".drill")
    assert drill.dataset.hearing == "true"
    assert text("drill-status") == "Listening for the answer…"


def test_interim_words_and_errors_become_the_drill_s_events(interval: Interval) -> None:
    page = begun()
    hear("do", final=False)
    assert page.fed[-1] == Interim(0.0)
    run(lambda: listening().fire("error", error="not-allowed"))
    failed = [e for e in page.fed if isinstance(e, ListenFailed)]
    assert [f.problem.code for f in failed] == ["not-allowed"]
    assert text("drill-status") == "Paused. Press Resume to go on."


def test_each_speech_reports_done_with_its_id_even_when_the_voice_fails(
    interval: Interval,
) -> None:
    page = Page()
    page.speaker.broken = "perro"
    run(page.glue.begin)
    assert page.toasts == ["The voice could not say that."]
    done = [e for e in page.fed if isinstance(e, SpeechDone)]
    drill = page.controller.study.drill
    assert drill is not None
    assert [d.said for d in done] == [drill.state.said]
    assert listening()  # and on it goes


def test_pausing_stops_the_listening_and_a_button_while_speaking_cuts_the_speech(
    interval: Interval,
) -> None:
    page = begun()
    made = listening()
    run(lambda: page.glue.button("pause"))
    assert made.aborted
    assert page.speaker.texts[-1] == "Paused. Say resume or press Resume."
    page.speaker.holding = True

    async def resume_then_skip() -> None:
        page.glue.button("resume")  # "perro" is being said...
        await asyncio.sleep(0)
        page.glue.button("skip")  # ...and cut off: gato is asked

    run(lambda: asyncio.ensure_future(resume_then_skip()) and None)
    assert page.speaker.cancels == 1
    assert page.speaker.texts[-2:] == ["perro", "Skipped."]
    assert text("drill-prompt") == "gato"


@pytest.mark.parametrize(
    ("scholar", "said"),
    [
        (None, NO_EXPLAINER),
        (Scholar(failure=EXPLAIN_NEEDS_PROVIDER), EXPLAIN_NEEDS_PROVIDER),
        (Scholar(answer="Perro is Spanish for dog."), "Perro is Spanish for dog."),
    ],
)
def test_what_does_it_mean_asks_the_scholar_through_the_assistant(
    interval: Interval, scholar: Scholar | None, said: str
) -> None:
    page = begun(scholar)
    hear("what does it mean")
    assert said in page.speaker.texts
    assert page.fed_kinds().count("Explained" if scholar and scholar.answer else "ExplainFailed")
    if scholar is not None:
        session = page.controller.study.session
        assert session is not None
        assert session.turn is not None
        assert scholar.asked == [explain_request(session.turn.card)]


def test_after_the_summary_help_me_remember_asks_for_mnemonics(interval: Interval) -> None:
    scholar = Scholar(answer="Perro: a pear on a dog.")
    page = begun(scholar)
    hear("cow")  # wrong: perro is missed
    hear("stop")
    assert text("summary-title") == "Session complete"
    hear("help me remember")
    assert scholar.asked == [mnemonics_request(("perro",))]
    assert page.speaker.texts[-1] == "Perro: a pear on a dog."
    assert text("drill-said") == "Perro: a pear on a dog."
    assert not interval.running
    assert js.navigator.wakeLock.released == 1  # over


def test_escape_pauses_and_silences_the_drill(interval: Interval) -> None:
    page = begun()
    made = listening()
    cancels = page.speaker.cancels
    run(lambda: dispatch(js.document, DomEvent("keydown", key="Escape")))
    assert made.aborted
    assert page.speaker.cancels == cancels + 1
    assert not interval.running
    assert js.navigator.wakeLock.released == 1
    assert text("drill-start") == "Resume hands-free"


def test_leaving_the_screen_sets_the_drill_aside(interval: Interval) -> None:
    page = begun()
    made = listening()
    page.controller.navigate(Route(page.folder))
    run(page.draw)
    assert made.aborted
    assert not interval.running
    assert page.speaker.texts == ["perro"]  # "Paused." is not said


def test_the_wake_lock_is_taken_only_when_chosen_and_ticks_run_only_while_it_runs(
    interval: Interval,
) -> None:
    page = begun()
    assert js.navigator.wakeLock.requested == ["screen"]
    [(tick, ms)] = interval.running.values()
    assert ms == TICK_MS
    js.performance.now = lambda: 9_000.0  # 9 s of silence after the prompt
    run(tick)
    assert Tick(9.0) in page.fed
    assert page.speaker.texts[-1] == NUDGE
    run(lambda: page.glue.button("stop"))
    assert not interval.running
    assert js.navigator.wakeLock.released == 1
    local_storage.put(PREFS_KEY, json.dumps({"noticed": True, "awake": False}))
    js.navigator.wakeLock = WakeLock()
    study_hands_free(page.controller, page.folder)
    run(page.draw)
    run(page.glue.begin)
    assert interval.running  # begun again, without the lock
    assert js.navigator.wakeLock.requested == []


def test_without_recognition_the_screen_offers_other_modes_and_nothing_starts(
    interval: Interval, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fakes.window, "SpeechRecognition", None)
    page = Page()
    assert text("drill-cannot") == f"{NO_RECOGNITION} {ANOTHER_MODE}"
    run(page.glue.begin)
    assert page.fed == []
    assert page.speaker.said == []
    assert not interval.running


def test_offline_on_this_device_it_goes_on_and_says_what_needs_the_network(
    interval: Interval,
) -> None:
    js.navigator.onLine = False
    pages: list[Page] = []
    run(lambda: pages.append(Page()))  # in the page's loop: on-device availability is checked
    [page] = pages
    assert text("drill-offline") == OFFLINE
    run(page.glue.begin)
    assert listening().processLocally


def test_ending_the_session_while_it_runs_pauses_it_without_drawing_a_closed_session(
    interval: Interval,
) -> None:
    page = begun()
    made = listening()
    run(lambda: page.apply(page.controller.dispatch("study-end")))
    assert made.aborted
    assert not interval.running
    assert page.speaker.texts == ["perro"]


def test_leaving_the_summary_while_mnemonics_are_offered_silences_them(
    interval: Interval,
) -> None:
    page = begun(Scholar(answer="unused"))
    hear("cow")
    hear("stop")
    made = listening()  # for "help me remember"
    cancels = page.speaker.cancels

    def done() -> None:
        page.apply(page.controller.dispatch("study-end"))

    run(done)
    assert made.aborted
    assert page.speaker.cancels == cancels + 1
    assert not interval.running
