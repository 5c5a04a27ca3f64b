"""The last screen is kept once redrawing pauses and at once when the tab is hidden or left;
a restored collection forgets it; storage that is blocked or full keeps none, quietly."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import js

from app.browser.last_screen import KEY, LastScreen, Screen
from app.text.nodes import h
from tests.browser import fakes
from tests.browser.fakes import Event, Storage, dispatch

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "warm.js"


def listen(target: Any, type_: str, handler: Any, *, capture: bool = False) -> None:
    target.addEventListener(type_, handler, capture)


class Screens:
    """What the page shows; a test changes it as the user would."""

    def __init__(self) -> None:
        self.now: Screen = ("#/folder/1", h("ul", None, "Biology"), h("h1", None, "heart"))

    def __call__(self) -> Screen:
        return self.now


def started() -> tuple[LastScreen, Screens]:
    screens = Screens()
    keeper = LastScreen(screens)
    keeper.start(listen)
    return keeper, screens


def kept() -> Any:
    text = js.localStorage.getItem(KEY)
    return None if text is fakes.jsnull else json.loads(text)


def test_a_redraw_is_kept_once_redrawing_pauses() -> None:
    async def scenario() -> None:
        keeper, screens = started()
        keeper.drawn()
        keeper.drawn()
        assert kept() is None
        assert len(fakes.timers.pending) == 1  # one write for a burst of redraws
        screens.now = ("#/folder/2", None, h("h1", None, "lung"))
        fakes.timers.elapse()

    asyncio.run(scenario())
    assert kept()["route"] == "#/folder/2"
    assert kept()["main"] == ["h1", {}, ["lung"]]


def test_leaving_or_hiding_the_tab_keeps_it_at_once() -> None:
    async def scenario() -> None:
        keeper, screens = started()
        keeper.drawn()
        dispatch(js.window, Event("pagehide"))
        assert kept()["main"] == ["h1", {}, ["heart"]]
        assert fakes.timers.pending == {}
        screens.now = ("#/", None, h("h1", None, "home"))
        js.document.visibilityState = "visible"
        dispatch(js.document, Event("visibilitychange"))
        assert kept()["route"] == "#/folder/1"
        js.document.visibilityState = "hidden"
        dispatch(js.document, Event("visibilitychange"))
        assert kept()["route"] == "#/"

    asyncio.run(scenario())


def test_nothing_drawn_yet_keeps_the_copy_there_is() -> None:
    keeper, screens = started()
    js.localStorage.setItem(KEY, "earlier")
    screens.now = ("#/", None, None)
    keeper.save()
    assert js.localStorage.getItem(KEY) == "earlier"


def test_a_restore_forgets_it() -> None:
    async def scenario() -> None:
        keeper, _screens = started()
        keeper.save()
        keeper.drawn()
        keeper.forget()
        assert kept() is None
        assert fakes.timers.pending == {}

    asyncio.run(scenario())


class Full(Storage):
    def setItem(self, name: str, value: str) -> None:
        raise fakes.JsException("QuotaExceededError")


def test_full_storage_keeps_no_stale_copy() -> None:
    js.localStorage = Full()
    js.localStorage.items[KEY] = "an older screen"
    keeper, _screens = started()
    keeper.save()
    assert kept() is None


def test_blocked_storage_is_quiet() -> None:
    js.localStorage = Storage(blocked=True)
    keeper, _screens = started()
    keeper.save()
    keeper.forget()


def test_the_page_script_reads_what_is_written() -> None:
    assert f'var KEY = "{KEY}";' in SCRIPT.read_text()
