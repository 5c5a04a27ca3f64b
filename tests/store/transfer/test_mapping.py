"""The mapping step: guessing what each field of a deck or list is, building words with the
user's choice instead, remembering it per layout, and homographs that keep every meaning."""

from __future__ import annotations

import genanki
import pytest

from app.domain import InvalidInput
from app.inputs import FolderPatch, NewFolder, NewWord
from app.store.transfer import read_import
from app.store.transfer.field_guess import guess, is_header
from app.store.transfer.mapping import NO_TERM, build
from app.store.transfer.records import FieldTable, ImportChoices, Record, TableMapping
from app.store.transfer.steps import run_steps
from tests.anki_decks import make_apkg
from tests.store.helpers import make_store
from tests.store.transfer.workspaces import parse, preview


def _model(model_id: int, name: str, *fields: str) -> genanki.Model:
    return genanki.Model(
        model_id,
        name,
        fields=[{"name": f} for f in fields],
        templates=[{"name": "Card 1", "qfmt": f"{{{{{fields[0]}}}}}", "afmt": "{{FrontSide}}"}],
    )


def _roles(data: bytes, name: str = "d.apkg") -> tuple[str, ...]:
    parsed = parse(name, data)
    assert parsed.choices is not None
    return parsed.choices.tables[0].roles


def test_a_deck_whose_first_field_is_an_id_takes_the_word_as_the_term() -> None:
    model = _model(1_700_000_001, "Goethe B1", "Key", "Wort", "Bedeutung")
    notes = [
        ([f"B1-CH01:{n}", w, m], [])
        for n, (w, m) in enumerate([("ab", "from"), ("Abend", "evening"), ("aber", "but")], start=1)
    ]
    parsed = parse("b1.apkg", make_apkg({"B1": notes}, model=model))
    assert [(w.term, w.meanings, w.notes) for w in parsed.workspace.words] == [
        ("ab", ["from"], ""),
        ("Abend", ["evening"], ""),
        ("aber", ["but"], ""),
    ]
    assert parsed.choices is not None
    assert parsed.choices.tables[0].roles[0] == "skip"


def test_an_unnamed_id_field_is_never_the_term_and_language_fields_are_meanings() -> None:
    model = _model(
        1_700_000_002,
        "Persisch-Deutsch",
        *("Nr", "Deutsch", "Artikel", "Plural", "Englisch", "Persisch", "Beispiel", "Audio"),
        *("Bild", "Level", "Code"),
    )
    notes = [
        (
            [str(n), word, "der", "-e", english, persian, f"Das ist {word}.",
             f"[sound:{n}.mp3]", '<img src="x.png">', "B1", f"X-{n:04}"],
            ["b1"],
        )
        for n, (word, english, persian) in enumerate(
            [("Tisch", "table", "میز"), ("Stuhl", "chair", "صندلی"), ("Hund", "dog", "سگ")],
            start=1,
        )
    ]  # fmt: skip
    parsed = parse("fa.apkg", make_apkg({"Deutsch": notes}, model=model))
    assert parsed.choices is not None
    assert parsed.choices.tables[0].roles == (
        *("skip", "term", "notes", "notes", "meanings", "meanings", "notes", "skip"),
        *("skip", "skip", "skip", "notes"),
    )
    word = parsed.workspace.words[0]
    assert (word.term, word.meanings) == ("Tisch", ["table", "میز"])
    assert word.notes == "Artikel: der\n\nPlural: -e\n\nBeispiel: Das ist Tisch.\n\nTags: b1"


def test_radicals_with_pinyin_and_sound_get_their_meaning() -> None:
    model = _model(1_700_000_003, "Radicals", "Radical", "Pinyin", "Meaning", "Number", "Audio")
    notes = [
        (["龍", "lóng", "dragon", "212", "[sound:long.mp3]"], []),
        (["人", "rén", "person", "9", "[sound:ren.mp3]"], []),
        (["口", "kǒu", "mouth", "30", "[sound:kou.mp3]"], []),
    ]
    parsed = parse("r.apkg", make_apkg({"Radicals": notes}, model=model))
    assert _roles(make_apkg({"Radicals": notes}, model=model)) == (
        "term",
        "notes",
        "meanings",
        "skip",
        "skip",
        "notes",  # the tags (none here)
    )
    assert next((w.term, w.meanings, w.notes) for w in parsed.workspace.words) == (
        "龍",
        ["dragon"],
        "Pinyin: lóng",
    )
    assert parsed.source is not None
    assert parsed.source.tables[0].audio == frozenset({4})


