"""The Import / Export dialog driven as a user would: export, pick a file, preview, import."""

from __future__ import annotations

import json
from datetime import date

from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.transfer.steps import run_steps
from app.text.nodes import El, find_all, text_content
from app.ui.controller import Controller
from app.ui.mapping_memory import MappingMemory
from app.ui.update import Update
from tests.anki_decks import card_ids, make_apkg, with_revlog
from tests.store.transfer.studied import studied_store
from tests.store.transfer.workspaces import parse
from tests.study.helpers import assert_replays


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
    assert sqlite is not None
    assert sqlite.data.startswith(b"SQLite format 3")


def test_a_csv_preview_shows_folders_rows_and_skips_then_imports_as_one_undo() -> None:
    ui = make()
    ui.dispatch("transfer")
    data = b"folder,term,meanings\nBio/Cells,cell,unit\nBio,,orphan meaning\nBio,gene,unit\n"
    form = preview(ui, "words.csv", data)
    text = text_content(form)
    assert "Adds 2 folders and 2 words; leaves out 1 row with problems." in text
    assert "Folders to create (2)" in text
    assert "Bio › Cells" in text
    assert "Skipped (1)" in text
    assert "Term must not be empty." in text
    (skipped,) = find_all(
        form, lambda e: e.tag == "table" and e.attrs.get("aria-label") == "Skipped rows"
    )
    assert "3" in [text_content(td) for td in find_all(skipped, lambda e: e.tag == "td")]
    assert not find_all(form, lambda e: e.attrs.get("value") == "replace")  # CSV only merges
    update = ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert update.error is None
    assert update.close_dialog
    assert update.tree
    assert update.offer_undo
    assert update.toast is not None
    assert update.toast.startswith("Imported words.csv. Added 2")
    assert [f.name for f in ui.store.folders()] == ["Bio", "Cells"]
    ui.dispatch("undo")
    assert ui.store.folders() == []


def test_a_list_counts_rows_and_says_which_words_cannot_be_studied() -> None:
    """Issue 25: the preview said 3,271 words where its summary added 3,011 (rows merged into
    words with the same term), and words without meanings were imported unsaid, never to be
    studied."""
    ui = make()
    ui.dispatch("transfer")
    data = b"term,meaning\ncell,unit\ncell,the smallest unit\ngene,\nallele,\n"
    text = text_content(preview(ui, "words.csv", data))
    assert "Word list · 4 rows with a term, 1 folder" in text
    assert "adds the meanings of 1 row to words with the same term" in text
    assert (
        "2 words have no meaning: they are kept and can be searched, but cannot be studied "
        "until they get one." in text
    )


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
    assert update.toast is not None
    assert "(2 reviews)" in update.toast


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
    assert text_content(button) == "Nothing to import"
    assert "disabled" in button.attrs


def test_a_read_only_tab_may_export_but_not_import() -> None:
    ui = make()
    ui.read_only = "Read-only here."
    assert ui.dispatch("export-json").download is not None
    preview(ui, "w.csv", b"term\nhola\n")
    assert ui.dispatch("transfer-apply", None, {"mode": "merge"}).error == "Read-only here."
    assert ui.store.folders() == []


def _selects(form: El) -> dict[str, str]:
    """Each field's select (by its label) -> the role chosen."""
    chosen = {}
    for select in find_all(form, lambda e: e.tag == "select"):
        (option,) = [o for o in select.children if isinstance(o, El) and "selected" in o.attrs]
        chosen[str(select.attrs["aria-label"])] = str(option.attrs["value"]).split(":")[2]
    return chosen


def _body(update: Update) -> str:
    assert update.patch is not None
    assert update.patch[0] == "#transfer-body"
    return text_content(patched(update))


def test_the_preview_shows_each_field_with_an_example_and_what_it_becomes() -> None:
    ui = make()
    ui.dispatch("transfer")
    form = preview(ui, "list.csv", b"Nr,Word,Meaning\n1,Haus,house\n2,Baum,tree\n")
    assert _selects(form) == {
        "Nr becomes": "skip",
        "Word becomes": "term",
        "Meaning becomes": "meanings",
    }
    text = text_content(form)
    assert "What each field becomes" in text
    assert "Haus" in text
    assert "Column names Lexical recognises" in text
    radios = find_all(form, lambda e: e.attrs.get("name") == "header-0")
    assert [("checked" in r.attrs) for r in radios] == [True, False]


def test_choosing_another_term_swaps_roles_and_rebuilds_the_words() -> None:
    ui = make()
    ui.dispatch("transfer")
    preview(ui, "list.csv", b"Nr,Word,Meaning\n1,Haus,house\n2,Baum,tree\n")
    update = ui.dispatch("transfer-map", None, {"text": "0:2:term"})
    assert update.focus == "#map-0-2"
    assert _selects(patched(update)) == {
        "Nr becomes": "skip",
        "Word becomes": "meanings",
        "Meaning becomes": "term",
    }
    ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert [(w.term, w.meanings) for w in ui.store.find_words("house")] == [("house", ["Haus"])]


