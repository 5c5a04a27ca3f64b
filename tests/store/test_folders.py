"""Folder commands and queries: create, edit, move, delete, tree, paths and their errors."""

from __future__ import annotations

import pytest

from app.domain import MAX_FOLDER_DEPTH, Conflict, FolderId, NotFound
from app.inputs import FolderPatch, NewFolder, NewNote, NewWord
from app.store import Store
from app.store.changes import invert
from tests.store.helpers import assert_index_in_sync, make_store
from tests.store.transfer.workspaces import parse


def _tree(store: Store) -> tuple[FolderId, FolderId, FolderId]:
    """Science / Biology / Cells, three levels deep."""
    science = store.create_folder(NewFolder(name="Science"))
    biology = store.create_folder(NewFolder(name="Biology", parent_id=science.id))
    cells = store.create_folder(NewFolder(name="Cells", parent_id=biology.id))
    return science.id, biology.id, cells.id


def test_create_and_read_back(store: Store) -> None:
    folder = store.create_folder(NewFolder(name=" Cardiology ", emoji="🫀", color="red"))
    assert folder.name == "Cardiology"
    assert folder.parent_id is None
    assert store.folder(folder.id) == folder
    assert store.children(None) == [folder]
    assert store.undo_label == 'Create folder "Cardiology"'


def test_sibling_names_are_unique_ignoring_case(store: Store) -> None:
    science, _, _ = _tree(store)
    with pytest.raises(Conflict, match='"Science" already has a folder named "Biology"'):
        store.create_folder(NewFolder(name="BIOLOGY", parent_id=science))
    with pytest.raises(Conflict, match="the top level already has"):
        store.create_folder(NewFolder(name="science"))
    store.create_folder(NewFolder(name="Biology"))  # another level: allowed


def test_casefold_catches_german_sharp_s(store: Store) -> None:
    store.create_folder(NewFolder(name="Straße"))
    with pytest.raises(Conflict):
        store.create_folder(NewFolder(name="STRASSE"))


def test_missing_parent_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound, match="Folder 99"):
        store.create_folder(NewFolder(name="x", parent_id=FolderId(99)))


def test_update_changes_only_given_fields(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="Old", emoji="📁", color="blue"))
    renamed = store.update_folder(folder.id, FolderPatch(name="New"))
    assert (renamed.name, renamed.emoji, renamed.color) == ("New", "📁", "blue")
    assert store.undo_label == 'Rename folder "Old" to "New"'
    styled = store.update_folder(folder.id, FolderPatch(color="green"))
    assert (styled.name, styled.color) == ("New", "green")
    assert store.update_folder(folder.id, FolderPatch(name="new")).name == "new"  # own name


def test_rename_into_a_clash_is_refused(store: Store) -> None:
    store.create_folder(NewFolder(name="A"))
    b = store.create_folder(NewFolder(name="B"))
    with pytest.raises(Conflict):
        store.update_folder(b.id, FolderPatch(name="a"))


def test_move_and_refusals(store: Store) -> None:
    science, biology, cells = _tree(store)
    with pytest.raises(Conflict, match="into itself or one of its subfolders"):
        store.move_folder(science, cells)
    with pytest.raises(Conflict, match="into itself"):
        store.move_folder(biology, biology)
    moved = store.move_folder(cells, None)
    assert moved.parent_id is None
    assert store.undo_label == 'Move folder "Cells" to the top level'
    clash = store.create_folder(NewFolder(name="Cells", parent_id=biology))
    with pytest.raises(Conflict, match='"Biology" already has a folder named "Cells"'):
        store.move_folder(cells, biology)
    with pytest.raises(NotFound):
        store.move_folder(clash.id, FolderId(404))


def test_path_tree_and_counts(store: Store) -> None:
    _, biology, cells = _tree(store)
    other = store.create_folder(NewFolder(name="Art"))
    for term in ("cell", "nucleus"):
        store.add_word(NewWord(folder_id=cells, term=term))
    store.add_word(NewWord(folder_id=biology, term="gene"))
    assert [f.name for f in store.folder_path(cells)] == ["Science", "Biology", "Cells"]
    rows = [(r.folder.name, r.depth, r.word_count, r.total_words) for r in store.folder_tree()]
    assert rows == [
        ("Art", 0, 0, 0),
        ("Science", 0, 0, 3),
        ("Biology", 1, 1, 3),
        ("Cells", 2, 2, 2),
    ]
    assert store.find_folders(" BIOLOGY ")[0].id == biology
    assert store.find_folders("nothing") == []
    assert other.id not in {f.id for f in store.folder_path(cells)}
    with pytest.raises(NotFound):
        store.folder_path(FolderId(404))


