"""The drill figures' helpers: the words a session is made of, and the cards at which its
memory is counted."""

from __future__ import annotations

import pytest

from app.drill.commands import parse
from bench.drill import bulk_lines, checkpoints, vocabulary


def test_every_word_has_its_own_answer_and_no_answer_is_a_command() -> None:
    words = vocabulary(200)
    assert len(words) == 200
    assert len(set(words.values())) == 200
    assert all(parse([meaning], "en") is None for meaning in words.values())


def test_the_words_are_pasted_one_a_line() -> None:
    assert bulk_lines(vocabulary(2)) == "palabra 1 - word 1\npalabra 2 - word 2"


def test_checkpoints_spread_evenly_from_the_first_card_to_the_last() -> None:
    assert checkpoints(3, 199, 10) == [3, 23, 42, 62, 81, 101, 121, 140, 160, 179, 199]
    assert checkpoints(0, 20, 4) == [0, 5, 10, 15, 20]


def test_fewer_cards_than_checkpoints_count_each_card_once() -> None:
    assert checkpoints(3, 4, 10) == [3, 4]


def test_checkpoints_need_two_cards() -> None:
    with pytest.raises(ValueError, match="at least two cards"):
        checkpoints(3, 3, 10)
