"""Every tool against a real store: what it changes, the line the user reads, what the model
reads, the link, and the plan a destructive call shows before it runs."""

from __future__ import annotations

import pytest

from app.domain import Conflict, FolderId, InvalidInput, NotFound
from app.inputs import NewNote
from app.tools import item_tools
from app.tools.registry import BadArguments, Link
from app.tools.workspace import Workspace
from tests.tools.helpers import call, folder, plan, words, workspace


@pytest.fixture
def ws() -> Workspace:
    ws = workspace()
    medicine = folder(ws, "Medicine")
    cardiology = folder(ws, "Cardiology", medicine)
    words(ws, cardiology, "aorta", "atrium")
    folder(ws, "Anatomy")
    return ws


def _id(ws: Workspace, name: str) -> FolderId:
    return ws.store.find_folders(name)[0].id


def test_create_folder_at_the_top_and_inside_by_path(ws: Workspace) -> None:
    top = call(ws, "CREATE_FOLDER", name="Biology", emoji="🧬", color="green")
    assert top.step == "Created folder Biology"
    assert top.data == {
        "created": {
            "path": "Biology",
            "words": 0,
            "subfolders": 0,
            "emoji": "🧬",
            "colour": "green",
        }
    }
    assert top.link == Link(kind="folder", id=top.link.id, folder_id=top.link.id, label="Biology")
    inner = call(ws, "CREATE_FOLDER", name="Valves", parent="Medicine/Cardiology")
    assert inner.step == "Created folder Valves in Cardiology"
    assert inner.data["created"]["path"] == "Medicine/Cardiology/Valves"
    with pytest.raises(Conflict, match='already has a folder named "Valves"'):
        call(ws, "CREATE_FOLDER", name="valves", parent="Cardiology")


def test_add_word_and_bulk_add_with_skips(ws: Workspace) -> None:
    one = call(ws, "ADD_WORD", folder="Cardiology", term="ventricle", meanings=["a chamber"])
    assert one.step == 'Added "ventricle" to Cardiology'
    assert one.data["added"]["folder"] == "Medicine/Cardiology"
    assert one.link is not None
    assert one.link.kind == "word"
    assert one.link.folder_id == _id(ws, "Cardiology")
    many = call(
        ws,
        "BULK_ADD_WORDS",
        folder="Cardiology",
        words=[{"term": "Aorta"}, {"term": "valve", "meanings": ["a flap", " "]}, {"term": "apex"}],
    )
    assert many.step == "Added 2 words to Cardiology (1 word skipped: already there)"
    assert many.data["skipped"] == [{"term": "Aorta", "reason": "already in the folder"}]
    valve = ws.store.find_words("valve")[0]
    assert valve.meanings == ["a flap"]


def test_delete_plans_say_exactly_what_goes(ws: Workspace) -> None:
    full = plan(ws, "DELETE_ITEM", kind="folder", name="Medicine")
    assert full is not None
    assert full.change == 'Delete folder "Medicine" with 1 subfolder and 2 words'
    assert (full.deletes, full.large) == (4, True)
    empty = plan(ws, "DELETE_ITEM", kind="folder", name="Anatomy")
    assert empty == item_tools.Plan(
        change='Delete folder "Anatomy" (empty)', deletes=1, targets=("Anatomy",)
    )
    word = plan(ws, "DELETE_ITEM", kind="word", name="aorta")
    assert word is not None
    assert word.change == 'Delete word "aorta" in Medicine/Cardiology'
    assert (word.deletes, word.large, word.targets) == (1, False, ("aorta",))


def test_delete_each_kind(ws: Workspace) -> None:
    ws.store.add_note(NewNote(folder_id=_id(ws, "Anatomy"), title="Tips", body="x"))
    gone = call(ws, "DELETE_ITEM", kind="note", name="tips", folder="Anatomy")
    assert gone.step == 'Deleted note "Tips" in Anatomy'
    assert ws.store.notes(_id(ws, "Anatomy")) == []
    step = call(ws, "DELETE_ITEM", kind="folder", name="Medicine").step
    assert step == 'Deleted folder "Medicine" with 1 subfolder and 2 words'
    assert [f.name for f in ws.store.folders()] == ["Anatomy"]
    assert ws.store.find_words("aorta") == []


