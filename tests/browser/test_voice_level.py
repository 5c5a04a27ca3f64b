"""The live level in the voice bar (app/browser/voice_level.py): the microphone is opened and
drawn while wanted and let go when not, catching up when the turn ends while it opens, and a
microphone it cannot open costs only the level."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from app.browser import microphone
from app.browser.microphone import Microphone
from app.browser.voice_level import LevelMeter
from tests.browser import fakes
from tests.browser.audio_fakes import AudioFakes


@pytest.fixture
def audio(monkeypatch: pytest.MonkeyPatch) -> AudioFakes:
    monkeypatch.setitem(fakes.js.__dict__, "console", SimpleNamespace(info=lambda _text: None))
    return AudioFakes().install(monkeypatch, microphone)


def meter() -> fakes.Element:
    box = fakes.Element("div", {"data-voice-meter": ""})
    fakes.document.body.replaceChildren(box)
    return box


def settle(*steps: Callable[[], None]) -> None:
    """Run `steps` in one event loop and wait for the level to catch up."""

    async def run() -> None:
        for do in steps:
            do()
        for _ in range(2):  # a change made while settling starts no second task
            await asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()}))

    asyncio.run(run())


def test_the_level_is_drawn_while_wanted_and_the_microphone_let_go_after(
    audio: AudioFakes,
) -> None:
    mic, box = Microphone(), meter()
    level = LevelMeter(mic)
    settle(lambda: level.want(True))
    assert mic.is_open
    assert box in audio.visualiser.drawing
    settle(lambda: level.want(False))
    assert not mic.is_open
    assert audio.visualiser.drawing == {}


def test_a_turn_that_ends_while_the_microphone_opens_leaves_it_closed(
    audio: AudioFakes,
) -> None:
    mic, _box = Microphone(), meter()
    level = LevelMeter(mic)
    audio.devices.while_asking = lambda: level.want(False)
    settle(lambda: level.want(True))
    assert not mic.is_open
    assert audio.visualiser.drawing == {}


def test_a_bar_drawn_again_gets_the_level_in_its_new_meter(audio: AudioFakes) -> None:
    mic = Microphone()
    level = LevelMeter(mic)
    meter()
    settle(lambda: level.want(True))
    box = meter()
    settle(level.redrawn, lambda: level.want(True))
    assert list(audio.visualiser.drawing) == [box]
    assert len(audio.devices.asked) == 1


def test_a_microphone_that_cannot_open_costs_only_the_level(audio: AudioFakes) -> None:
    audio.devices.failure = "NotAllowedError"
    mic, _box = Microphone(), meter()
    settle(lambda: LevelMeter(mic).want(True))
    assert not mic.is_open
    assert audio.visualiser.drawing == {}
