"""The voice activity detector comparison's segmenter and scoring (bench/vad_scoring.py): the
same rules for every detector, and the figures decision 030 quotes."""

from __future__ import annotations

from bench.vad_scoring import Rules, Score, segments

HOP = 0.125  # exact in binary, so the times compare exactly
RULES = Rules(positive=0.5, negative=0.35, min_speech_ms=250, silence_ms=375)


def test_an_utterance_runs_from_its_first_to_its_last_speech_frame() -> None:
    probs = [0, 0, 0.9, 0.9, 0.4, 0.9, 0, 0, 0, 0, 0]
    assert segments(probs, HOP, RULES) == [(0.25, 0.75)]


def test_silence_shorter_than_the_rule_does_not_end_it() -> None:
    probs = [0.9, 0.9, 0, 0, 0.9, 0, 0, 0, 0]
    assert segments(probs, HOP, RULES) == [(0.0, 0.625)]


def test_too_little_speech_is_a_misfire_not_an_utterance() -> None:
    assert segments([0, 0.9, 0, 0, 0, 0, 0], HOP, RULES) == []


def test_an_utterance_still_open_at_the_end_counts() -> None:
    assert segments([0, 0.9, 0.9, 0.9], HOP, RULES) == [(0.125, 0.5)]


def test_clean_means_one_segment_for_one_utterance_close_to_it() -> None:
    truth = [(1.0, 1.5), (4.0, 4.4), (8.0, 8.3), (12.0, 12.5)]
    found = [(0.95, 1.45), (3.9, 8.2), (13.5, 14.0), (11.9, 13.7)]
    score = Score()
    score.add(truth, found)
    assert (score.found, score.clean, score.false, score.merged) == (4, 1, 1, 1)
    assert score.missed == []
    assert round(score.start_errors[0], 2) == -0.05