def test_rename_each_kind(ws: Workspace) -> None:
    assert (
        call(ws, "RENAME_ITEM", kind="folder", name="Cardiology", new_name="Heart").step
        == 'Renamed folder "Medicine/Cardiology" to "Heart"'
    )
    renamed = call(ws, "RENAME_ITEM", kind="word", name="aorta", new_name="Aorta")
    assert renamed.data == {
        "renamed": 'word "aorta" in Medicine/Heart',
        "now": 'word "Aorta" in Medicine/Heart',
    }
    with pytest.raises(Conflict, match='already has the word "atrium"'):
        call(ws, "RENAME_ITEM", kind="word", name="Aorta", new_name="ATRIUM")


def test_move_folders_and_words(ws: Workspace) -> None:
    moved = call(ws, "MOVE_ITEM", kind="folder", name="Cardiology", destination="Anatomy")
    assert moved.step == 'Moved folder "Medicine/Cardiology" to Anatomy'
    assert moved.data["now"] == 'folder "Anatomy/Cardiology"'
    top = call(ws, "MOVE_ITEM", kind="folder", name="it", destination="top level")
    assert top.data["now"] == 'folder "Cardiology"'
    word = call(ws, "MOVE_ITEM", kind="word", name="aorta", destination="Medicine")
    assert word.data["now"] == 'word "aorta" in Medicine'
    with pytest.raises(Conflict, match="name the folder"):
        call(ws, "MOVE_ITEM", kind="word", name="aorta", destination="")
    with pytest.raises(Conflict, match="into itself"):
        call(ws, "MOVE_ITEM", kind="folder", name="Medicine", destination="Medicine")


def test_moving_a_big_folder_is_large_and_a_small_one_is_not(ws: Workspace) -> None:
    small = plan(ws, "MOVE_ITEM", kind="folder", name="Medicine", destination="Anatomy")
    assert small is not None
    assert not small.large
    assert small.change == 'Move folder "Medicine" with 1 subfolder and 2 words into "Anatomy"'
    words(ws, _id(ws, "Cardiology"), *(f"w{i}" for i in range(item_tools.MANY)))
    big = plan(ws, "MOVE_ITEM", kind="folder", name="Medicine", destination="")
    assert big is not None
    assert big.large
    assert plan(ws, "MOVE_ITEM", kind="word", name="aorta", destination="Anatomy") is None


def test_update_folder_metadata(ws: Workspace) -> None:
    done = call(ws, "UPDATE_FOLDER_METADATA", folder="Anatomy", emoji="🦴", color="blue")
    assert done.step == "Updated folder Anatomy (emoji 🦴 and colour blue)"
    cleared = call(ws, "UPDATE_FOLDER_METADATA", folder="it", emoji="")
    assert cleared.step == "Updated folder Anatomy (emoji removed)"
    assert ws.store.folder(_id(ws, "Anatomy")).emoji == ""
    with pytest.raises(InvalidInput, match="Give an emoji, a colour or a language"):
        call(ws, "UPDATE_FOLDER_METADATA", folder="Anatomy")


def test_the_architect_sets_a_folders_default_language(ws: Workspace) -> None:
    done = call(ws, "CREATE_FOLDER", name="Deutsch", lang="DE")
    assert done.data["created"]["language"] == "de"
    done = call(ws, "UPDATE_FOLDER_METADATA", folder="Anatomy", lang="la")
    assert done.step == "Updated folder Anatomy (language la)"
    assert ws.store.default_lang(_id(ws, "Anatomy")) == "la"
    with pytest.raises(BadArguments, match="lang: must be a language tag such as en"):
        call(ws, "UPDATE_FOLDER_METADATA", folder="Anatomy", lang="Latin")


