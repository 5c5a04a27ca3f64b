"""Undo/redo, groups and listeners, with a property test over random command sequences."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import FolderId, LexicalError, NoteId, WordId
from app.inputs import FolderPatch, NewFolder, NewNote, NewWord, NotePatch, WordPatch
from app.store import Changeset, Store
from app.store.changes import invert
from app.store.oplog import decode_entry, encode_entry
from tests.store.helpers import assert_index_in_sync, dump, make_store

NAMES = st.sampled_from(["a", "A", "b", "Ünïcode", "日本", "x y"])
PICK = st.integers(0, 20)
Command = Callable[[Store], Any]


def _ids(store: Store, table: str) -> list[int]:
    return [row[0] for row in dump(store)[table]]


def _pick(store: Store, table: str, index: int) -> int:
    ids = _ids(store, table)
    return ids[index % len(ids)] if ids else 999


def _parent(store: Store, index: int) -> FolderId | None:
    return None if index % 3 == 0 else FolderId(_pick(store, "folder", index))


def _attempt(store: Store, command: Command) -> None:
    # Refused commands are part of the sequence: they must leave no trace.
    with contextlib.suppress(LexicalError):
        command(store)


def _grouped(first: Command, second: Command) -> Command:
    def run(store: Store) -> None:
        with store.group("Agent turn"):
            for command in (first, second):
                _attempt(store, command)

    return run


def _commands() -> st.SearchStrategy[Command]:
    single = _single_commands()
    return st.one_of(single, st.builds(_grouped, single, single))


def _single_commands() -> st.SearchStrategy[Command]:
    def folder(i: int) -> Callable[[Store], FolderId]:
        return lambda s: FolderId(_pick(s, "folder", i))

    def word(i: int) -> Callable[[Store], WordId]:
        return lambda s: WordId(_pick(s, "word", i))

    def note(i: int) -> Callable[[Store], NoteId]:
        return lambda s: NoteId(_pick(s, "note", i))

    return st.one_of(
        st.builds(
            lambda n, p: lambda s: s.create_folder(NewFolder(name=n, parent_id=_parent(s, p))),
            NAMES,
            PICK,
        ),
        st.builds(
            lambda i, n: lambda s: s.update_folder(folder(i)(s), FolderPatch(name=n)), PICK, NAMES
        ),
        st.builds(lambda i, p: lambda s: s.move_folder(folder(i)(s), _parent(s, p)), PICK, PICK),
        st.builds(lambda i: lambda s: s.delete_folder(folder(i)(s)), PICK),
        st.builds(
            lambda i, n, m: (
                lambda s: s.add_word(NewWord(folder_id=folder(i)(s), term=n, meanings=m))
            ),
            PICK,
            NAMES,
            st.lists(NAMES, max_size=2),
        ),
        st.builds(lambda i, n: lambda s: s.update_word(word(i)(s), WordPatch(term=n)), PICK, NAMES),
        st.builds(lambda i, j: lambda s: s.move_words([word(i)(s)], folder(j)(s)), PICK, PICK),
        st.builds(lambda i: lambda s: s.delete_words([word(i)(s)]), PICK),
        st.builds(
            lambda i, n: lambda s: s.add_note(NewNote(folder_id=folder(i)(s), title=n, body=n)),
            PICK,
            NAMES,
        ),
        st.builds(lambda i, n: lambda s: s.update_note(note(i)(s), NotePatch(body=n)), PICK, NAMES),
        st.builds(lambda i: lambda s: s.delete_note(note(i)(s)), PICK),
        st.builds(
            lambda i, t: lambda s: s.bulk_add(folder(i)(s), s.preview_bulk(folder(i)(s), t).rows),
            PICK,
            st.lists(NAMES, max_size=4).map("\n".join),
        ),
    )


def _run(store: Store, commands: list[Command]) -> list[Changeset]:
    emitted: list[Changeset] = []
    unsubscribe = store.subscribe(emitted.append)
    for command in commands:
        _attempt(store, command)
    unsubscribe()
    return emitted


@settings(max_examples=60, deadline=None)
@given(st.lists(_commands(), max_size=12), st.lists(_commands(), max_size=12))
def test_undo_all_restores_start_and_redo_all_restores_end(
    setup: list[Command], commands: list[Command]
) -> None:
    store = make_store()
    _run(store, setup)
    start = dump(store)
    steps = len(_run(store, commands))
    end = dump(store)
    assert_index_in_sync(store)
    for _ in range(steps):
        assert store.undo() is not None
    assert dump(store) == start
    assert_index_in_sync(store)
    for _ in range(steps):
        assert store.redo() is not None
    assert not store.can_redo
    assert dump(store) == end


@settings(max_examples=60, deadline=None)
@given(st.lists(_commands(), max_size=15))
def test_replaying_emitted_changes_rebuilds_the_state_even_twice(commands: list[Command]) -> None:
    store = make_store()
    emitted = _run(store, commands)
    replica = make_store()
    for _ in range(2):  # the second pass proves replay is idempotent
        for changeset in emitted:
            replica.apply_logged(changeset.changes)
        assert dump(replica) == dump(store)
    assert_index_in_sync(replica)
    assert not replica.can_undo


def test_undo_redo_labels_and_emitted_changes(store: Store) -> None:
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    assert (store.undo(), store.redo(), store.undo_label) == (None, None, None)
    folder = store.create_folder(NewFolder(name="Bio"))
    assert store.can_undo
    assert store.undo_label == 'Create folder "Bio"'
    undone = store.undo()
    assert undone is not None
    assert undone.label == 'Create folder "Bio"'
    assert store.redo_label == 'Create folder "Bio"'
    assert not store.can_undo
    assert emitted[-1].label == 'Undo Create folder "Bio"'
    assert emitted[-1].changes == invert(emitted[0].changes)
    store.redo()
    assert store.folder(folder.id) == folder
    assert emitted[-1].label == 'Redo Create folder "Bio"'


def test_a_new_command_clears_redo(store: Store) -> None:
    store.create_folder(NewFolder(name="A"))
    store.undo()
    store.create_folder(NewFolder(name="B"))
    assert not store.can_redo
    assert store.redo() is None


def test_group_is_one_step_with_its_own_label(store: Store) -> None:
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    with store.group("Architect: build Cardiology"):
        f = store.create_folder(NewFolder(name="Cardiology"))
        for term in ("atrium", "ventricle"):
            store.add_word(NewWord(folder_id=f.id, term=term))
        with pytest.raises(LexicalError):
            store.add_word(NewWord(folder_id=f.id, term="Atrium"))  # caught: group goes on
    assert [c.label for c in emitted] == ["Architect: build Cardiology"]
    assert len(emitted[0].changes) == 3
    store.undo()
    assert store.folders() == []
    assert not store.can_undo


def test_group_rolls_back_everything_on_an_escaping_error(store: Store) -> None:
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    before = dump(store)

    def agent_turn_fails() -> None:
        with store.group("Agent turn"):
            store.create_folder(NewFolder(name="Half"))
            raise RuntimeError("model failed")

    with pytest.raises(RuntimeError, match="model failed"):
        agent_turn_fails()
    assert dump(store) == before
    assert emitted == []
    assert not store.can_undo


def test_undo_inside_a_group_is_refused(store: Store) -> None:
    store.create_folder(NewFolder(name="A"))
    with pytest.raises(LexicalError, match="Finish"), store.group("g"):
        store.undo()


def test_changesets_round_trip_through_json(store: Store) -> None:
    emitted: list[Changeset] = []
    store.subscribe(emitted.append)
    store.create_folder(NewFolder(name="Ω 🧪", emoji="🧪"))
    assert decode_entry(encode_entry(1, emitted[0])) == (1, emitted[0])


def test_undo_of_a_group_that_edits_one_row_twice(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="A"))
    with store.group("Rename twice"):
        store.update_folder(folder.id, FolderPatch(name="B"))
        store.update_folder(folder.id, FolderPatch(name="C"))
    store.undo()
    assert store.folder(folder.id) == folder


def _fresh_tree(store: Store) -> list[Any]:
    """The folder tree read straight from the data, bypassing any cache."""
    return Store.from_snapshot(store.snapshot()).folder_tree()


@settings(max_examples=40, deadline=None)
@given(st.lists(_commands(), max_size=12))
def test_the_cached_folder_tree_always_matches_the_data(commands: list[Command]) -> None:
    store = make_store()
    replica = make_store()
    replica.folder_tree()  # fill the replica's cache before edits arrive through the log
    for command in commands:
        emitted = _run(store, [command])
        assert store.folder_tree() == _fresh_tree(store)
        for changeset in emitted:
            replica.apply_logged(changeset.changes)
        assert replica.folder_tree() == store.folder_tree()
    while store.undo() is not None:
        assert store.folder_tree() == _fresh_tree(store)
    while store.redo() is not None:
        assert store.folder_tree() == _fresh_tree(store)


def test_the_folder_tree_is_current_inside_a_group(store: Store) -> None:
    store.folder_tree()
    with store.group("Agent turn"):
        folder = store.create_folder(NewFolder(name="Cardiology"))
        assert [r.folder.id for r in store.folder_tree()] == [folder.id]
        store.add_word(NewWord(folder_id=folder.id, term="heart"))
        assert store.folder_tree()[0].word_count == 1
    assert store.folder_tree()[0].word_count == 1


def test_editing_a_word_does_not_rebuild_the_folder_tree(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = store.create_folder(NewFolder(name="Cardiology"))
    word = store.add_word(NewWord(folder_id=folder.id, term="heart"))
    first = store.folder_tree()
    monkeypatch.setattr("app.store.queries.folder_tree", lambda _db: pytest.fail("rebuilt"))
    store.update_word(word.id, WordPatch(term="Heart", meanings=["pumps blood"]))
    store.add_note(NewNote(folder_id=folder.id, title="Valves"))
    assert store.folder_tree() == first


def test_a_group_starts_with_the_folder_tree_already_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = store.create_folder(NewFolder(name="Cardiology"))
    before = store.folder_tree()
    real = importlib.import_module("app.store.queries").folder_tree
    monkeypatch.setattr("app.store.queries.folder_tree", lambda _db: pytest.fail("rebuilt"))
    with store.group("Agent turn"):
        assert store.folder_tree() is before
        monkeypatch.setattr("app.store.queries.folder_tree", real)
        store.add_word(NewWord(folder_id=folder.id, term="heart"))
        assert store.folder_tree()[0].word_count == 1
