"""How bench/vad_choice.py turns a detector's frames into utterances and scores them against
the known places of the words (docs/decisions/030). The segmenter has the rules static/vad.js
applies: a frame at or above `positive` starts an utterance, frames at or above `negative` keep
it going, `silence_ms` without one ends it at its last speech frame, and one holding less than
`min_speech_ms` of frames at or above `positive` is a misfire.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.vad_recordings import BACKGROUND_ONLY_S, RATES, UTTERANCES, Track

WORDS = [text for text, _voice, _speed in UTTERANCES]


@dataclass(frozen=True)
class Rules:
    """The segmenter's settings (static/vad.js has the same ones)."""

    positive: float = 0.5  # a frame at or above this is speech
    negative: float = 0.35  # inside an utterance, a frame below this is silence
    min_speech_ms: float = 60.0  # less speech than this in an utterance: a misfire
    silence_ms: float = 800.0  # this much silence ends an utterance


def segments(probs: Sequence[float], hop: float, rules: Rules) -> list[tuple[float, float]]:
    """Utterances as (start of the first speech frame, end of the last), in seconds."""
    found: list[tuple[float, float]] = []
    start = last = None
    speech = 0.0
    for i, p in enumerate(probs):
        if start is None:
            if p >= rules.positive:
                start, last, speech = i * hop, (i + 1) * hop, hop
            continue
        assert last is not None
        if p >= rules.negative:
            last = (i + 1) * hop
            speech += hop if p >= rules.positive else 0.0
        elif i * hop - last >= rules.silence_ms / 1000:
            if speech * 1000 >= rules.min_speech_ms:
                found.append((start, last))
            start = None
    if start is not None and last is not None and speech * 1000 >= rules.min_speech_ms:
        found.append((start, last))
    return found


SLACK_S = 1.0  # a segment reaching further than this past its utterance is stuck on the noise


def overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


@dataclass
class Score:
    utterances: int = 0
    found: int = 0  # utterances some segment overlaps
    clean: int = 0  # ... by exactly one, which holds no other and ends within SLACK_S of it
    false: int = 0  # segments over no utterance
    extra: int = 0  # more than one segment over one utterance (a word cut in two)
    merged: int = 0  # one segment over several utterances
    missed: list[str] = field(default_factory=list)  # the words not found
    start_errors: list[float] = field(default_factory=list)  # seconds, + = late
    end_errors: list[float] = field(default_factory=list)  # seconds, + = late

    def add(
        self,
        truth: list[tuple[float, float]],
        found: list[tuple[float, float]],
        names: Sequence[str] = WORDS,
    ) -> None:
        """Score `found` against `truth` (the places of the words `names`, in order)."""
        self.utterances += len(truth)
        for segment in found:
            hits = sum(overlaps(segment, spoken) for spoken in truth)
            self.false += hits == 0
            self.merged += hits > 1
        for index, spoken in enumerate(truth):
            over = [segment for segment in found if overlaps(segment, spoken)]
            if not over:
                self.missed.append(names[index])
                continue
            self.found += 1
            self.extra += len(over) - 1
            self.start_errors.append(over[0][0] - spoken[0])
            self.end_errors.append(over[-1][1] - spoken[1])
            segment = over[0]
            self.clean += (
                len(over) == 1
                and sum(overlaps(segment, other) for other in truth) == 1
                and spoken[0] - segment[0] <= SLACK_S
                and segment[1] - spoken[1] <= SLACK_S
            )


def p90(values: list[float]) -> float:
    return sorted(values)[max(0, math.ceil(0.9 * len(values)) - 1)] if values else math.nan


def p10(values: list[float]) -> float:
    return sorted(values)[len(values) // 10] if values else math.nan


def busy(found: list[tuple[float, float]], seconds: float) -> float:
    """The share of `seconds` that segments cover."""
    return sum(min(end, seconds) - start for start, end in found) / seconds


def score(tracks: list[Track], frames: dict[str, dict[str, Any]], rules: Rules) -> dict[str, Any]:
    """The figures of one detector over every track."""
    per_condition: dict[str, Score] = {}
    per_rate: dict[int, Score] = {}
    overall = Score()
    backgrounds: dict[str, dict[str, float]] = {}
    cpu_ms = audio_s = 0.0
    for track in tracks:
        result = frames[track.name]
        cpu_ms += result["cpuMs"]
        audio_s += result["audioS"]
        found = segments(result["probs"], result["hopS"], rules)
        if not track.truth:
            seen = backgrounds.setdefault(track.condition, {"segments": 0, "busy": 0.0})
            seen["segments"] += len(found) / len(RATES)
            seen["busy"] += busy(found, track.seconds) / len(RATES)
            continue
        for scores in (
            per_condition.setdefault(track.condition, Score()),
            per_rate.setdefault(track.rate, Score()),
            overall,
        ):
            scores.add(track.truth, found)
    alone_s = BACKGROUND_ONLY_S * len(backgrounds)
    return {
        "recall": overall.found / overall.utterances,
        "clean": overall.clean / overall.utterances,
        "clean_by_rate": {rate: s.clean / s.utterances for rate, s in per_rate.items()},
        "false_in_speech": overall.false,
        "extra": overall.extra,
        "merged": overall.merged,
        "false_per_min_alone": sum(b["segments"] for b in backgrounds.values()) / (alone_s / 60),
        "busy_alone": sum(b["busy"] for b in backgrounds.values()) / len(backgrounds),
        "start_p50_ms": 1000 * statistics.median([abs(e) for e in overall.start_errors] or [0]),
        "start_p90_late_ms": 1000 * p90(overall.start_errors),
        "end_p50_ms": 1000 * statistics.median([abs(e) for e in overall.end_errors] or [0]),
        "end_p90_early_ms": -1000 * p10(overall.end_errors),
        "cpu_ms_per_100ms": cpu_ms / (audio_s * 10),
        "missed": sorted(set(overall.missed)),
        "conditions": {
            name: {"clean": s.clean, "found": s.found, "of": s.utterances, "false": s.false}
            for name, s in per_condition.items()
        },
        "backgrounds": backgrounds,
    }
