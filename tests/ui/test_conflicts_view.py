"""The "Changed on two devices" dialog: each conflict with a button per version, the shown one
first and said so, and the toolbar's count."""

from __future__ import annotations

from app.sync.conflict_text import Choice, DescribedConflict
from app.sync.model import Conflict
from app.text.nodes import El, find_all, text_content
from app.ui.conflicts_view import conflicts_button_label, conflicts_button_text, conflicts_dialog

TERM = DescribedConflict(
    "words:g1:term",
    Conflict("words", "g1", "term", "perrito", ("can",)),
    "Word “perrito” in “Spanish”",
    "term",
    (Choice("“perrito”", "perrito"), Choice("“can”", "can")),
)


def _buttons(tree: El) -> list[El]:
    return find_all(
        tree, lambda el: el.tag == "button" and el.attrs.get("data-action") == "sync-keep"
    )


def test_each_version_has_a_button_naming_it_the_shown_one_first() -> None:
    dialog = conflicts_dialog([TERM])
    assert "Changed on two devices" in text_content(dialog)
    assert "Word “perrito” in “Spanish”" in text_content(dialog)
    buttons = _buttons(dialog)
    assert [text_content(b) for b in buttons] == ["Keep “perrito” (shown now)", "Keep “can”"]
    assert [(b.attrs["data-id"], b.attrs["data-value"]) for b in buttons] == [
        ("words:g1:term", "0"),
        ("words:g1:term", "1"),
    ]
    (group,) = find_all(dialog, lambda el: el.attrs.get("role") == "group")
    assert group.attrs["aria-label"] == "Word “perrito” in “Spanish”: the term"


def test_with_nothing_left_it_says_so_and_a_message_is_an_alert() -> None:
    dialog = conflicts_dialog([], "Kept “can”.")
    assert "Nothing to check" in text_content(dialog)
    assert not _buttons(dialog)
    (alert,) = find_all(dialog, lambda el: el.attrs.get("role") == "alert")
    assert text_content(alert) == "Kept “can”."


def test_the_toolbar_counts_them_and_its_name_starts_with_what_it_shows() -> None:
    assert conflicts_button_text(1) == "1 to check"
    assert conflicts_button_label(2).startswith("2 to check")
    assert "2 fields changed on two devices" in conflicts_button_label(2)
    assert conflicts_button_text(1200) == "1,200 to check"