def test_homographs_in_two_notes_are_one_word_with_both_meanings() -> None:
    notes = [
        (["家", "(N) Familie; Zuhause", ""], []),
        (["人", "Mensch", ""], []),
        (["家", "(Met) für Firmen, Institutionen, Schulen", ""], []),
        (["家", "(N) Familie; Zuhause", ""], []),
    ]
    parsed = parse("zh.apkg", make_apkg({"HSK": notes}))
    summary = preview(make_store(), parsed)
    assert (summary.new_words, summary.merged_words, summary.duplicate_words) == (2, 1, 1)
    assert [(m.line, m.term, m.reason) for m in summary.merged] == [
        (3, "家", "1 meaning added to the word of note 1.")
    ]
    assert [(s.line, s.reason) for s in summary.skipped] == [(4, "Same as note 1.")]
    store = make_store()
    run_steps(store.preview_import(parsed, "merge"))
    store.import_parsed(parsed, "merge")
    (word,) = store.find_words("家")
    assert word.meanings == ["(N) Familie; Zuhause", "(Met) für Firmen, Institutionen, Schulen"]


def test_a_homograph_adds_its_meaning_to_a_word_already_in_the_collection() -> None:
    store = make_store()
    first = make_apkg({"HSK": [(["家", "home", ""], [])]})
    store.import_parsed(parse("a.apkg", first), "merge")
    second = make_apkg({"HSK": [(["家", "home", ""], []), (["家", "family", ""], [])]})
    summary = store.import_parsed(parse("b.apkg", second), "merge")
    assert (summary.updated_words, summary.merged_words) == (1, 1)
    assert store.find_words("家")[0].meanings == ["home", "family"]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("word, sentences", ("term", "notes")),
        (" WORD ;Übersetzung", ("term", "meanings")),
        ("Chapter,Type,Number,Character,Pinyin,German", None),
        ("Front\tBack\tTags", ("term", "meanings", "notes")),
        ("Wort,Bedeutung,Beispiel", ("term", "meanings", "notes")),
        ("palabra,traducción", ("term", "meanings")),
        ("单词,意思", ("term", "meanings")),
    ],
)
def test_headers_are_matched_tolerantly(header: str, expected: tuple[str, ...] | None) -> None:
    rows = {"word, sentences": "Haus, Das Haus ist groß.\nBaum, Der Baum ist alt.\n"}
    delimiter = ";" if ";" in header else "\t" if "\t" in header else ","
    width = len(header.split(delimiter))
    body = rows.get(header) or "".join(
        delimiter.join(f"v{r}{c}x" if c else f"w{r}" for c in range(width)) + "\n" for r in range(3)
    )
    parsed = parse("list.csv", f"{header}\n{body}".encode())
    assert parsed.choices is not None
    assert parsed.choices.tables[0].header
    if expected is not None:
        assert parsed.choices.tables[0].roles == expected
    assert "word" not in {w.term.casefold() for w in parsed.workspace.words}


def test_a_chinese_list_by_position_names_becomes_characters_with_german_meanings() -> None:
    data = (
        "Chapter,Type,Number,Character,Pinyin,German\n"
        "1,N,1,爱,ài,Liebe\n1,V,2,八,bā,acht\n2,N,3,爸爸,bàba,Papa\n"
    ).encode()
    parsed = parse("b2.csv", data)
    assert parsed.choices is not None
    assert parsed.choices.tables[0].roles == ("skip", "notes", "skip", "term", "notes", "meanings")
    assert next((w.term, w.meanings, w.notes) for w in parsed.workspace.words) == (
        "爱",
        ["Liebe"],
        "Type: N\n\nPinyin: ài",
    )
    assert not parsed.skipped


def test_a_first_row_of_data_is_not_a_header() -> None:
    assert not is_header(["word", "a unit of language"])
    assert not is_header(["Haus", "house"])
    assert not is_header(["term", "term"])
    assert is_header(["word", "sentences"])


