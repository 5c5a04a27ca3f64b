"""Bulk paste: line formats, duplicates, invalid lines, hostile input, limits and the write."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.bulk import MAX_ROWS, parse_bulk, preview_steps, split_line
from app.store.results import BulkRow


@pytest.mark.parametrize(
    ("line", "term", "meanings"),
    [
        ("heart - organ", "heart", ["organ"]),
        ("heart – organ", "heart", ["organ"]),
        ("heart—organ", "heart", ["organ"]),
        ("heart: organ; pump", "heart", ["organ", "pump"]),
        ("heart\torgan|pump", "heart", ["organ", "pump"]),
        ("heart = organ", "heart", ["organ"]),
        ("heart", "heart", []),
        ("well-being - health", "well-being", ["health"]),
        ("- bullet - point", "bullet", ["point"]),
        ("10:30\tten thirty", "10:30", ["ten thirty"]),
        ("  spaced   -   out  ", "spaced", ["out"]),
        ("corazón: ❤️", "corazón", ["❤️"]),
        ("term:", "term", []),
        ("perro -", "perro", []),
        ("perro  -  ", "perro", []),
        ("- perro -", "perro", []),
        ("e-", "e-", []),
    ],
)
def test_line_formats(line: str, term: str, meanings: list[str]) -> None:
    assert split_line(line) == (term, meanings)


def test_blank_lines_crlf_and_bom() -> None:
    preview = parse_bulk("\ufeffa - 1\r\n\r\n  \rb - 2\rc")
    assert [(r.line, r.term) for r in preview.rows] == [(1, "a"), (4, "b"), (5, "c")]


def test_duplicates_in_folder_and_in_paste() -> None:
    preview = parse_bulk("Apple - x\nbanana\nAPPLE - y\nstraße", existing={"banana", "strasse"})
    assert [(r.status, r.reason) for r in preview.rows] == [
        ("ok", ""),
        ("duplicate", "Already in this folder."),
        ("duplicate", "Same as line 1."),
        ("duplicate", "Already in this folder."),
    ]
    assert preview.count("ok") == 1
    assert preview.count("duplicate") == 3


def test_invalid_lines_have_reasons() -> None:
    rows = parse_bulk(": no term\n" + "t" * 300 + "\nnul\x00byte - x\nok - " + "m" * 2001).rows
    assert [r.status for r in rows] == ["invalid"] * 4
    assert rows[0].reason == "The term must not be empty."
    assert "at most 200" in rows[1].reason
    assert len(rows[1].term) == 201
    assert "control" in rows[2].reason
    assert "\x00" not in rows[2].term
    assert "meanings" in rows[3].reason


def test_hostile_input_gives_a_clear_result() -> None:
    assert parse_bulk("<script>alert(1)</script> - x").rows[0].term == "<script>alert(1)</script>"
    assert parse_bulk("bad \ud800 - x").rows[0].status == "invalid"
    huge = parse_bulk("x" * 1_000_000 + " - " + " " * 1_000_000 + "-")
    assert huge.rows[0].status == "invalid"
    assert parse_bulk(" " * 1_000_000).rows == []


def test_row_limit_with_a_message() -> None:
    text = "\n".join(f"w{i} - m" for i in range(100_000))
    preview = parse_bulk(text)
    assert len(preview.rows) == MAX_ROWS
    assert "90,000 more were left out" in preview.note


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_preview(text: str) -> None:
    preview = parse_bulk(text)
    assert all(r.status in ("ok", "duplicate", "invalid") for r in preview.rows)
    assert all(r.reason for r in preview.rows if r.status != "ok")


def test_preview_and_add_through_the_store(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="Biology")).id
    store.add_word(NewWord(folder_id=folder, term="cell"))
    preview = store.preview_bulk(folder, "Cell - unit\ngene: heredity; DNA\n\t\n: bad\ngene")
    assert [r.status for r in preview.rows] == ["duplicate", "ok", "invalid", "duplicate"]
    result = store.bulk_add(folder, preview.rows)
    assert result.added == 1
    assert len(result.skipped) == 3
    assert store.undo_label == 'Add 1 word to "Biology"'
    gene = store.words(folder)[1]
    assert (gene.term, gene.meanings) == ("gene", ["heredity", "DNA"])


def test_add_rechecks_rows_against_the_folder(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="F")).id
    rows = store.preview_bulk(folder, "a\nb").rows
    store.add_word(NewWord(folder_id=folder, term="A"))  # added after the preview
    forged = BulkRow(line=9, term="   ", meanings=[], status="ok")
    result = store.bulk_add(folder, [*rows, forged])
    assert result.added == 1
    assert [r.reason for r in result.skipped] == [
        "already in the folder",
        "Term must not be empty.",
    ]


def test_ten_thousand_rows_in_one_undoable_step(store: Store) -> None:
    # How fast this is, is measured by make bench, not asserted here.
    folder = store.create_folder(NewFolder(name="Big")).id
    text = "\n".join(f"word{i} - meaning {i}; another" for i in range(10_000))
    result = store.bulk_add(folder, store.preview_bulk(folder, text).rows)
    assert result.added == 10_000
    assert store.word_count(folder) == 10_000
    assert store.search("word9999")[0].title == "word9999"
    store.undo()
    assert store.word_count(folder) == 0


def test_a_long_paste_is_previewed_in_steps_that_say_how_far_it_got() -> None:
    text = "\n".join(f"word{i} - meaning" for i in range(5_000))
    steps = preview_steps(text)
    progress = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as stop:
            preview = stop.value
            break
    assert preview == parse_bulk(text)
    assert [p.done for p in progress] == [2_000, 4_000]
    assert {p.total for p in progress} == {5_000}
