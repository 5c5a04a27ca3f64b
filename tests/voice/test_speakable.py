"""Answers made for the ear (app.voice.speakable): no Markdown read aloud, tables and lists
turned into sentences, about 75 words at a time with "Want more?" and nothing lost."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.voice.speakable import CODE_NOTE, WANT_MORE, Spoken, more, speak, speakable


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("# Greetings\n\nSay **hola** and *adiós*.", "Greetings. Say hola and adiós."),
        ("Use `ser` here.", "Use ser here."),
        ("See [the guide](https://example.com/guide) today.", "See the guide today."),
        ("Docs at https://example.com/a_b?x=1 now.", "Docs at a link now."),
        ("Docs at <https://example.com>.", "Docs at a link."),
        ("![a red apple](apple.png)", "a red apple."),
        ("Some <b>bold</b> and <script>x()</script> text", "Some bold and x() text."),
        ("- perro\n- gato\n- ✅ pez", "perro. gato. pez."),
        ("1. Open the folder\n2. Add words:", "Open the folder. Add words."),
        ("> Quoted wisdom\n\nAfter", "Quoted wisdom. After."),
        ("- 🎉\n- 👍🏽\n\nDone!", "Done!"),
        ("Text\n\n---\n\nMore", "Text. More."),
        ("~~old~~ new", "old new."),
        ("line one\nline two", "line one. line two."),
        ("snake_case and __init__", "snake case and init."),
        ("Tag #vocab and ## stray, item #3", "Tag vocab and stray, item 3."),
        ("", ""),
    ],
)
def test_markdown_becomes_plain_sentences(markdown: str, expected: str) -> None:
    assert speakable(markdown) == expected


def test_table_rows_become_sentences() -> None:
    table = "| Spanish | English |\n|---|---|\n| perro | dog |\n| gato | cat, *feline* |"
    assert speakable(f"Words:\n\n{table}") == "Words. perro: dog. gato: cat, feline."


def test_a_number_sign_is_dropped_wherever_the_answer_is_cut() -> None:
    assert speak("First. #2 is next.", budget=1) == Spoken(f"First. {WANT_MORE}", "2 is next.")


def test_code_blocks_are_not_read_out() -> None:
    assert speakable("Run this:\n\n```python\nprint('*hi*')\n```\n\nThen stop.") == (
        f"Run this. {CODE_NOTE} Then stop."
    )


def test_short_answers_are_spoken_whole() -> None:
    assert speak("Done. I added **ten** words.") == Spoken("Done. I added ten words.", "")


def test_long_answers_stop_at_a_sentence_within_the_budget_and_offer_more() -> None:
    sentences = [f"Sentence {n} has exactly six words." for n in range(1, 21)]
    spoken = speak(" ".join(sentences), budget=20)
    assert spoken.text == f"{' '.join(sentences[:3])} {WANT_MORE}"
    following = more(spoken.rest, budget=20)
    assert following.text == f"{' '.join(sentences[3:6])} {WANT_MORE}"
    assert more(" ".join(sentences[18:]), budget=20) == Spoken(" ".join(sentences[18:]), "")


def test_one_long_sentence_is_cut_at_a_comma_or_else_between_words() -> None:
    clause = "one two three four five six, seven eight nine ten"
    assert speak(clause, budget=8) == Spoken(
        f"one two three four five six. {WANT_MORE}", "seven eight nine ten."
    )
    assert speak("a b c d e f g h", budget=3) == Spoken(f"a b c. {WANT_MORE}", "d e f g h.")


def test_the_offer_can_be_said_in_the_users_language() -> None:
    assert (
        speak("Uno. Dos. Tres.", budget=2, offer="¿Quieres más?").text == "Uno. Dos. ¿Quieres más?"
    )


MARKDOWN_SYNTAX = re.compile(r"[*`|]|(?:^|\n)\s*#|\]\(|</?[A-Za-z][^>]*>|_\w+_|\[|\]")
WORD = re.compile(r"\w+")

PIECES = [*"*_`#|[]()<>!-~>\n .,:;", "http://a.b/c ", "```\n", "| x |\n", "**", "word", "1. "]
markdownish = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=200).map("".join)


def spoken_words(spoken: Spoken) -> list[str]:
    text = spoken.text.removesuffix(WANT_MORE) if spoken.rest else spoken.text
    return WORD.findall(text)


@settings(max_examples=300, deadline=None)
@given(markdownish, st.integers(1, 100))
@example("0_#0", 1)  # the cut left "#0." at the start of the rest
def test_spoken_text_never_contains_markdown_and_keeps_to_the_budget(
    source: str, budget: int
) -> None:
    spoken = speak(source, budget=budget)
    assert not MARKDOWN_SYNTAX.search(spoken.text), spoken.text
    assert not MARKDOWN_SYNTAX.search(spoken.rest), spoken.rest
    assert len(spoken.text.split()) <= budget + len(WANT_MORE.split())
    assert spoken.text.endswith(WANT_MORE) == bool(spoken.rest)


@settings(max_examples=200, deadline=None)
@given(markdownish, st.integers(1, 40))
def test_spoken_and_rest_lose_no_words(source: str, budget: int) -> None:
    plain = speakable(source)
    heard: list[str] = []
    spoken = speak(source, budget=budget)
    heard += spoken_words(spoken)
    while spoken.rest:
        spoken = more(spoken.rest, budget=budget)
        heard += spoken_words(spoken)
    assert heard == WORD.findall(plain)


def test_huge_input_is_handled() -> None:
    spoken = speak("word " * 200_000)
    assert len(spoken.text.split()) == 75 + len(WANT_MORE.split())
