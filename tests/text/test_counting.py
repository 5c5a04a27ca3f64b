"""Counts read right: singular for one, plural otherwise, thousands separated."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.text.counting import counted, counted_list, listed


def test_one_is_singular_and_everything_else_plural() -> None:
    assert counted(1, "folder") == "1 folder"
    assert counted(0, "folder") == "0 folders"
    assert counted(2, "word") == "2 words"
    assert counted(9_874, "word") == "9,874 words"
    assert counted(3, "card is", "cards are") == "3 cards are"
    assert counted(1, "card is", "cards are") == "1 card is"


def test_a_list_leaves_out_zeros_and_reads_as_a_phrase() -> None:
    assert counted_list((2, "folder"), (0, "word"), (1, "note")) == "2 folders and 1 note"
    assert counted_list((1, "folder"), (1_000, "word"), (3, "note")) == (
        "1 folder, 1,000 words and 3 notes"
    )
    assert counted_list((5, "card")) == "5 cards"
    assert counted_list((0, "card")) == ""


def test_listed_joins_like_a_sentence() -> None:
    assert listed([]) == ""
    assert listed(["a"]) == "a"
    assert listed(["a", "b"]) == "a and b"
    assert listed(["a", "b", "c"]) == "a, b and c"


@given(st.integers(min_value=0, max_value=10**9))
def test_any_count_has_separated_digits_and_agrees_in_number(n: int) -> None:
    text = counted(n, "word")
    digits, noun = text.split(" ")
    assert int(digits.replace(",", "")) == n
    assert all(len(group) == 3 for group in digits.split(",")[1:])
    assert noun == ("word" if n == 1 else "words")
