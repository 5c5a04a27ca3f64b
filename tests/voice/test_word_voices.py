"""Collection words said in their own language inside a spoken sentence (app.voice.word_voices):
whole words, folded, longest first, punctuation with its word, nothing lost or reordered."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.voice.word_voices import WordVoices

WORDS = {
    "perro": "es",
    "buenos días": "es-ES",
    "días": "es",
    "chat": "fr",
    "Hund": "de",
    "dog": "en",
    "猫": "ja",
    "사과": "ko",
}


def split(
    sentence: str, words: dict[str, str] = WORDS, default: str = "en-US"
) -> list[tuple[str, str]]:
    return WordVoices(words, default).split(sentence)


@pytest.mark.parametrize(
    ("sentence", "pieces"),
    [
        ("Perro means dog.", [("Perro", "es"), (" means dog.", "en-US")]),
        ("I said perro.", [("I said ", "en-US"), ("perro.", "es")]),
        (
            "Say PERRO and Hund!",
            [("Say ", "en-US"), ("PERRO", "es"), (" and ", "en-US"), ("Hund!", "de")],
        ),
        ("Say «perro», please.", [("Say ", "en-US"), ("«perro»,", "es"), (" please.", "en-US")]),
        ("Buenos Días to you.", [("Buenos Días", "es-ES"), (" to you.", "en-US")]),
        ("Dias and días.", [("Dias", "es"), (" and ", "en-US"), ("días.", "es")]),
        ("perro, perro!", [("perro, perro!", "es")]),
        ("perro Hund", [("perro ", "es"), ("Hund", "de")]),
        ("perros and superperro", [("perros and superperro", "en-US")]),
        ("chatting about chat", [("chatting about ", "en-US"), ("chat", "fr")]),
        ("Write 猫です.", [("Write ", "en-US"), ("猫", "ja"), ("です.", "en-US")]),
        ("사과를 먹어요", [("사과", "ko"), ("를 먹어요", "en-US")]),
        ("My dog sleeps.", [("My dog sleeps.", "en-US")]),
        ("— perro", [("— perro", "es")]),
        ("Cafe\u0301 perro", [("Cafe\u0301 ", "en-US"), ("perro", "es")]),
        ("", []),
    ],
)
def test_collection_words_get_their_own_language(
    sentence: str, pieces: list[tuple[str, str]]
) -> None:
    assert split(sentence) == pieces


def test_a_word_in_the_speech_language_is_not_split_off() -> None:
    assert split("Hund und Katze.", default="de-DE") == [("Hund und Katze.", "de-DE")]
    assert split("Say perro.", {"perro": "es-MX"}, "es-ES") == [("Say perro.", "es-ES")]


def test_a_word_of_the_speech_language_wins_over_a_shorter_foreign_word_inside_it() -> None:
    words = {"hot dog": "en", "dog": "fr"}
    assert split("A hot dog, a dog.", words) == [("A hot dog, a ", "en-US"), ("dog.", "fr")]


def test_a_term_listed_twice_keeps_its_first_language() -> None:
    assert split("Pan.", {"pan": "es", "PAN": "fr"}) == [("Pan.", "es")]


def test_a_fold_that_splits_a_character_does_not_match_half_of_it() -> None:
    assert split("Straße", {"s": "de"}) == [("Straße", "en-US")]


def test_empty_and_symbol_terms_are_ignored() -> None:
    assert split("a * b", {"": "es", " ": "es", "*": "es"}) == [("a * b", "en-US")]


def test_two_hundred_terms_are_all_found() -> None:
    words = {f"palabra{n} número{n}": "es" for n in range(200)}
    sentence = " ".join(f"I said palabra{n} numero{n}, twice." for n in range(0, 200, 20))
    pieces = WordVoices(words, "en").split(sentence)
    assert [text for text, lang in pieces if lang == "es"] == [
        f"palabra{n} numero{n}," for n in range(0, 200, 20)
    ]


TERMS = st.sampled_from([*WORDS, "Perro", "DÍAS", "buenos"])
FILLER = st.sampled_from(
    [" ", ", ", ". ", "«", "»", "¿", "?", "-", "x", "the ", "perros", "\u0301"]
)
sentences = st.lists(TERMS | FILLER | st.characters(), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(sentences, st.sampled_from(["en", "es", "fr-CA", "ja", ""]))
@example("¿perro?chat", "en")
@example("ß猫", "en")
def test_pieces_join_back_to_the_sentence_and_alternate_languages(
    sentence: str, default: str
) -> None:
    pieces = split(sentence, default=default)
    assert "".join(text for text, _ in pieces) == sentence
    assert all(text for text, _ in pieces)
    assert all(a[1] != b[1] for a, b in pairwise(pieces))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["perro", "Hund", "猫", "dog", "and", "the", "cat"]),
        min_size=1,
        max_size=12,
    )
)
def test_every_foreign_word_is_said_in_its_language(words: list[str]) -> None:
    pieces = split(" ".join(words) + ".")
    said = [(word, lang) for text, lang in pieces for word in text.strip(" .").split()]
    assert said == [
        (word, "en-US" if word == "dog" else WORDS.get(word, "en-US")) for word in words
    ]