def test_delete_cascades_and_undo_restores_everything(store: Store) -> None:
    science, biology, cells = _tree(store)
    store.add_word(NewWord(folder_id=cells, term="cell"))
    store.add_word(NewWord(folder_id=biology, term="gene"))
    store.add_note(NewNote(folder_id=cells, title="Remember", body="mitosis"))
    summary = store.deletion_summary(science)
    assert (summary.subfolders, summary.words, summary.notes) == (2, 2, 1)
    before = store.folder_tree()
    store.delete_folder(science)
    assert store.undo_label == 'Delete folder "Science" (2 subfolders, 2 words, 1 note)'
    assert store.folders() == []
    assert store.search("mitosis") == []
    assert_index_in_sync(store)
    store.undo()
    assert store.folder_tree() == before
    assert store.search("mitosis")[0].path == ["Science", "Biology", "Cells"]
    assert_index_in_sync(store)


def test_delete_missing_folder(store: Store) -> None:
    with pytest.raises(NotFound):
        store.delete_folder(FolderId(1))
    assert not store.can_undo


def test_hostile_names_are_stored_verbatim(store: Store) -> None:
    name = "<script>alert(1)</script> ' OR 1=1; -- 🧪 שלום"
    folder = store.create_folder(NewFolder(name=name))
    assert store.folder(folder.id).name == name


def test_the_cached_tree_follows_every_kind_of_write(store: Store) -> None:
    def names() -> list[str]:
        return [row.folder.name for row in store.folder_tree()]

    store.create_folder(NewFolder(name="A"))
    assert names() == ["A"]
    with store.group("Turn"):
        store.create_folder(NewFolder(name="B"))
        assert names() == ["A", "B"]  # a write inside an open group is seen at once

    def failed_turn() -> None:
        with store.group("Failed turn"):
            store.create_folder(NewFolder(name="C"))
            assert names() == ["A", "B", "C"]
            raise RuntimeError

    with pytest.raises(RuntimeError):
        failed_turn()
    assert names() == ["A", "B"]
    store.undo()
    assert names() == ["A"]
    store.redo()
    assert names() == ["A", "B"]
    follower = Store.from_snapshot(store.snapshot())
    assert [r.folder.name for r in follower.folder_tree()] == ["A", "B"]
    undone = store.undo()
    assert undone is not None
    follower.apply_logged(invert(undone.changes))  # what a follower tab does with a broadcast
    assert [r.folder.name for r in follower.folder_tree()] == ["A"]
    assert store.folder_tree() is store.folder_tree()  # immutable: shared until it changes


def _chain(store: Store, levels: int, name: str = "level") -> list[FolderId]:
    ids: list[FolderId] = []
    for n in range(levels):
        parent = ids[-1] if ids else None
        ids.append(store.create_folder(NewFolder(name=f"{name} {n + 1}", parent_id=parent)).id)
    return ids


def test_folders_nest_no_deeper_than_a_backup_can_restore(store: Store) -> None:
    deepest = _chain(store, MAX_FOLDER_DEPTH)[-1]
    with pytest.raises(Conflict, match=f"at most {MAX_FOLDER_DEPTH} levels"):
        store.create_folder(NewFolder(name="one too deep", parent_id=deepest))
    other = _chain(store, 2, "other")  # two levels that cannot go under the deepest but one
    with pytest.raises(Conflict, match=f"at most {MAX_FOLDER_DEPTH} levels"):
        store.move_folder(other[0], store.folder_path(deepest)[-2].id)
    store.move_folder(other[1], store.folder_path(deepest)[-2].id)  # one level fits
    restored = make_store()
    restored.import_parsed(parse("backup.json", store.export("json")), "replace")
    assert len(restored.folders()) == len(store.folders())
