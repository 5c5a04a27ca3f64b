"""Speaking and Listening answered by voice where the browser has no speech recognition
(app/browser/study_voice.py): the same ladder as the assistant, so a configured provider
transcribes a held Say it and its one hearing is graded; where the audio goes is shown by Say
it; and nothing heard is said in the mode's own words. Over the fake microphone and a scripted
provider."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from app.browser import microphone
from app.browser.dom import by_id, replace_children
from app.browser.hearing import Hearing
from app.browser.settings_store import LocalCounter
from app.browser.study_voice import StudyVoice
from app.llm.audio import AudioOptions, AudioUsage
from app.llm.settings import ProviderSettings
from app.speech.settings import VoiceSettings
from app.text.nodes import text_content
from app.ui.study_voice_view import NOTHING_HEARD
from app.voice.ladder import NO_RECOGNITION, ONLY_UNAVAILABLE
from tests.browser import fakes
from tests.browser.audio_fakes import AudioFakes
from tests.browser.fakes import Event, dispatch, load_shell
from tests.browser.waiting import until
from tests.llm.transports import Reply, ScriptedTransport
from tests.ui.test_study_actions import go, setup

OPENAI = ProviderSettings(provider="openai", api_key=SecretStr("sk-test"))
SENT_TO_OPENAI = "Your voice is recorded and sent to OpenAI with your key to be transcribed."


@dataclass
class Assistant:
    """What study's voice uses of app.browser.assistant.Assistant: the provider settings,
    the transport and the usage log."""

    replies: tuple[Reply, ...] = ()
    configured: bool = True
    logged: list[AudioUsage] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.settings = SimpleNamespace(settings=OPENAI)
        self.dialog = SimpleNamespace(transport=ScriptedTransport(*self.replies))

    def audio_options(self) -> AudioOptions:
        return AudioOptions(counter=LocalCounter(), on_usage=self.logged.append)


class Page:
    """What study's voice uses of app.browser.app.Page: a study session in `mode`, drawn
    into the fake page again after each action."""

    def __init__(self, mode: str, assistant: Assistant | None, *, on_device_only: bool) -> None:
        self.controller, folder, _ = setup()
        go(self.controller, self.controller.dispatch("study", str(folder), {"mode": mode}).navigate)
        self.assistant = assistant
        self.commands: dict[str, Callable[[str | None, dict[str, str] | None], None]] = {}
        settings = VoiceSettings(on_device_only=on_device_only)
        self.speech = SimpleNamespace(
            speaker=SimpleNamespace(cancel=lambda: None),
            voice=SimpleNamespace(settings=settings),
            say=lambda _text, _lang: None,
        )
        self.ran: list[tuple[str, dict[str, str] | None]] = []
        self.hearing = Hearing(lambda: on_device_only, lambda: self.assistant)  # type: ignore[arg-type, return-value]
        self.voice = StudyVoice(self)  # type: ignore[arg-type]
        self.voice.start(self.listen)
        self.draw()

    def listen(self, target: Any, event: str, handler: Any, *, capture: bool = False) -> None:
        target.addEventListener(event, handler, capture)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # drawn outside a running loop: nothing to wait for here
            work.close()

    def run(
        self, action: str, item_id: str | None = None, data: dict[str, str] | None = None
    ) -> None:
        self.ran.append((action, data))
        self.controller.dispatch(action, item_id, data)
        self.draw()

    def draw(self) -> None:
        replace_children(by_id("main"), self.controller.render_main())
        self.voice.drawn()

    @property
    def shown(self) -> str:
        return text_content(self.controller.render_main())


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> AudioFakes:
    """A page with a microphone but no speech recognition, online."""
    load_shell()
    for name in ("SpeechRecognition", "webkitSpeechRecognition"):
        monkeypatch.setattr(fakes.window, name, None, raising=False)
    fakes.js.navigator.onLine = True
    return AudioFakes().install(monkeypatch, microphone)


def studying(
    mode: str, assistant: Assistant | None = None, *, on_device_only: bool = False
) -> Page:
    return Page(mode, assistant, on_device_only=on_device_only)


def key(kind: str) -> None:
    dispatch(fakes.document.body, Event(kind, key="m", repeat=False))


def text(element_id: str) -> str:
    return str(by_id(element_id).textContent)


def press_say_it() -> None:
    """Hold M, as a page does: inside its event loop."""

    async def go() -> None:
        key("keydown")
        for _ in range(10):  # and anything that follows
            await asyncio.sleep(0)

    asyncio.run(go())


def hold_say_it(page: Page, *, then: Callable[[], bool]) -> None:
    """Hold M until the microphone records, let go, and wait for `then`."""

    async def go() -> None:
        key("keydown")
        await until(lambda: bool(page.voice.state.held and fakes.js.navigator.mediaDevices.asked))
        await until(lambda: page.voice.state.phase == "listening")
        for _ in range(20):  # the recording has begun
            await asyncio.sleep(0)
        key("keyup")
        await until(then)

    asyncio.run(go())


def test_speaking_is_answered_through_the_provider_and_graded(audio: AudioFakes) -> None:
    assistant = Assistant((Reply(body={"text": "Dog."}),))
    page = studying("speaking", assistant)
    assert text("study-where") == SENT_TO_OPENAI
    hold_say_it(page, then=lambda: bool(page.ran))
    assert page.ran == [("study-spoken", {"heard": "Dog."})]
    assert "Correct" in page.shown
    assert "You said: “Dog.”" in page.shown
    [upload] = assistant.dialog.transport.requests
    assert upload.url.endswith("/audio/transcriptions")
    assert upload.body is not None
    assert b"dog" in upload.body  # the card's answer as a hint
    assert [(u.kind, u.outcome) for u in assistant.logged] == [("transcription", "ok")]


@pytest.mark.parametrize("mode", ["speaking", "listening"])
def test_nothing_heard_asks_again_in_the_modes_words(audio: AudioFakes, mode: str) -> None:
    assistant = Assistant((Reply(body={"text": "  "}),))
    page = studying(mode, assistant)
    hold_say_it(page, then=lambda: page.voice.state.phase == "idle")
    assert text("study-listening") == NOTHING_HEARD[mode]
    assert page.ran == []
    assert "Correct" not in page.shown


def test_without_a_provider_the_reason_is_shown_and_nothing_is_recorded(
    audio: AudioFakes,
) -> None:
    page = studying("speaking", Assistant(configured=False))
    assert text("study-where") == NO_RECOGNITION
    press_say_it()
    assert text("study-listening") == NO_RECOGNITION
    assert text("study-where") == ""  # said once, not twice (issue 24, item 8)
    assert "type your message" not in NO_RECOGNITION  # Speaking mode has no text box
    assert audio.devices.asked == []
    assert page.ran == []


def test_before_the_assistant_is_loaded_there_is_no_provider(audio: AudioFakes) -> None:
    studying("speaking")
    assert text("study-where") == NO_RECOGNITION


def test_on_this_device_only_keeps_the_voice_from_the_provider(audio: AudioFakes) -> None:
    assistant = Assistant((Reply(body={"text": "dog"}),))
    page = studying("speaking", assistant, on_device_only=True)
    assert text("study-where") == ONLY_UNAVAILABLE
    press_say_it()
    assert text("study-listening") == ONLY_UNAVAILABLE
    assert text("study-where") == ""
    assert audio.devices.asked == []
    assert assistant.dialog.transport.requests == []
    assert page.ran == []
