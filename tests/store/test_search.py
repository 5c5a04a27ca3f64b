"""Full-text search: prefix matching, ranking, snippets, paths and hostile queries."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import FolderPatch, NewFolder, NewNote, NewWord, WordPatch
from app.store import Store
from app.store.search import fts_query, parse_snippet
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
    assert folder_hit.kind == "folder" and folder_hit.path == ["Medicine", "Cardiology"]
    assert folder_hit.folder_id == folder_hit.id
    (note_hit,) = filled.search("revise")
    assert note_hit.kind == "note" and note_hit.path == ["Medicine"]


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
    assert "<" not in hit.snippet.text and "\x02" not in hit.snippet.text


def test_parse_snippet() -> None:
    snippet = parse_snippet("a \x02bc\x03 d \x02e\x03")
    assert snippet.text == "a bc d e" and snippet.marks == [(2, 4), (7, 8)]


def test_index_follows_edits_undo_and_redo(filled: Store) -> None:
    word = filled.search("valve")[0]
    filled.update_word(word.id, WordPatch(term="mitral"))  # type: ignore[arg-type]
    assert filled.search("valve") == [] and filled.search("mitral")
    folder = filled.find_folders("Cardiology")[0]
    filled.update_folder(folder.id, FolderPatch(name="Heart"))
    assert filled.search("mitral")[0].path == ["Medicine", "Heart"]
    filled.undo()
    filled.undo()
    assert filled.search("valve") and filled.search("mitral") == []
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
    assert "**" not in hit.snippet.text and "#" not in hit.snippet.text


def test_broad_queries_rank_title_matches_then_the_newest_others(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module("app.store.search"), "RANK_LIMIT", 1)
    hits = filled.search("heart")
    assert [h.title for h in hits] == ["heart", "valve", "Exam", "atrium"]
    assert [h.title for h in filled.search("heart", limit=2)] == ["heart", "valve"]
    assert [h.title for h in filled.search("heart upper")] == ["atrium"]
    assert hits[2].kind == "note" and hits[2].path == ["Medicine"]


def test_when_even_title_matches_are_too_many_they_come_newest_first(
    filled: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module("app.store.search"), "RANK_LIMIT", 0)
    assert [h.title for h in filled.search("c")] == ["café", "Cardiology", "atrium"]
