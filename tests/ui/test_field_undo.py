"""Ctrl+Z in a text field undoes the collection's last change unless text was typed there since."""

from __future__ import annotations

from app.ui.field_undo import FieldUndo


def test_a_field_never_typed_into_leaves_ctrl_z_to_the_change() -> None:
    undo = FieldUndo()
    undo.changed()
    assert not undo.field_keeps(None)


def test_text_typed_after_the_change_is_undone_first() -> None:
    undo = FieldUndo()
    undo.changed()
    typed = undo.stamp()
    assert undo.field_keeps(typed)


def test_text_typed_before_the_change_gives_way_to_the_change() -> None:
    undo = FieldUndo()
    typed = undo.stamp()
    undo.changed()
    assert not undo.field_keeps(typed)
    assert undo.field_keeps(undo.stamp())  # typing again takes Ctrl+Z back
