"""Where sentences end (app.voice.sentences): stops, abbreviations, decimals, list markers and
text that is still streaming."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.voice.sentences import split_line, split_sentences


def whole(text: str) -> list[str]:
    return split_sentences(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello there. How are you?", ["Hello there.", "How are you?"]),
        ("Wow! Really?! Yes.", ["Wow!", "Really?!", "Yes."]),
        ("Use e.g. this. Then i.e. that.", ["Use e.g. this.", "Then i.e. that."]),
        ("Ask Dr. Smith and Mrs. Jones. Done", ["Ask Dr. Smith and Mrs. Jones.", "Done"]),
        ("It costs 3.5 euros. Cheap.", ["It costs 3.5 euros.", "Cheap."]),
        ("Wait…what? Hmm... okay.", ["Wait…what?", "Hmm...", "okay."]),
        (
            "J. K. Rowling wrote it. The U.S. Army too.",
            ["J. K. Rowling wrote it.", "The U.S. Army too."],
        ),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("First line\nSecond line", ["First line", "Second line"]),
        ("我很好。你呢？好的", ["我很好。", "你呢？", "好的"]),
        ("   ", []),
        ("The answer is 42. Next", ["The answer is 42.", "Next"]),
    ],
)
def test_sentences_end_where_a_reader_would_pause(text: str, expected: list[str]) -> None:
    assert whole(text) == expected


def test_a_number_at_the_start_of_a_line_is_a_list_marker_not_a_sentence() -> None:
    assert whole("1. Buy milk. Then rest.") == ["1. Buy milk.", "Then rest."]
    done, tail = split_line("2. Two", final=False, line_start=False)
    assert (done, tail) == (["2."], "Two")


def test_while_streaming_a_stop_at_the_very_end_is_not_yet_a_boundary() -> None:
    # "3." may become "3.5", "Dr." may be followed by a name: wait for the next character.
    assert split_line("It costs 3.", final=False) == ([], "It costs 3.")
    assert split_line("Hello. Wor", final=False) == (["Hello."], "Wor")
    assert split_line("Hello. ", final=False) == (["Hello."], "")
    assert split_line("Hello wor", final=False) == ([], "Hello wor")


@pytest.mark.parametrize("space", [" ", "\t", "\u00a0", "\u2003", "\x1f"])
def test_any_space_ends_the_word_before_a_stop_streamed_or_whole(space: str) -> None:
    line = f"Go.{space}e.g. this."
    assert split_line(line) == (["Go.", "e.g. this."], "")
    done, tail = split_line(line[:4], final=False)
    assert done + split_line(tail + line[4:], line_start=False)[0] == ["Go.", "e.g. this."]


# Mostly the characters that matter here, so the interesting cases come up often.
lines = st.text(st.sampled_from("ab1. !?…。\"')Dr") | st.characters(exclude_characters="\n"))


@given(lines, st.data())
def test_streaming_never_decides_differently_from_the_whole_line(
    line: str, data: st.DataObject
) -> None:
    cut = data.draw(st.integers(0, len(line)))
    done, tail = split_line(line[:cut], final=False)
    later, _ = split_line(tail + line[cut:], line_start=not done)
    assert done + later == split_line(line)[0]


@given(st.text(st.sampled_from("ab1. !?\n…。") | st.characters()))
@example("！0")  # a wide stop ends a sentence with no space after it: compare the characters
def test_no_text_is_lost(text: str) -> None:
    assert "".join("".join(whole(text)).split()) == "".join(text.split())