def _table(*rows: tuple[str, ...], header: tuple[str, ...] | None = None) -> FieldTable:
    records = [Record(n, (), r) for n, r in enumerate(rows, start=1)]
    width = len(rows[0])
    return FieldTable(
        "k", "Columns", tuple(f"Column {i + 1}" for i in range(width)), records, header
    )


def test_without_names_the_first_short_varied_text_is_the_term() -> None:
    table = _table(
        ("1", "n", "Haus", "house"), ("2", "n", "Baum", "tree"), ("3", "n", "Hund", "dog")
    )
    assert guess(table).roles == ("skip", "notes", "term", "meanings")


def test_the_users_mapping_builds_the_words_and_a_language_is_given_to_all() -> None:
    parsed = parse("w.csv", b"term,meaning,note\nHaus,house,das\nBaum,tree,der\n")
    assert parsed.source is not None
    choices = ImportChoices((TableMapping(("meanings", "term", "skip"), header=True),), lang="de")
    rebuilt = run_steps(build(parsed.source, choices))
    assert [(w.term, w.meanings, w.lang) for w in rebuilt.workspace.words] == [
        ("house", ["Haus"], "de"),
        ("tree", ["Baum"], "de"),
    ]
    reread = run_steps(
        build(
            parsed.source,
            ImportChoices((TableMapping(("term", "meanings", "notes"), header=False),)),
        )
    )
    assert reread.workspace.words[0].term == "term"


def test_without_a_term_nothing_is_made_and_the_preview_says_why() -> None:
    parsed = parse("w.csv", b"term,meaning\nHaus,house\n")
    assert parsed.source is not None
    rebuilt = run_steps(
        build(parsed.source, ImportChoices((TableMapping(("notes", "meanings"), True),)))
    )
    assert rebuilt.workspace.words == []
    assert any(NO_TERM in r for r in rebuilt.remarks)


def test_a_bad_language_for_the_whole_import_is_refused_clearly() -> None:
    parsed = parse("w.csv", b"term,meaning\nHaus,house\n")
    assert parsed.source is not None
    assert parsed.choices is not None
    with pytest.raises(InvalidInput, match="language"):
        run_steps(build(parsed.source, ImportChoices(parsed.choices.tables, lang="not a tag!")))


def test_a_remembered_mapping_is_used_when_it_fits_the_layout() -> None:
    data = b"term,meaning\nHaus,house\n"
    key = parse("w.csv", data).source.tables[0].key  # type: ignore[union-attr]
    remembered = {key: TableMapping(("meanings", "term"), header=True)}
    parsed = run_steps(read_import("w.csv", data, remembered.get))
    assert parsed.workspace.words[0].term == "house"
    wrong = {key: TableMapping(("term",), header=True)}  # from a list of another width
    assert run_steps(read_import("w.csv", data, wrong.get)).workspace.words[0].term == "Haus"


def test_listed_words_take_their_folders_default_language() -> None:
    store = make_store()
    german = store.create_folder(NewFolder(name="German", lang="de"))
    store.create_folder(NewFolder(name="Verbs", parent_id=german.id))
    data = b"folder,term,lang\nGerman/Verbs,gehen,\nGerman/Nouns,Haus,\nGerman,Hello,en\nOther,x,\n"
    store.import_parsed(parse("w.csv", data), "merge")
    langs = {w.term: w.lang for w in store.find_words("gehen") + store.find_words("Haus")}
    assert langs == {"gehen": "de", "Haus": "de"}
    assert store.find_words("Hello")[0].lang == "en"
    assert store.find_words("x")[0].lang == ""


def test_the_imports_language_becomes_the_new_folders_default() -> None:
    parsed = parse("w.csv", b"term,meaning\nHaus,house\n")
    assert parsed.source is not None
    assert parsed.choices is not None
    chosen = run_steps(build(parsed.source, ImportChoices(parsed.choices.tables, lang="de")))
    store = make_store()
    store.import_parsed(chosen, "merge")
    (folder,) = store.folders()
    assert (folder.name, folder.lang) == ("w", "de")


def test_a_backup_restores_its_words_languages_as_they_were() -> None:
    source = make_store()
    german = source.create_folder(NewFolder(name="German"))
    source.add_word(NewWord(folder_id=german.id, term="Haus"))
    source.update_folder(german.id, FolderPatch(lang="de"))
    store = make_store()
    store.import_parsed(parse("b.json", source.export("json")), "replace")
    assert store.find_words("Haus")[0].lang == ""
