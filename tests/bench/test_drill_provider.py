"""The figures of hands-free study through the provider: the learner's turns, the words, and
how the times and counts the page reports become figures."""

from __future__ import annotations

import pytest

from app.drill.commands import parse
from bench.drill_provider import (
    ANSWER,
    CHECK,
    COMMANDS,
    STOP,
    WORDS,
    grade_latency,
    not_once,
    per_100ms,
    plan,
)


def said(turns: list[str]) -> int:
    return sum(1 for turn in turns if turn != CHECK)


def test_the_full_session_says_two_hundred_utterances_and_answers_twenty_cards() -> None:
    turns = plan(20, 200, 10)
    assert said(turns) == 200
    assert turns.count(ANSWER) == 20
    assert turns.count(CHECK) == 10
    assert turns.count("pause") == turns.count("resume") == 10
    assert turns[-2:] == [ANSWER, STOP]


def test_memory_is_counted_while_paused_from_a_tenth_of_the_way_in_to_the_last_card() -> None:
    turns = plan(20, 200, 10)
    checks = [i for i, turn in enumerate(turns) if turn == CHECK]
    assert all(turns[i - 1] == "pause" and turns[i + 1] == "resume" for i in checks)
    at = [said(turns[:i]) for i in checks]
    assert 15 <= at[0] <= 25
    assert at[-1] >= 190
    assert ANSWER not in turns[checks[-1] :][:-2]  # only the last answer and stop follow


def test_each_card_is_answered_after_the_same_number_of_repeats_give_or_take_one() -> None:
    turns = [turn for turn in plan(20, 200, 10) if turn in ("repeat", ANSWER)]
    runs = " ".join(turns).split(ANSWER)[:-1]
    assert {run.count("repeat") for run in runs} == {7, 8}  # 159 repeats in all


def test_the_smoke_session_is_two_answers_two_pauses_and_stop() -> None:
    assert plan(2, 7, 2) == [
        ANSWER,
        *("pause", CHECK, "resume"),
        *("pause", CHECK, "resume"),
        ANSWER,
        STOP,
    ]


def test_a_plan_too_short_for_its_answers_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        plan(20, 40, 10)
    with pytest.raises(ValueError, match="cannot hold"):
        plan(2, 10, 1)


def test_the_words_are_twenty_one_different_answers_none_of_them_a_command() -> None:
    """Twenty cards are answered; the twenty-first word is left to ask when "stop" is said."""
    answers = list(WORDS.values())
    assert len(set(answers)) == len(answers) == 21
    assert all(parse([answer], "en") is None for answer in answers)
    assert all(parse([command], "en") is not None for command in COMMANDS)


def test_the_grade_latency_leaves_out_the_recognisers_own_time() -> None:
    assert grade_latency(1_000.0, 1_180.0, 0.05) == pytest.approx(130.0)


def test_main_thread_time_is_per_100_ms_of_audio_the_detector_classified() -> None:
    counters = [
        {"frames": 100.0, "mainMs": 2.0, "inferenceMs": 50.0},
        {"frames": 200.0, "mainMs": 3.6, "inferenceMs": 90.0},  # 3.2 s of audio, 1.6 ms
        {"frames": 200.0, "mainMs": 3.6, "inferenceMs": 90.0},  # nothing heard: no sample
        {"frames": 300.0, "mainMs": 4.0, "inferenceMs": 130.0},
    ]
    total, each = per_100ms(counters, "mainMs")
    assert total == pytest.approx(2.0 / 64)
    assert each == pytest.approx([0.05, 0.0125])
    assert per_100ms(counters, "inferenceMs")[0] == pytest.approx(80 / 64)


def test_the_detector_counters_need_two_readings() -> None:
    with pytest.raises(ValueError, match="two readings"):
        per_100ms([{"frames": 1.0, "mainMs": 0.0}], "mainMs")


def test_an_utterance_sent_twice_or_never_and_an_upload_nobody_said_all_count() -> None:
    assert not_once([1, 1, 1], 0) == 0
    assert not_once([1, 2, 0, 1], 0) == 2
    assert not_once([1, 1], 1) == 1
