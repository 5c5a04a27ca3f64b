"""The Import / Export dialog driven as a user would: export, pick a file, preview, import."""

from __future__ import annotations

import json
from datetime import date

from app.domain import NewFolder, NewWord
from app.store import Store
from app.store.transfer.steps import run_steps
from app.ui.controller import Controller
from app.ui.nodes import El, find_all, text_content
from app.ui.update import Update
from tests.anki_decks import card_ids, make_apkg, with_revlog
from tests.store.transfer.studied import studied_store
from tests.store.transfer.workspaces import parse


def make() -> Controller:
    ui = Controller(Store.open())
    ui.transfer._today = lambda: date(2025, 3, 4)
    return ui


def patched(update: Update) -> El:
    assert update.patch is not None
    node = update.patch[1]
    assert isinstance(node, El)
    return node


def preview(ui: Controller, name: str, data: bytes) -> El:
    return patched(run_steps(ui.transfer.preview_file(name, data)))


def test_the_dialog_offers_exports_and_a_file_picker() -> None:
    dialog = make().dispatch("transfer").dialog
    assert dialog is not None
    labels = [text_content(b) for b in find_all(dialog, lambda e: e.tag == "button")]
    assert labels == [
        "Close",
        "Download JSON backup",
        "Download SQLite database",
        "Download CSV of words",
    ]
    (picker,) = find_all(dialog, lambda e: e.attrs.get("type") == "file")
    assert picker.attrs["accept"].split(",") == [
        *(".json", ".sqlite", ".sqlite3", ".db", ".csv", ".tsv", ".txt", ".apkg", ".colpkg"),
    ]
    assert find_all(dialog, lambda e: e.tag == "label" and e.attrs.get("for") == "transfer-file")


def test_exports_are_downloads_named_by_date() -> None:
    ui = make()
    ui.store.create_folder(NewFolder(name="Biology"))
    update = ui.dispatch("export-json")
    assert update.download is not None
    assert update.download.filename == "lexical-2025-03-04-backup.json"
    assert update.download.media_type == "application/json"
    assert json.loads(update.download.data)["folders"][0]["name"] == "Biology"
    assert update.toast == "Exported lexical-2025-03-04-backup.json (1 KB)"
    assert ui.dispatch("export-csv").download.filename.endswith("-words.csv")  # type: ignore[union-attr]
    sqlite = ui.dispatch("export-sqlite").download
    assert sqlite is not None and sqlite.data.startswith(b"SQLite format 3")


def test_a_csv_preview_shows_folders_rows_and_skips_then_imports_as_one_undo() -> None:
    ui = make()
    ui.dispatch("transfer")
    data = b"folder,term,meanings\nBio/Cells,cell,unit\nBio,,orphan meaning\nBio,gene,unit\n"
    form = preview(ui, "words.csv", data)
    text = text_content(form)
    assert "Adds 2 folders and 2 words; leaves out 1 row with problems." in text
    assert "Folders to create (2)" in text and "Bio › Cells" in text
    assert "Skipped (1)" in text and "Term must not be empty." in text
    (skipped,) = find_all(
        form, lambda e: e.tag == "table" and e.attrs.get("aria-label") == "Skipped rows"
    )
    assert "3" in [text_content(td) for td in find_all(skipped, lambda e: e.tag == "td")]
    assert not find_all(form, lambda e: e.attrs.get("type") == "radio")  # CSV only merges
    update = ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert update.error is None and update.close_dialog and update.tree and update.offer_undo
    assert update.toast is not None and update.toast.startswith("Imported words.csv. Adds 2")
    assert [f.name for f in ui.store.folders()] == ["Bio", "Cells"]
    ui.dispatch("undo")
    assert ui.store.folders() == []


