"""A folder's default language: set, inherited by subfolders, taken by new and pasted words."""

from __future__ import annotations

import pytest

from app.domain import InvalidInput
from app.inputs import FolderPatch, NewFolder, NewWord, parse_input
from app.store import Store
from app.store.bulk import parse_bulk


def test_subfolders_inherit_the_nearest_default(store: Store) -> None:
    german = store.create_folder(NewFolder(name="German", lang="DE"))
    verbs = store.create_folder(NewFolder(name="Verbs", parent_id=german.id))
    swiss = store.create_folder(NewFolder(name="Swiss", parent_id=verbs.id, lang="de-ch"))
    other = store.create_folder(NewFolder(name="Other"))
    assert german.lang == "de"
    assert swiss.lang == "de-CH"  # normalised like a word's tag
    assert store.default_lang(verbs.id) == "de"
    assert store.default_lang(swiss.id) == "de-CH"
    assert store.default_lang(other.id) == ""


def test_a_new_word_takes_the_default_unless_it_gives_one(store: Store) -> None:
    german = store.create_folder(NewFolder(name="German", lang="de"))
    verbs = store.create_folder(NewFolder(name="Verbs", parent_id=german.id))
    assert store.add_word(NewWord(folder_id=verbs.id, term="gehen")).lang == "de"
    assert store.add_word(NewWord(folder_id=verbs.id, term="go", lang="en")).lang == "en"


def test_pasted_words_take_the_default(store: Store) -> None:
    spanish = store.create_folder(NewFolder(name="Spanish", lang="es"))
    store.bulk_add(spanish.id, parse_bulk("perro - dog\ngato - cat").rows)
    assert [w.lang for w in store.words(spanish.id)] == ["es", "es"]


def test_changing_or_clearing_the_default_leaves_existing_words(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="Words", lang="de"))
    word = store.add_word(NewWord(folder_id=folder.id, term="Haus"))
    assert store.update_folder(folder.id, FolderPatch(lang="fr")).lang == "fr"
    assert store.update_folder(folder.id, FolderPatch(name="Mots")).lang == "fr"
    assert store.update_folder(folder.id, FolderPatch(lang="")).lang == ""
    assert store.word(word.id).lang == "de"
    store.undo()
    assert store.folder(folder.id).lang == "fr"


@pytest.mark.parametrize("tag", ["german", "d", "de_DE", "de-", "🇩🇪", "x" * 300])
def test_an_invalid_tag_gets_the_same_message_as_a_words(tag: str) -> None:
    with pytest.raises(InvalidInput) as folder_error:
        parse_input(NewFolder, {"name": "F", "lang": tag})
    with pytest.raises(InvalidInput) as word_error:
        parse_input(NewWord, {"folder_id": 1, "term": "t", "lang": tag})
    assert folder_error.value.message == word_error.value.message
    assert "language tag such as en" in folder_error.value.message
