"""Word rows are reused between redraws while their content is the same, and rebuilt when it
changes (so a stale row can never be shown)."""

from __future__ import annotations

from app.domain import FolderId, Word, WordId
from app.ui import folder_view
from app.ui.nodes import text_content


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
    return Word.model_validate({**fields, **changes})


def test_the_same_word_gives_the_same_row_and_any_change_a_new_one() -> None:
    row = folder_view._word(_word(), highlighted=False)
    assert folder_view._word(_word(updated_at=2), highlighted=False) is row
    for change in (
        {"term": "Heart"},
        {"meanings": ["beats"]},
        {"notes": "n"},
        {"lang": "de"},
        {"color": "red"},
    ):
        changed = folder_view._word(_word(**change), highlighted=False)
        assert changed is not row and changed != row
    assert "beats" in text_content(folder_view._word(_word(meanings=["beats"]), highlighted=False))
    assert folder_view._word(_word(), highlighted=True) != row


def test_the_row_cache_stays_bounded() -> None:
    for i in range(folder_view.ROWS_KEPT + 10):
        folder_view._word(_word(id=i + 1), highlighted=False)
    assert len(folder_view._ROWS) <= folder_view.ROWS_KEPT
