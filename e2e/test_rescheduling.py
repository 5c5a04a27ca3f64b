"""Cards follow their folder's scheduling in the real page (decision 036): a studied word
moved to a folder with another desired retention is rescheduled from its own reviews, and the
move's undo gives it back the schedule it had. Checked on the SQLite database the page
exports, against the replay of each card's log in CPython."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from app.store import Store
from app.store.db import Database
from app.study.scheduler import replay
from e2e.conftest import screenshot
from e2e.lexical_ui import (
    create_folder,
    dialog,
    downloaded,
    toast,
    tree_link,
    wait_saved,
    word_item,
)
from tests.anki_decks import studied_deck


def _exported(page: Page, folder: Path) -> Store:
    path = folder / f"export-{len(list(folder.glob('export-*')))}.sqlite"
    downloaded(page, "Download SQLite database", path)
    return Store(Database.from_bytes(path.read_bytes()))


def _schedules(store: Store, term: str) -> dict[str, object]:
    """The card schedules of the word `term`, each checked to be its log's replay with the
    options of the folder it is in."""
    options = store.study.options_map()
    found = {}
    for card in store.study.logged_cards(None):
        assert replay(card.log, options[card.folder_id], card.seed) == card.progress
        if store.word(card.key[0]).term == term:
            found[card.key[1]] = card.progress
    return found


def test_a_studied_word_moved_to_a_slower_folder_is_rescheduled_and_undo_restores_it(
    app: Page, tmp_path: Path
) -> None:
    app.get_by_role("banner").get_by_role("button", name="Import / Export").click()
    box = dialog(app)
    box.get_by_label("Choose a file to import").set_input_files(str(studied_deck(tmp_path, 20)))
    box.get_by_role("form", name="Import preview").get_by_role("button", name="Import").click()
    expect(box).to_be_hidden()
    create_folder(app, "Slow")
    app.get_by_role("button", name="Study options…").click()
    box = dialog(app)
    box.get_by_label("Desired retention").fill("0.75")
    box.get_by_role("button", name="Save options").click()
    expect(box).to_be_hidden()
    wait_saved(app)
    before = _schedules(_exported(app, tmp_path), "word3")
    assert before

    # A fresh page: the scheduler is not loaded until the move needs it.
    app.reload()
    tree_link(app, "Simulated").click()
    word_item(app, "word3").get_by_role("button", name="Move word3").click()
    box = dialog(app)
    box.get_by_label("Destination").select_option(label="Slow")
    box.get_by_role("button", name="Move here").click()
    expect(box).to_be_hidden()
    expect(toast(app)).to_contain_text("Moved to Slow")
    wait_saved(app)
    screenshot(app, "reschedule-moved-word")
    moved = _schedules(_exported(app, tmp_path), "word3")
    assert moved.keys() == before.keys()
    # Aiming at 75% instead of 90%: the next review comes later.
    assert all(moved[k].due > before[k].due for k in before)  # type: ignore[attr-defined]

    app.get_by_role("banner").get_by_role("button", name=re.compile("^Undo")).click()
    expect(toast(app)).to_contain_text("Undid: Move")
    wait_saved(app)
    assert _schedules(_exported(app, tmp_path), "word3") == before
