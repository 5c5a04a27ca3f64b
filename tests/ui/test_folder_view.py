"""Word rows are reused between redraws while their content is the same, and rebuilt when it
changes (so a stale row can never be shown); counts read right."""

from __future__ import annotations

from app.domain import Folder, FolderId, Note, Word, WordId
from app.store.results import TreeRow
from app.text.nodes import text_content
from app.ui import folder_view, tree_view, word_view


def _word(**changes: object) -> Word:
    fields: dict[str, object] = {
        "id": WordId(1),
        "folder_id": FolderId(1),
        "term": "heart",
        "meanings": ["pumps blood"],
        "notes": "",
        "color": "none",
        "lang": "en",
        "created_at": 1,
        "updated_at": 1,
    }
    return Word(**{**fields, **changes})


def test_the_same_word_gives_the_same_row_and_any_change_a_new_one() -> None:
    row = word_view._word(_word(), highlighted=False)
    assert word_view._word(_word(updated_at=2), highlighted=False) is row
    for change in (
        {"term": "Heart"},
        {"meanings": ["beats"]},
        {"notes": "n"},
        {"lang": "de"},
        {"color": "red"},
    ):
        changed = word_view._word(_word(**change), highlighted=False)
        assert changed is not row
        assert changed != row
    assert "beats" in text_content(word_view._word(_word(meanings=["beats"]), highlighted=False))
    assert word_view._word(_word(), highlighted=True) != row


def test_the_row_cache_stays_bounded() -> None:
    for i in range(word_view._ROWS.kept + 10):
        word_view._word(_word(id=i + 1), highlighted=False)
    assert len(word_view._ROWS) <= word_view._ROWS.kept


def _note(**changes: object) -> Note:
    fields = {"id": 1, "folder_id": 1, "title": "Mnemonics", "body": "**ab**"}
    return Note(**{**fields, "created_at": 1, "updated_at": 1, **changes})


def test_the_same_note_gives_the_same_block_and_any_change_a_new_one() -> None:
    block = folder_view._note(_note())
    assert folder_view._note(_note(updated_at=2)) is block
    retitled = folder_view._note(_note(title="Hooks"))
    assert retitled is not block
    assert "Hooks" in text_content(retitled)
    rewritten = folder_view._note(_note(body="cd"))
    assert rewritten is not block
    assert "cd" in text_content(rewritten)
    assert "ab" in text_content(block)


def _row(folder_id: int, words: int, total: int, parent: int | None = None) -> TreeRow:
    folder = Folder(
        **{
            "id": folder_id,
            "parent_id": parent,
            "name": f"F{folder_id}",
            "emoji": "",
            "color": "none",
        }
        | {"created_at": 1, "updated_at": 1}
    )
    return TreeRow(
        folder=folder, depth=0 if parent is None else 1, word_count=words, total_words=total
    )


def test_home_counts_one_folder_and_one_word_in_the_singular() -> None:
    assert "1 folder · 1 word." in text_content(folder_view.render_home([_row(1, 1, 1)]))
    home = folder_view.render_home([_row(1, 9_874, 9_877), _row(2, 3, 3, parent=1)])
    assert "2 folders · 9,877 words." in text_content(home)


def test_a_folder_says_its_own_words_and_those_with_subfolders_as_the_tree_counts_them() -> None:
    summary = folder_view._summary([_row(2, 3, 3, parent=1)], 9_874, 1)
    assert summary == "1 subfolder · 9,874 words (9,877 with subfolders) · 1 note"
    assert folder_view._summary([], 1, 0) == "0 subfolders · 1 word · 0 notes"


def test_the_tree_separates_thousands() -> None:
    shown = text_content(tree_view.name_and_count("Spanish", 9_877, "name", "count")[1])
    assert shown == "9,877 words"
