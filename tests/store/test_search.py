"""Full-text search: prefix matching, ranking, snippets, paths and hostile queries."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.inputs import FolderPatch, NewFolder, NewNote, NewWord, WordPatch
from app.store import Store
from app.store.search import fold, fts_query, parse_snippet
from tests.store.helpers import assert_index_in_sync, make_store


@pytest.fixture
def filled(store: Store) -> Store:
    med = store.create_folder(NewFolder(name="Medicine"))
    cardio = store.create_folder(NewFolder(name="Cardiology", parent_id=med.id))
    store.add_word(NewWord(folder_id=cardio.id, term="atrium", meanings=["upper heart chamber"]))
    store.add_word(NewWord(folder_id=cardio.id, term="heart", meanings=["pumps blood"]))
    store.add_word(NewWord(folder_id=cardio.id, term="valve", notes="the heart has four"))
    store.add_word(NewWord(folder_id=cardio.id, term="café", meanings=["coffee"]))
    store.add_note(NewNote(folder_id=med.id, title="Exam", body="Revise the heart"))
    return store


def test_prefix_search_finds_words_with_path(filled: Store) -> None:
    hits = filled.search("atr")
    assert [(h.kind, h.title, h.path) for h in hits] == [
        ("word", "atrium", ["Medicine", "Cardiology"])
    ]


def test_term_matches_rank_above_meanings_and_notes(filled: Store) -> None:
    hits = filled.search("heart")
    assert hits[0].title == "heart"
    assert {h.title for h in hits} == {"heart", "atrium", "valve", "Exam"}


def test_folders_and_notes_are_found(filled: Store) -> None:
    (folder_hit,) = filled.search("cardio")
    assert folder_hit.kind == "folder"
    assert folder_hit.path == ["Medicine", "Cardiology"]
    assert folder_hit.folder_id == folder_hit.id
    (note_hit,) = filled.search("revise")
    assert note_hit.kind == "note"
    assert note_hit.path == ["Medicine"]


def test_diacritics_and_case_are_ignored(filled: Store) -> None:
    assert [h.title for h in filled.search("CAFE")] == ["café"]
    assert [h.title for h in filled.search("cafe\u0301")] == ["café"]


def test_every_token_must_match(filled: Store) -> None:
    assert [h.title for h in filled.search("upper cham")] == ["atrium"]
    assert filled.search("upper coffee") == []


def test_snippet_is_plain_text_with_marks(filled: Store) -> None:
    hit = filled.search("pumps")[0]
    start, end = hit.snippet.marks[0]
    assert hit.snippet.text[start:end] == "pumps"
    assert "<" not in hit.snippet.text
    assert "\x02" not in hit.snippet.text


def test_parse_snippet() -> None:
    snippet = parse_snippet("a \x02bc\x03 d \x02e\x03")
    assert snippet.text == "a bc d e"
    assert snippet.marks == [(2, 4), (7, 8)]


def test_index_follows_edits_undo_and_redo(filled: Store) -> None:
    word = filled.search("valve")[0]
    filled.update_word(word.id, WordPatch(term="mitral"))  # type: ignore[arg-type]
    assert filled.search("valve") == []
    assert filled.search("mitral")
    folder = filled.find_folders("Cardiology")[0]
    filled.update_folder(folder.id, FolderPatch(name="Heart"))
    assert filled.search("mitral")[0].path == ["Medicine", "Heart"]
    filled.undo()
    filled.undo()
    assert filled.search("valve")
    assert filled.search("mitral") == []
    filled.redo()  # the rename of the word comes back, the folder keeps its old name
    assert filled.search("mitral")[0].path == ["Medicine", "Cardiology"]
    assert_index_in_sync(filled)


@pytest.mark.parametrize(
    "query",
    ['"', "*", "AND", "OR NOT", "NEAR(", "-", ")", "(", "^", "a:b", "🧠🫀", "", "   ", "x" * 10_000,
     "\x00", "\ud800", "e\u0301\u0301", "\u0301", "title:heart", "'; DROP TABLE word; --"],
)  # fmt: skip
def test_hostile_queries_never_raise(filled: Store, query: str) -> None:
    assert isinstance(filled.search(query), list)


def test_query_is_quoted_and_prefixed() -> None:
    assert fts_query('he"art AND') == '"he"* "art"* "AND"*'
    assert fts_query("🙂 -- **") is None


def test_limit(filled: Store) -> None:
    assert len(filled.search("heart", limit=2)) == 2
    assert filled.search("heart", limit=0) == []


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=60))
def test_any_query_is_safe(query: str) -> None:
    store = make_store()
    folder = store.create_folder(NewFolder(name="f"))
    store.add_word(NewWord(folder_id=folder.id, term="word", meanings=["meaning"]))
    assert isinstance(store.search(query), list)


def test_note_snippets_are_plain_text_not_markdown(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="Exams"))
    store.add_note(
        NewNote(folder_id=folder.id, title="Plan", body="## Week one\n\n**Revise** the [heart](x)")
    )
    (hit,) = store.search("revise")
    assert hit.snippet.text == "Week one\nRevise the heart"
    assert "**" not in hit.snippet.text
    assert "#" not in hit.snippet.text


def test_a_tier_with_too_many_matches_lists_them_newest_first(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module("app.store.search"), "RANK_LIMIT", 1)
    hits = filled.search("heart")
    # heart (term), atrium (meaning), then the notes tier of two, newest first: valve, Exam.
    assert [h.title for h in hits] == ["heart", "atrium", "valve", "Exam"]
    assert [h.title for h in filled.search("heart", limit=2)] == ["heart", "atrium"]
    assert [h.title for h in filled.search("heart upper")] == ["atrium"]
    assert hits[3].kind == "note"
    assert hits[3].path == ["Medicine"]


def test_when_even_title_matches_are_too_many_they_come_newest_first(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module("app.store.search"), "RANK_LIMIT", 0)
    assert [h.title for h in filled.search("c")] == ["café", "Cardiology", "atrium"]


# --- ranking like a dictionary ----------------------------------------------------------------


@pytest.fixture
def deck(store: Store) -> Store:
    german = store.create_folder(NewFolder(name="Deutsch"))
    store.create_folder(NewFolder(name="Panorama", parent_id=german.id))
    terms = [
        "Pandemie", "Corona-Pandemie", "Pantomime", "pan", "Panik", "abholen", "auf und ab",
        "ab und zu", "Abend", "ab", "das Café", "Cafeteria", "Café",
    ]  # fmt: skip
    for term in terms:
        store.add_word(NewWord(folder_id=german.id, term=term))
    store.add_word(NewWord(folder_id=german.id, term="Brot", meanings=["bread", "pan (es)"]))
    store.add_word(NewWord(folder_id=german.id, term="Topf", notes="Not a pan."))
    store.add_note(NewNote(folder_id=german.id, title="Kochen", body="Die pan ist heiß."))
    return store


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # exact, then prefixes (shorter first, a folder title counts as a term), then a word
        # inside a term, then meanings, then notes of words and notes
        ("pan", ["pan", "Panik", "Pandemie", "Panorama", "Pantomime", "Corona-Pandemie", "Brot",
                 "Topf", "Kochen"]),
        ("ab", ["ab", "Abend", "abholen", "ab und zu", "auf und ab"]),
        ("AB", ["ab", "Abend", "abholen", "ab und zu", "auf und ab"]),
        ("und", ["ab und zu", "auf und ab"]),
        ("ab und zu", ["ab und zu"]),
        ("corona pandemie", ["Corona-Pandemie"]),
        ("pandemie", ["Pandemie", "Corona-Pandemie"]),
        ("cafe", ["Café", "Cafeteria", "das Café"]),
        ("CAFÉ", ["Café", "Cafeteria", "das Café"]),
        ("bread", ["Brot"]),
    ],
)  # fmt: skip
def test_ranking_order(deck: Store, query: str, expected: list[str]) -> None:
    assert [h.title for h in deck.search(query)] == expected


def test_the_exact_term_comes_first_however_many_terms_start_with_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = store.create_folder(NewFolder(name="Deutsch"))
    store.add_word(NewWord(folder_id=folder.id, term="Ab"))
    for n in range(30):
        store.add_word(NewWord(folder_id=folder.id, term=f"ab{n:02}"))
        store.add_word(NewWord(folder_id=folder.id, term=f"ab {n:02}"))
    search_module = importlib.import_module("app.store.search")
    # 61 terms start with "ab", 31 with the word "ab": none, then the first, then both too many
    for rank_limit in (70, 40, 20, 0):
        monkeypatch.setattr(search_module, "RANK_LIMIT", rank_limit)
        assert store.search("ab", limit=3)[0].title == "Ab"


def test_ties_keep_a_stable_order(store: Store) -> None:
    folder = store.create_folder(NewFolder(name="f"))
    for term in ("pane", "pana", "panb"):
        store.add_word(NewWord(folder_id=folder.id, term=term))
    assert [h.title for h in store.search("pan")] == ["pana", "panb", "pane"]


_LETTERS = st.sampled_from(["a", "á", "A", "Á", "b", "B", "e", "é", "ß", " ", "-"])
_TERMS = st.text(_LETTERS, min_size=1, max_size=6).filter(lambda t: bool(t.strip()))


@settings(max_examples=60, deadline=None)
@given(st.lists(_TERMS, min_size=1, max_size=12), st.data())
def test_an_exact_match_is_always_first(terms: list[str], data: st.DataObject) -> None:
    store = make_store()
    folder = store.create_folder(NewFolder(name="f"))
    added: dict[str, str] = {}
    for n, term in enumerate(terms):
        if term.strip().casefold() not in added:
            added[term.strip().casefold()] = term
            # Meanings and notes made of the same letters compete with the terms.
            new = NewWord(folder_id=folder.id, term=term, meanings=[terms[n - 1]], notes=term)
            store.add_word(new)
    target = data.draw(st.sampled_from(terms))
    query = data.draw(st.sampled_from([target, target.upper(), fold(target), target.lower()]))
    hits = store.search(query)
    if any(fold(term) == fold(query) != "" for term in added.values()):
        assert fold(hits[0].title) == fold(query)


def test_fold() -> None:
    assert fold("  Café-Olé ") == "cafe ole"
    assert fold("Straße") == "straße"  # as the index folds it: "strasse" is another word
    assert fold("cafe\u0301") == fold("CAFÉ") == "cafe"
    assert fold("中文 词") == "中文 词"
    assert fold("--") == ""
