"""Word and note commands and queries, including clashes, paging and missing ids."""

from __future__ import annotations

import pytest

from app.domain import Conflict, FolderId, NoteId, NotFound, WordId
from app.inputs import NewFolder, NewNote, NewWord, NotePatch, WordPatch
from app.store import Store


def _folder(store: Store, name: str = "Words") -> FolderId:
    return store.create_folder(NewFolder(name=name)).id


def test_add_and_read_word(store: Store) -> None:
    f = _folder(store)
    word = store.add_word(
        NewWord(folder_id=f, term="über", meanings=["over", "above"], notes="n", lang="de")
    )
    assert store.word(word.id) == word
    assert word.meanings == ["over", "above"]
    assert word.lang == "de"
    assert store.undo_label == 'Add "über" to "Words"'


def test_terms_unique_per_folder_ignoring_case(store: Store) -> None:
    f, g = _folder(store), _folder(store, "Other")
    store.add_word(NewWord(folder_id=f, term="Apple"))
    with pytest.raises(Conflict, match='"Words" already has the word "Apple"'):
        store.add_word(NewWord(folder_id=f, term="APPLE"))
    store.add_word(NewWord(folder_id=g, term="apple"))


def test_add_word_to_missing_folder(store: Store) -> None:
    with pytest.raises(NotFound):
        store.add_word(NewWord(folder_id=FolderId(5), term="x"))


def test_update_word(store: Store) -> None:
    f = _folder(store)
    word = store.add_word(NewWord(folder_id=f, term="colour", meanings=["hue"]))
    other = store.add_word(NewWord(folder_id=f, term="shade"))
    edited = store.update_word(word.id, WordPatch(term="Colour", meanings=["tint", ""]))
    assert (edited.term, edited.meanings, edited.updated_at > word.updated_at) == (
        "Colour",
        ["tint"],
        True,
    )
    with pytest.raises(Conflict):
        store.update_word(other.id, WordPatch(term="COLOUR"))
    with pytest.raises(NotFound):
        store.update_word(WordId(999), WordPatch(notes="x"))


def test_words_are_paged_in_term_order(store: Store) -> None:
    f = _folder(store)
    for term in ["delta", "Alpha", "charlie", "bravo", "echo"]:
        store.add_word(NewWord(folder_id=f, term=term))
    assert [w.term for w in store.words(f, limit=2)] == ["Alpha", "bravo"]
    assert [w.term for w in store.words(f, offset=2, limit=2)] == ["charlie", "delta"]
    assert [w.term for w in store.words(f, offset=4)] == ["echo"]
    assert store.word_count(f) == 5


def test_move_words_reports_and_skips_clashes(store: Store) -> None:
    f, g = _folder(store), _folder(store, "Target")
    a = store.add_word(NewWord(folder_id=f, term="a"))
    b = store.add_word(NewWord(folder_id=f, term="b"))
    store.add_word(NewWord(folder_id=g, term="B"))
    result = store.move_words([a.id, b.id, WordId(77)], g)
    assert result.moved == [a.id]
    assert result.skipped == ["Word 77 does not exist.", '"Target" already has the word "b".']
    assert store.word(a.id).folder_id == g
    assert store.word(b.id).folder_id == f
    assert store.undo_label == 'Move 1 word to "Target"'


def test_move_words_clashing_among_themselves(store: Store) -> None:
    f, g, h = _folder(store), _folder(store, "G"), _folder(store, "H")
    x1 = store.add_word(NewWord(folder_id=f, term="x"))
    x2 = store.add_word(NewWord(folder_id=g, term="X"))
    result = store.move_words([x1.id, x2.id], h)
    assert result.moved == [x1.id]
    assert len(result.skipped) == 1


def test_delete_words(store: Store) -> None:
    f = _folder(store)
    ids = [store.add_word(NewWord(folder_id=f, term=t)).id for t in "abc"]
    with pytest.raises(NotFound, match="Word 99"):
        store.delete_words([ids[0], WordId(99)])
    assert store.word_count(f) == 3
    assert store.delete_words(ids[:2]) == 2
    assert store.undo_label == "Delete 2 words"
    store.delete_words(ids[2:])
    assert store.undo_label == 'Delete word "c"'


def test_notes(store: Store) -> None:
    f = _folder(store)
    note = store.add_note(NewNote(folder_id=f, title="Mnemonic", body="Kings play chess"))
    assert store.notes(f) == [note]
    edited = store.update_note(note.id, NotePatch(body="On fine green silk"))
    assert edited.title == "Mnemonic"
    assert edited.body == "On fine green silk"
    store.delete_note(note.id)
    assert store.notes(f) == []
    with pytest.raises(NotFound):
        store.note(note.id)
    with pytest.raises(NotFound):
        store.delete_note(NoteId(42))
    with pytest.raises(NotFound):
        store.add_note(NewNote(folder_id=FolderId(42), title="x"))


def test_failed_command_records_nothing(store: Store) -> None:
    f = _folder(store)
    store.add_word(NewWord(folder_id=f, term="a"))
    label = store.undo_label
    with pytest.raises(Conflict):
        store.add_word(NewWord(folder_id=f, term="A"))
    assert store.undo_label == label
    assert store.word_count(f) == 1
