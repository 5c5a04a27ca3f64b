"""Naming items the way a model can: paths, names, pronouns, and asking when a name is shared."""

from __future__ import annotations

import pytest

from app.domain import InvalidInput, NotFound
from app.tools import resolve
from app.tools.resolve import Ambiguous
from app.tools.workspace import References, Workspace
from tests.tools.helpers import call, folder, words, workspace


@pytest.fixture
def ws() -> Workspace:
    ws = workspace()
    spanish = folder(ws, "Spanish")
    french = folder(ws, "French")
    folder(ws, "Basics", spanish)
    basics = folder(ws, "Basics", french)
    words(ws, basics, "bonjour", "merci")
    words(ws, folder(ws, "Verbs", spanish), "hablar")
    words(ws, spanish, "merci")
    return ws


def test_paths_names_and_anchors(ws: Workspace) -> None:
    assert resolve.folder_path(ws, resolve.folder(ws, "French/Basics").id) == "French/Basics"
    assert resolve.folder(ws, " verbs ").name == "Verbs"
    assert resolve.folder(ws, "/Spanish").name == "Spanish"
    with pytest.raises(NotFound, match='no folder "/Basics"'):
        resolve.folder(ws, "/Basics")
    with pytest.raises(InvalidInput, match="Name a folder"):
        resolve.folder(ws, "top level")
    assert resolve.destination(ws, "") is None
    assert resolve.destination(ws, "Top level") is None


def test_a_shared_name_asks_which_instead_of_guessing(ws: Workspace) -> None:
    with pytest.raises(Ambiguous) as folders:
        resolve.folder(ws, "basics")
    assert folders.value.candidates == ["Spanish/Basics", "French/Basics"]
    with pytest.raises(Ambiguous) as shared:
        resolve.word(ws, "MERCI")
    assert shared.value.candidates == ["French/Basics: merci", "Spanish: merci"]
    assert resolve.word(ws, "merci", "Basics").folder_id == resolve.folder(ws, "French/Basics").id


def test_a_missing_name_suggests_near_matches(ws: Workspace) -> None:
    with pytest.raises(NotFound, match="Similar: Spanish/Verbs"):
        resolve.folder(ws, "Verb")
    with pytest.raises(NotFound, match='no word "hab" in "Spanish"'):
        resolve.word(ws, "hab", "Spanish")
    with pytest.raises(NotFound, match="Similar: French/Basics: bonjour"):
        resolve.word(ws, "bonj")


def test_a_folder_name_containing_the_separator_still_resolves() -> None:
    ws = workspace()
    folder(ws, "Either/Or")
    assert resolve.folder(ws, "Either/Or").name == "Either/Or"


def test_pronouns_mean_the_item_named_last(ws: Workspace) -> None:
    with pytest.raises(NotFound, match="Nothing has been named yet"):
        resolve.folder(ws, "that folder")
    verbs = resolve.folder(ws, "Verbs")
    assert resolve.folder(ws, "it").id == verbs.id
    assert resolve.folder(ws, "That folder!").id == verbs.id
    hablar = resolve.word(ws, "hablar")
    assert ws.refs.last == "word"
    assert resolve.word(ws, "that word").id == hablar.id
    assert resolve.folder(ws, "it").id == verbs.id  # "it" as a folder is still the folder
    created = call(ws, "CREATE_FOLDER", name="Irregular", parent="that folder")
    assert created.step == "Created folder Irregular in Verbs"
    assert resolve.folder(ws, "it").name == "Irregular"


def test_here_and_the_selection_fill_in_before_anything_is_named(ws: Workspace) -> None:
    with pytest.raises(NotFound, match="No folder is open"):
        resolve.folder(ws, "here")
    spanish = resolve.folder(ws, "Spanish")
    hablar = ws.store.find_words("hablar")[0]
    fresh = Workspace(ws.store, open_folder=spanish.id, selected_word=hablar.id)
    assert resolve.folder(fresh, "here").id == spanish.id
    assert resolve.folder(fresh, "this folder").id == spanish.id
    assert resolve.word(fresh, "it").id == hablar.id


def test_a_pronoun_for_a_deleted_item_says_so(ws: Workspace) -> None:
    verbs = resolve.folder(ws, "Verbs")
    ws.store.delete_folder(verbs.id)
    with pytest.raises(NotFound, match="does not exist"):
        resolve.folder(ws, "it")


def test_references_round_trip_and_forget_rubbish() -> None:
    refs = References()
    refs.saw("word", 4)
    refs.saw("folder", 2)
    assert References.from_json(refs.to_json()) == refs
    assert References.from_json({"folder": "x", "word": True, "note": 3, "last": "evil"}) == (
        References(note=3)  # type: ignore[arg-type]
    )
    assert References.from_json({}) == References()
