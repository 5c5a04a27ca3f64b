"""The hands-free drill where nothing can speak (app/browser/drill.py's `_say_all` over the
page's real speech glue): the browser has no speech, or its engine hangs, and no provider
stands in. Every `Say` still ends in its `SpeechDone` at once (after the first hang, without
waiting again), the drill listens and goes on card after card, and the learner is told once
that speech is off and the drill goes on in text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from app.browser import speaker as speaker_module
from app.browser.pronounce import SpeechGlue
from app.speech.outcome import BROKEN, IN_TEXT, UNSUPPORTED
from tests.browser import fakes
from tests.browser.fake_speech import Synthesis, Utterance, voice
from tests.browser.test_drill import Interval, Page, hear, listening, text
from tests.browser.test_drill import interval as interval  # noqa: PLC0414 (its fixture)
from tests.browser.test_recognition import browser as browser  # noqa: PLC0414 (its fixture)


def speechless() -> Page:
    """The drill's page with the page's own speech glue instead of a scripted speaker."""
    page = Page()
    speech = SpeechGlue(page)  # type: ignore[arg-type]
    speech.start(page.listen)
    page.speech = speech  # type: ignore[assignment]
    return page


def settle(action: Callable[[], None]) -> None:
    """Do `action` in the page's loop and let what it started run, timers included."""

    async def go() -> None:
        action()
        for _ in range(20):
            await asyncio.sleep(0.005)

    asyncio.run(go())


def test_a_browser_without_speech_drills_in_text_with_one_notice(interval: Interval) -> None:
    page = speechless()  # the fake window has no speechSynthesis
    drive_two_cards(page)
    (notice,) = page.toasts
    assert notice.startswith(f"{IN_TEXT['drill']} {UNSUPPORTED}")
    assert page.fed_kinds().count("SpeechDone") >= 4  # two prompts, two "Right."


def drive_two_cards(page: Page) -> None:
    """Two cards answered by voice, each step waiting for nothing said."""
    settle(page.glue.begin)
    assert text("drill-prompt") == "perro"
    listening()  # the prompt's SpeechDone came: it listens
    hear("dog")
    assert text("drill-said") == "Right."
    hear("next")
    assert text("drill-prompt") == "gato"
    listening()
    hear("cat")
    assert text("drill-said") == "Right."
    drill = page.controller.study.drill
    assert drill is not None
    assert drill.state.phase != "saying"  # never stuck waiting for a speech end


def test_a_hung_engine_is_waited_for_once_then_the_drill_goes_on_in_text(
    interval: Interval, monkeypatch: pytest.MonkeyPatch
) -> None:
    synth = Synthesis([voice("English", "en-US")], auto=None, starts=False)
    synth.list_voices()
    monkeypatch.setattr(fakes.window, "speechSynthesis", synth, raising=False)
    monkeypatch.setattr(fakes.window, "SpeechSynthesisUtterance", Utterance, raising=False)
    waits: list[bool] = []

    def patience(_text: str, _rate: float, *, started: bool) -> float:
        waits.append(started)
        return 0.001

    monkeypatch.setattr(speaker_module, "patience_s", patience)
    page = speechless()
    drive_two_cards(page)
    assert [u.text for u in synth.spoken] == ["perro"]  # only the first was handed over
    assert waits == [False]
    (notice,) = page.toasts
    assert notice.startswith(f"{IN_TEXT['drill']} {BROKEN}")
    assert "\u201cOn this device only\u201d" not in notice
