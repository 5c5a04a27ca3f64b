"""Choosing a file to import, in the browser layer: files refused before reading, and the
study scheduler loaded only for a deck whose review history will be replayed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Coroutine
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.browser import transfer
from app.browser.transfer import TransferGlue
from app.store import Store
from app.store.transfer import MAX_FILE_BYTES
from app.text.nodes import El, text_content
from app.ui.controller import Controller
from app.ui.update import Update
from tests.anki_decks import card_ids, make_apkg, with_revlog
from tests.browser.fakes import JsException


class File:
    def __init__(self, name: str, data: bytes, *, size: int | None = None) -> None:
        self.name = name
        self.size = len(data) if size is None else size
        self._data = data

    async def arrayBuffer(self) -> Any:
        if not self._data:
            raise JsException("NotReadableError")
        return SimpleNamespace(to_bytes=lambda: self._data)


class Runtime:
    def __init__(self, fails: bool = False) -> None:
        self.loads = 0
        self.fails = fails

    async def load(self) -> None:
        self.loads += 1
        if self.fails:
            raise RuntimeError("offline")


class Page:
    """The parts of app.browser.app.Page the import glue uses, with updates recorded."""

    def __init__(self, runtime: Runtime) -> None:
        self.controller = Controller(Store.open())
        self.study_runtime = runtime
        self.applied: list[Update] = []
        self.commands: dict[str, Any] = {}
        self.spawned: list[Coroutine[Any, Any, None]] = []

    def apply(self, update: Update) -> None:
        self.applied.append(update)

    def spawn(self, work: Coroutine[Any, Any, None], *, now: bool = False) -> None:
        self.spawned.append(work)


@pytest.fixture(autouse=True)
def no_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    async def painted() -> None:  # the fake browser paints nothing to wait for
        return None

    monkeypatch.setattr(transfer, "repaint", painted)


def choose(file: File, runtime: Runtime | None = None) -> tuple[Page, str]:
    """Pick `file`; the page and the text of the last thing shown in the import preview."""
    page = Page(runtime or Runtime())
    asyncio.run(TransferGlue(page)._preview(file))
    patch = page.applied[-1].patch
    assert patch is not None
    assert isinstance(patch[1], El)
    return page, text_content(patch[1])


def test_a_file_over_the_limit_is_refused_before_it_is_read() -> None:
    _page, shown = choose(File("huge.csv", b"x", size=MAX_FILE_BYTES + 1))
    assert "huge.csv cannot be imported" in shown
    assert "files of up to 100 MB" in shown


def test_a_file_the_browser_cannot_read_says_so() -> None:
    _page, shown = choose(File("gone.csv", b""))
    assert "The browser could not read this file." in shown


def test_a_deck_never_studied_does_not_load_the_scheduler() -> None:
    page, shown = choose(File("d.apkg", make_apkg({"A": [(["Haus", "house", ""], [])]})))
    assert page.study_runtime.loads == 0
    assert "What each field becomes" in shown


def _studied_deck() -> bytes:
    deck = make_apkg({"A": [(["Haus", "house", ""], [])]})
    return with_revlog(deck, [(1_700_000_000_000, card_ids(deck)[("Haus", 0)], 3, 5_000, 0)])


def test_a_deck_with_a_history_loads_the_scheduler_first() -> None:
    runtime = Runtime()
    _page, shown = choose(File("d.apkg", _studied_deck()), runtime)
    assert runtime.loads == 1
    assert "study progress of 1 card" in shown


def test_a_scheduler_that_cannot_load_refuses_the_file_and_changes_nothing() -> None:
    page, shown = choose(File("d.apkg", _studied_deck()), Runtime(fails=True))
    assert "The study scheduler could not be loaded (offline)" in shown
    assert page.controller.transfer.pending is None


def test_the_dialog_opens_first_and_the_readers_load_while_a_file_is_picked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded: list[bool] = []
    monkeypatch.setattr(transfer, "load_readers", lambda: loaded.append(True))
    page = Page(Runtime())
    TransferGlue(page)
    page.commands["transfer"](None, None)
    assert page.applied[-1].dialog is not None  # the dialog, before anything loads
    assert loaded == []
    [loading] = page.spawned
    asyncio.run(loading)
    assert loaded == [True]
    page.commands["transfer"](None, None)  # once is enough
    assert len(page.spawned) == 1


def test_loading_the_readers_imports_what_reading_a_file_needs() -> None:
    script = (
        "import sys; from app.store.transfer import load_readers; load_readers(); "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('app.store.transfer'))))"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    )
    loaded = done.stdout.split()
    assert {
        "app.store.transfer.sources",
        "app.store.transfer.anki",
        "app.store.transfer.plan",
    } <= set(loaded)