def test_the_first_row_can_be_read_as_words_and_a_language_given_to_all() -> None:
    ui = make()
    ui.dispatch("transfer")
    preview(ui, "list.csv", b"word,meaning\nHaus,house\n")
    assert "Adds 1 folder and 2 words" in _body(
        ui.dispatch("transfer-header", None, {"text": "0:0"})
    )
    assert "Adds 1 folder and 1 word" in _body(
        ui.dispatch("transfer-header", None, {"text": "0:1"})
    )
    refused = ui.dispatch("transfer-lang", None, {"text": "not a tag!"})
    assert 'The language "not a tag!"' in _body(refused)
    (button,) = find_all(patched(refused), lambda e: e.attrs.get("type") == "submit")
    assert "disabled" in button.attrs
    ui.dispatch("transfer-lang", None, {"text": "de"})
    ui.dispatch("transfer-apply", None, {"mode": "merge"})
    assert ui.store.find_words("Haus")[0].lang == "de"


def test_malformed_mapping_choices_change_nothing() -> None:
    ui = make()
    ui.dispatch("transfer")
    preview(ui, "list.csv", b"word,meaning\nHaus,house\n")
    for value in ("", "0:9:term", "5:0:term", "0:0:owner", "a:b:term", "0:0"):
        assert ui.dispatch("transfer-map", None, {"text": value}).patch is None
    for value in ("", "0:7", "3:1", "x"):
        assert ui.dispatch("transfer-header", None, {"text": value}).patch is None


def test_the_chosen_mapping_is_remembered_for_the_next_file_of_that_layout() -> None:
    kept: dict[str, str] = {}
    memory = MappingMemory(lambda: kept.get("m"), lambda text: kept.__setitem__("m", text))
    ui = Controller(Store.open(), mappings=memory)
    deck = make_apkg({"A": [(["Haus", "house", "das Haus"], [])]})
    ui.dispatch("transfer")
    preview(ui, "a.apkg", deck)
    ui.dispatch("transfer-map", None, {"text": "0:2:meanings"})
    ui.dispatch("transfer-apply", None, {"mode": "merge"})
    ui.dispatch("transfer")
    form = preview(ui, "b.apkg", make_apkg({"B": [(["Baum", "tree", "der Baum"], [])]}))
    assert _selects(form)["Example becomes"] == "meanings"
    assert MappingMemory(lambda: "not json").recall("x") is None
    assert MappingMemory(lambda: '{"x": {"roles": ["owner"]}}').recall("x") is None


def test_only_a_deck_with_a_review_history_asks_for_the_scheduler() -> None:
    def asks(data: bytes) -> bool:
        steps = make().transfer.preview_file("d.apkg", data)
        return any(step.needs_scheduler for step in steps)

    plain = make_apkg({"A": [(["Haus", "house", ""], [])]})
    card = card_ids(plain)[("Haus", 0)]
    assert not asks(plain)
    assert asks(with_revlog(plain, [(1_700_000_000_000, card, 3, 5_000, 0)]))


def test_preview_tables_scroll_in_a_named_box_that_keys_can_reach() -> None:
    ui = make()
    ui.dispatch("transfer")
    form = preview(ui, "words.csv", b"folder,term,meanings\nBio,cell,unit\nBio,,orphan\n")
    boxes = find_all(form, lambda e: "preview-scroll" in e.attrs.get("class", ""))
    assert [(b.attrs["role"], b.attrs["aria-label"], b.attrs["tabindex"]) for b in boxes] == [
        ("region", "Fields of the word list", "0"),
        ("region", "First rows", "0"),
        ("region", "Skipped rows", "0"),
    ]


def test_an_older_backup_is_imported_then_every_card_replayed() -> None:
    # Decision 045: a version 5 backup's due dates were drawn with the old fuzz.
    document = json.loads(studied_store().export("json"))
    document["version"] = 5
    ui = make()
    ui.dispatch("transfer")
    preview(ui, "old.json", json.dumps(document).encode())
    update = ui.dispatch("transfer-apply", None, {"mode": "replace"})
    assert update.then is not None
    assert ui.store.schedules_stale
    done = run_steps(update.then)
    assert done.toast is not None
    assert done.toast.startswith("Imported old.json")
    assert not ui.store.schedules_stale
    assert_replays(ui.store)
    # A backup of this version needs none.
    ui.dispatch("transfer")
    preview(ui, "new.json", ui.store.export("json"))
    assert ui.dispatch("transfer-apply", None, {"mode": "replace"}).then is None