def test_update_word_adds_meanings_without_overwriting(ws: Workspace) -> None:
    assert plan(ws, "UPDATE_WORD_METADATA", term="aorta", add_meanings=["big artery"]) is None
    done = call(ws, "UPDATE_WORD_METADATA", term="aorta", add_meanings=["big artery"], lang="EN")
    assert done.step == 'Updated "aorta" (meanings and language)'
    aorta = ws.store.find_words("aorta")[0]
    assert (aorta.meanings, aorta.lang) == (["aorta meaning", "big artery"], "en")
    replace = plan(ws, "UPDATE_WORD_METADATA", term="aorta", meanings=["new"], notes="n")
    assert replace is not None
    assert replace.change == 'Replace the meanings of "aorta" in Medicine/Cardiology'
    assert replace.overwrites == 1
    same = call(ws, "UPDATE_WORD_METADATA", term="aorta", meanings=aorta.meanings)
    assert same.step == 'Left "aorta" as it was'
    with pytest.raises(InvalidInput, match="at most 50 meanings"):
        call(ws, "UPDATE_WORD_METADATA", term="aorta", add_meanings=[f"m{i}" for i in range(49)])


def test_notes_create_append_replace_and_read(ws: Workspace) -> None:
    created = call(ws, "CREATE_NOTE", folder="Cardiology", title="Mnemonics", body="**ABC**")
    assert created.step == 'Added note "Mnemonics" to Cardiology'
    assert plan(ws, "UPDATE_NOTE", title="mnemonics", folder="Cardiology", append="More") is None
    appended = call(ws, "UPDATE_NOTE", title="it", append="More")
    assert appended.step == 'Updated note "Mnemonics" (text)'
    replace = plan(ws, "UPDATE_NOTE", title="Mnemonics", folder="Cardiology", body="New")
    assert replace is not None
    assert replace.overwrites == 1
    read = call(ws, "GET_NOTES", folder="Cardiology")
    assert read.data == {"notes": [{"title": "Mnemonics", "body": "**ABC**\n\nMore"}], "total": 1}
    with pytest.raises(NotFound, match='has no note titled "Nope"\\. Its notes: "Mnemonics"'):
        call(ws, "UPDATE_NOTE", title="Nope", folder="Cardiology", append="x")


def test_navigate_asks_the_ui_to_open_the_item(ws: Workspace) -> None:
    opened = call(ws, "NAVIGATE_TO", kind="word", name="atrium")
    assert opened.navigate
    assert opened.link is not None
    assert opened.link.label == "atrium"
    assert opened.step == 'Opened word "atrium" in Medicine/Cardiology'


def test_read_tools(ws: Workspace) -> None:
    word = call(ws, "GET_WORD", term="AORTA")
    assert word.data["word"] == {
        "term": "aorta",
        "meanings": ["aorta meaning"],
        "folder": "Medicine/Cardiology",
    }
    listing = call(ws, "LIST_WORDS", folder="Cardiology", limit=1, offset=1)
    assert listing.data == {
        "folder": "Medicine/Cardiology",
        "total": 2,
        "offset": 1,
        "words": [{"term": "atrium", "meanings": ["atrium meaning"]}],
    }
    found = call(ws, "SEARCH_WORDS", query="meaning", folder="Medicine", limit=1)
    assert found.data["more"] == 1
    assert found.data["words"][0]["folder"] == "Medicine/Cardiology"
    assert call(ws, "SEARCH_WORDS", query="meaning", folder="Anatomy").data["words"] == []
    folders = call(ws, "SEARCH_FOLDERS", query="cardio")
    assert folders.data["folders"] == [{"path": "Medicine/Cardiology", "words": 2, "subfolders": 0}]
    tree = call(ws, "GET_FOLDER_STRUCTURE", depth=1)
    assert tree.data["folders"] == [
        {"path": "Anatomy", "words": 0},
        {"path": "Medicine", "words": 2, "subfolders_not_shown": 1},
    ]
    inner = call(ws, "GET_FOLDER_STRUCTURE", folder="Medicine")
    assert [row["path"] for row in inner.data["folders"]] == ["Medicine", "Medicine/Cardiology"]
