"""Speaking an answer while it streams (app.voice.chunks): whole sentences as soon as they are
complete, cleaned for the ear, the same whatever the pieces, within the word budget."""

from __future__ import annotations

import re
from itertools import pairwise

from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.voice.chunks import SentenceChunker
from app.voice.speakable import CODE_NOTE, WANT_MORE, speakable


def stream(deltas: list[str], budget: int = 75) -> tuple[list[str], str]:
    chunker = SentenceChunker(budget)
    said = [s for delta in deltas for s in chunker.feed(delta)]
    return said + chunker.flush(), chunker.rest


def test_sentences_come_out_as_soon_as_they_are_complete() -> None:
    chunker = SentenceChunker()
    assert chunker.feed("Hola is **hello**") == []
    assert chunker.feed(". It is used") == ["Hola is hello."]
    assert chunker.feed(" e.g. at noon. Adi") == ["It is used e.g. at noon."]
    assert chunker.feed("ós means bye!") == []
    assert chunker.feed("\n") == ["Adiós means bye!"]
    assert chunker.flush() == []
    assert chunker.rest == ""


def test_a_number_waits_for_the_next_character() -> None:
    chunker = SentenceChunker()
    assert chunker.feed("It costs 3.") == []
    assert chunker.feed("5 euros. Ok") == ["It costs 3.5 euros."]
    assert chunker.flush() == ["Ok."]


def test_code_and_tables_are_spoken_only_when_whole() -> None:
    chunker = SentenceChunker()
    assert chunker.feed("Try:\n```\nx = 1. y = 2.\n") == ["Try."]
    assert chunker.feed("```\n| es | en |\n|--|--|\n| perro | dog |\n") == [CODE_NOTE]
    assert chunker.feed("| gato | cat |\n\nThat") == ["perro: dog.", "gato: cat."]
    assert chunker.flush() == ["That."]


def test_a_line_that_may_open_a_table_or_code_waits_for_its_end() -> None:
    assert SentenceChunker().feed("| perro. It is") == []
    assert SentenceChunker().feed("```Note. Code") == []
    assert SentenceChunker().feed("~") == []


def test_lists_and_headings_become_sentences() -> None:
    said, rest = stream(["## Ani", "mals\n- **perro**: dog\n", "1. gato. Cute.\n    - nested"])
    assert (said, rest) == (["Animals.", "perro: dog.", "gato.", "Cute.", "nested."], "")


def test_speech_stops_at_the_budget_and_keeps_the_rest_for_more() -> None:
    said, rest = stream(["One two three. Four five six. ", "Seven eight.", " Nine ten."], budget=7)
    assert said == ["One two three.", "Four five six.", WANT_MORE]
    assert rest == "Seven eight. Nine ten."


def test_a_first_sentence_over_the_budget_is_cut() -> None:
    said, rest = stream(["one two three four five. Six seven."], budget=3)
    assert said == [f"one two three. {WANT_MORE}"]
    assert rest == "four five. Six seven."


def test_an_empty_or_silent_stream_says_nothing() -> None:
    assert stream([]) == ([], "")
    assert stream(["", "  \n\n", "🎉", "\n---\n"]) == ([], "")


PIECES = [*"*_`#|[]()<>!-~>\n .,:;?…", "e.g. ", "3.5", "Dr. ", "```\n", "| a | b |\n", "1. "]
anything = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=120).map("".join)


def split_into_deltas(text: str, cuts: list[int]) -> list[str]:
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in pairwise(points)]


@settings(max_examples=300, deadline=None)
@given(anything, st.lists(st.integers(0, 10_000), max_size=20), st.integers(1, 30))
@example("**e.g. \x1fe.g. **Dr. ", [8], 2)  # a space other than " " before a word
def test_any_split_into_deltas_says_the_same(text: str, cuts: list[int], budget: int) -> None:
    assert stream(split_into_deltas(text, cuts), budget) == stream([text], budget)


word = st.sampled_from(["perro", "dog", "Dr.", "e.g.", "3.5", "café", "niño", "go", "x"])
sentence = (
    st.lists(word, min_size=1, max_size=8)
    .map(" ".join)
    .flatmap(
        lambda s: st.sampled_from(
            [f"{s}.", f"{s}!", f"**{s}**.", f"`{s}`?", f"[{s}](https://a.b)."]
        )
    )
)
paragraph = st.lists(sentence, min_size=1, max_size=4).map(" ".join)
block = st.one_of(
    paragraph,
    paragraph.map(lambda p: f"## {p}"),
    st.lists(paragraph, min_size=1, max_size=3).map(lambda ps: "\n".join(f"- {p}" for p in ps)),
    st.lists(word, min_size=2, max_size=2).map(
        lambda w: f"| A | B |\n|---|---|\n| {w[0]} | {w[1]} |"
    ),
    paragraph.map(lambda p: f"```\n{p}\n```"),
    paragraph.map(lambda p: f"> {p}"),
)
markdown = st.lists(block, min_size=1, max_size=6).map("\n\n".join)
WORD = re.compile(r"\w+")


@settings(max_examples=200, deadline=None)
@given(markdown, st.lists(st.integers(0, 10_000), max_size=30), st.integers(1, 40))
def test_no_words_are_lost(text: str, cuts: list[int], budget: int) -> None:
    said, rest = stream(split_into_deltas(text, cuts), budget)
    spoken = " ".join(said).removesuffix(WANT_MORE) if rest else " ".join(said)
    assert WORD.findall(f"{spoken} {rest}") == WORD.findall(speakable(text))
    assert len(spoken.split()) <= budget