def test_a_backup_offers_merge_or_replace_with_what_each_does() -> None:
    ui = make()
    source = Store.open()
    folder = source.create_folder(NewFolder(name="Spanish"))
    source.add_word(NewWord(folder_id=folder.id, term="hola"))
    ui.store.create_folder(NewFolder(name="Mine"))
    form = preview(ui, "backup.json", source.export("json"))
    radios = find_all(form, lambda e: e.attrs.get("type") == "radio")
    assert [(r.attrs["value"], "checked" in r.attrs) for r in radios] == [
        ("merge", True),
        ("replace", False),
    ]
    text = text_content(form)
    assert "Merge: Adds 1 folder and 1 word." in text
    assert "Replace: Your workspace becomes this file: 1 folder and 1 word. The 1 folder" in text
    details = patched(ui.dispatch("transfer-mode", None, {"text": "replace"}))
    assert "Replace my workspace" in text_content(details)
    ui.dispatch("transfer-apply", None, {"mode": "replace"})
    assert [f.name for f in ui.store.folders()] == ["Spanish"]


def test_an_anki_history_says_what_progress_comes_and_what_stays_behind() -> None:
    ui = make()
    package = make_apkg({"Spanish": [(["perro", "dog"], []), (["gato", "cat"], [])]})
    ids = card_ids(package)
    start = 1_690_000_000_000
    reviews = [
        (start, ids[("perro", 0)], 3, 5_000, 0),
        (start + 1, ids[("perro", 0)], 3, 5_000, 1),
        (start + 2, ids[("gato", 0)], 0, 0, 4),  # a manual reschedule
    ]
    data = with_revlog(package, reviews, queues={ids[("perro", 0)]: (2, -1)})
    text = text_content(preview(ui, "deck.apkg", data))
    assert "Adds 1 folder and 2 words; brings the study progress of 1 card (2 reviews)." in text
    assert "1 card is suspended or buried in Anki: its history comes along" in text
    assert "Left out of the study history: 1 review that only rescheduled a card by hand." in text
    update = ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert update.toast is not None and "(2 reviews)" in update.toast


def test_replacing_a_studied_workspace_says_its_progress_goes_too() -> None:
    ui = make()
    ui.store.import_parsed(parse("s.json", studied_store().export("json")), "replace")
    form = preview(ui, "backup.json", studied_store().export("json"))
    assert (
        "Replace: Your workspace becomes this file: 2 folders, 2 words and 1 note, with the "
        "study progress of 2 cards (4 reviews). The 2 folders, 2 words and 1 note, with the "
        "study progress of 2 cards, here now are removed (Undo brings them back)."
    ) in text_content(form)


def test_a_hostile_file_is_a_message_and_nothing_changes() -> None:
    ui = make()
    ui.store.create_folder(NewFolder(name="Mine"))
    failure = preview(ui, "deck.apkg", b"PK\x03\x04\x00garbage")
    assert failure.attrs["role"] == "alert"
    assert "deck.apkg cannot be imported." in text_content(failure)
    assert "Nothing was changed." in text_content(failure)
    update = ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert update.error == "Choose a file to import first."
    assert [f.name for f in ui.store.folders()] == ["Mine"]


def test_nothing_new_says_so_and_disables_import() -> None:
    ui = make()
    ui.store.create_folder(NewFolder(name="Mine"))
    form = preview(ui, "same.json", ui.store.export("json"))
    (button,) = find_all(form, lambda e: e.tag == "button" and e.attrs.get("type") == "submit")
    assert text_content(button) == "Nothing to import" and "disabled" in button.attrs


def test_a_read_only_tab_may_export_but_not_import() -> None:
    ui = make()
    ui.read_only = "Read-only here."
    assert ui.dispatch("export-json").download is not None
    preview(ui, "w.csv", b"term\nhola\n")
    assert ui.dispatch("transfer-apply", None, {"mode": "merge"}).error == "Read-only here."
    assert ui.store.folders() == []


def test_preview_tables_scroll_in_a_named_box_that_keys_can_reach() -> None:
    ui = make()
    ui.dispatch("transfer")
    form = preview(ui, "words.csv", b"folder,term,meanings\nBio,cell,unit\nBio,,orphan\n")
    boxes = find_all(form, lambda e: "preview-scroll" in e.attrs.get("class", ""))
    assert [(b.attrs["role"], b.attrs["aria-label"], b.attrs["tabindex"]) for b in boxes] == [
        ("region", "First rows", "0"),
        ("region", "Skipped rows", "0"),
    ]
