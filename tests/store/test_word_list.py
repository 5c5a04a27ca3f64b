"""A folder's listing: filter by term or meaning ignoring case and accents, the three sorts,
pages, and where a word falls in the listing (the page a link to it must open)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import FolderId, WordId
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.store.word_list import SORTS, WordQuery
from app.study.model import CardState, Direction, Progress, Rating
from tests.store.helpers import make_store


def _folder(store: Store, name: str = "Spanish") -> FolderId:
    return store.create_folder(NewFolder(name=name)).id


def _add(store: Store, folder: FolderId, term: str, *meanings: str) -> WordId:
    return store.add_word(NewWord(folder_id=folder, term=term, meanings=list(meanings))).id


@pytest.fixture
def spanish(store: Store) -> FolderId:
    folder = _folder(store)
    for term, meanings in [
        ("perro", ["dog"]),
        ("Árbol", ["tree"]),
        ("café", ["coffee", "a café"]),
        ("gato", ["cat"]),
        ("cafetería", ["coffee shop"]),
        ("龍", ["dragon"]),
        ("恐龍", ["dinosaur"]),
    ]:
        _add(store, folder, term, *meanings)
    # Another folder's words are never listed here.
    _add(store, _folder(store, "Other"), "cafe", "not here")
    return folder


def _terms(
    store: Store, folder: FolderId, query: WordQuery, start: int = 0, limit: int = 50
) -> list[str]:
    return [w.term for w in store.word_page(folder, query, start, limit).words]


def test_the_filter_matches_terms_and_meanings_ignoring_case_and_accents(
    store: Store, spanish: FolderId
) -> None:
    assert _terms(store, spanish, WordQuery("CAFE")) == ["cafetería", "café"]
    assert _terms(store, spanish, WordQuery("arbol")) == ["Árbol"]
    assert _terms(store, spanish, WordQuery("coffee")) == ["cafetería", "café"]
    assert _terms(store, spanish, WordQuery("  Tree ")) == ["Árbol"]
    # Inside a word, not only at its start: a character finds the compounds it is part of.
    assert _terms(store, spanish, WordQuery("龍")) == ["恐龍", "龍"]
    assert _terms(store, spanish, WordQuery("nosaur")) == ["恐龍"]


def test_the_page_counts_what_the_filter_matches(store: Store, spanish: FolderId) -> None:
    page = store.word_page(spanish, WordQuery("caf"), 0, 1)
    assert [w.term for w in page.words] == ["cafetería"]
    assert page.matching == 2
    assert store.word_page(spanish, WordQuery(), 0, 1).matching == 7
    assert store.word_page(spanish, WordQuery("zebra"), 0, 10).matching == 0


@pytest.mark.parametrize(
    "hostile",
    ['"', "[", '", "', "\\", "%", "_", "'; DROP TABLE word; --", "NEAR(", "🧬" * 5_000, "\u0301"],
)
def test_hostile_filters_only_ever_find_less(store: Store, spanish: FolderId, hostile: str) -> None:
    """JSON punctuation between meanings or LIKE wildcards match nothing they should not."""
    page = store.word_page(spanish, WordQuery(hostile), 0, 50)
    assert page.matching == len(page.words)
    assert page.matching in (0, 7)  # nothing, or (for a filter that folds to nothing) all
    assert store.word_count(spanish) == 7


def test_sorts(store: Store) -> None:
    folder = _folder(store)
    ids = {term: _add(store, folder, term, "m") for term in ["b", "a", "d", "c"]}
    assert _terms(store, folder, WordQuery(sort="az")) == ["a", "b", "c", "d"]
    assert _terms(store, folder, WordQuery(sort="newest")) == ["c", "d", "a", "b"]
    # Due: studied words by their soonest card, then the words never studied, A–Z.
    for term, direction, due in [
        ("d", "forward", 300),
        ("c", "forward", 200),
        ("c", "reverse", 900),
    ]:
        _study(store, ids[term], direction, due)
    assert _terms(store, folder, WordQuery(sort="due")) == ["c", "d", "a", "b"]
    assert _terms(store, folder, WordQuery("c", sort="due")) == ["c"]


def _study(store: Store, word: WordId, direction: Direction, due: int) -> None:
    card = store.study.card((word, direction))
    progress = Progress(CardState.REVIEW, None, 3.0, 5.0, due, due - 1_000)
    store.study.grade(
        None,
        card,
        Rating.GOOD,
        progress,
        at=store.moment(0, due),
        duration_ms=1,
        mode="typing",
        next_card=None,
    )


def test_pages_follow_the_sort_and_filter(store: Store) -> None:
    folder = _folder(store)
    for i in range(25):
        _add(store, folder, f"w{i:02d}", "even" if i % 2 == 0 else "odd")
    evens = WordQuery("even")
    assert _terms(store, folder, evens, 0, 5) == ["w00", "w02", "w04", "w06", "w08"]
    assert _terms(store, folder, evens, 10, 5) == ["w20", "w22", "w24"]
    assert _terms(store, folder, evens, 20, 5) == []
    page = store.word_page(folder, WordQuery(sort="newest"), 5, 2)
    assert [w.term for w in page.words] == ["w19", "w18"]
    assert page.start == 5
    assert page.matching == 25


def test_where_a_word_falls_in_the_listing(store: Store, spanish: FolderId) -> None:
    dragon = store.find_words("龍")[0].id
    assert store.word_index(spanish, WordQuery(), dragon) == 6
    assert store.word_index(spanish, WordQuery("龍"), dragon) == 1
    assert store.word_index(spanish, WordQuery(sort="newest"), dragon) == 1
    assert store.word_index(spanish, WordQuery("coffee"), dragon) is None  # filtered out
    other = store.find_words("cafe")[0].id
    assert store.word_index(spanish, WordQuery(), other) is None  # in another folder


_LETTERS = st.sampled_from([*"abAÉé ", "龍"])


@settings(max_examples=25, deadline=None)
@given(
    terms=st.lists(st.text(_LETTERS, min_size=1, max_size=6), min_size=1, max_size=30),
    text=st.text(_LETTERS, max_size=2),
    sort=st.sampled_from(SORTS),
)
def test_every_listed_word_is_at_its_index(terms: list[str], text: str, sort: str) -> None:
    """Paging to a word by its index always lands on a page that shows it."""
    store = make_store()
    folder = _folder(store)
    unique = [t for t in dict.fromkeys(t.strip().casefold() for t in terms) if t]
    for i, term in enumerate(unique):  # every other word also means the filter text
        _add(store, folder, term, *([text] if i % 2 and text.strip() else []))
    query = WordQuery(text, sort)  # type: ignore[arg-type]
    listed = store.word_page(folder, query, 0, 100).words
    for index, word in enumerate(listed):
        assert store.word_index(folder, query, word.id) == index
        assert store.word_page(folder, query, index, 1).words == [word]
