"""static/vad.js itself, as the app runs it, on Chromium's fake microphone (`python -m
bench.vad_choice --live`): each 48 kHz recording of bench/vad_recordings.py played once in real
time; what the module delivers, how late, whether a recording cuts its word's start, and what
it costs on which thread (docs/decisions/030).
"""

from __future__ import annotations

import statistics
from typing import Any

from playwright.sync_api import Playwright

from bench.vad_recordings import WORK_RATE, Track, log
from bench.vad_scoring import WORDS, Score, overlaps, p10, p90
from scripts import chromium

LIVE_FLAGS = (
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
)


def live_run(playwright: Playwright, base: str, track: Track) -> dict[str, Any]:
    """static/vad.js hearing `track`, played once by a Chromium of its own."""
    browser = playwright.chromium.launch(
        executable_path=chromium.executable(),
        args=[
            *chromium.FLAGS,
            *LIVE_FLAGS,
            f"--use-file-for-fake-audio-capture={track.path}%noloop",
        ],
    )
    errors: list[str] = []
    try:
        page = browser.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/vad_choice.html")
        page.wait_for_function("document.documentElement.dataset.ready === 'true'")
        result: dict[str, Any] = page.evaluate(
            "([seconds]) => vadChoice.live(seconds)", [track.seconds + 1.5]
        )
    finally:
        browser.close()
    if errors:
        raise SystemExit(f"vad_choice: errors in the page: {errors[:3]}")
    return result


def live(playwright: Playwright, base: str, tracks: list[Track]) -> dict[str, Any]:
    """The shipped module on every 48 kHz recording, in real time: what it delivers, how late,
    whether a recording cuts its word's start, and what it costs where."""
    overall, conditions, backgrounds = Score(), {}, {}
    latency, delivery, margins, onsets, cost, lags, loads = [], [], [], [], [], [], []
    messages = events = long_tasks = unheard = 0
    missed: list[str] = []
    noticed: list[str] = []  # the segments in the backgrounds alone, where they were
    for track in [t for t in tracks if t.rate == WORK_RATE]:
        log(f"live: {track.condition} ({track.seconds:.0f} s)")
        result = live_run(playwright, base, track)
        t0 = result["t0"]
        heard = sorted(result["utterances"], key=lambda u: u["info"]["start"])
        found = [(u["info"]["start"] - t0, u["info"]["end"] - t0) for u in heard]
        stats = result["stats"]
        cost.append(stats["inferenceMs"] / (stats["frames"] * 512 / 16_000 * 10))
        lags.append(stats["maxLagMs"])
        loads.append(result["loadMs"])
        messages += stats["messages"]
        events += len(result["starts"]) + len(heard) + len(result["misfires"]) + 3  # ready,
        # stopped, stats; the long tasks while listening (not while the page and module load)
        long_tasks += sum(start >= t0 for start, _ in result["longTasks"])
        if not track.truth:
            backgrounds[track.condition] = len(found)
            noticed += [f"{track.condition} {a:.1f}-{b:.1f} s" for a, b in found]
            continue
        # A word said before the module listened (a slow start) is not the detector's miss.
        kept = [i for i, s in enumerate(track.truth) if s[0] >= result["listening"] - t0]
        truth = [track.truth[i] for i in kept]
        unheard += len(track.truth) - len(truth)
        score = Score()
        score.add(truth, found, [WORDS[i] for i in kept])
        overall.add(truth, found, [WORDS[i] for i in kept])
        missed += [f"{word} ({track.condition})" for word in score.missed]
        conditions[track.condition] = f"{score.clean}/{score.utterances}" + (
            f" +{score.false}" if score.false else ""
        )
        for utterance in heard:
            latency.append(utterance["t"] - utterance["info"]["end"])
            delivery.append(utterance["now"] - utterance["t"])
            onsets.append(utterance["soundFrom"] if utterance["soundFrom"] is not None else 0.0)
            start = utterance["info"]["recordedFrom"] - t0
            spoken = [s for s in truth if overlaps(s, (start, utterance["info"]["end"] - t0))]
            if spoken:
                margins.append(spoken[0][0] - start)
    return {
        "clean": overall.clean / overall.utterances,
        "found": overall.found / overall.utterances,
        "false_in_speech": overall.false,
        "conditions": conditions,
        "missed": missed,
        "said_before_listening": unheard,
        "backgrounds": backgrounds,
        "noticed": noticed,
        "start_error_p50_ms": 1000 * statistics.median(overall.start_errors),
        "start_error_spread_ms": 1000 * (p90(overall.start_errors) - p10(overall.start_errors)),
        "decided_after_speech_p50_ms": 1000 * statistics.median(latency),
        "decided_after_speech_max_ms": 1000 * max(latency),
        "to_main_thread_max_ms": 1000 * max(delivery),
        "pre_roll_before_word_min_ms": 1000 * min(margins),
        "sound_from_min_ms": 1000 * min(onsets),
        "worker_ms_per_100ms": statistics.median(cost),
        "worker_max_lag_ms": max(lags),
        "load_ms": statistics.median(loads),
        "main_thread_messages": messages,
        "events": events,
        "long_tasks": long_tasks,
    }


def live_table(figures: dict[str, Any]) -> str:
    rows = [
        (
            "utterances delivered cleanly / found",
            f"{100 * figures['clean']:.0f}% / {100 * figures['found']:.0f}%",
        ),
        ("per recording", ", ".join(f"{k}: {v}" for k, v in figures["conditions"].items())),
        ("missed", ", ".join(figures["missed"]) or "nothing"),
        ("said before the module listened (left out)", str(figures["said_before_listening"])),
        (
            "segments with no one speaking",
            f"{figures['false_in_speech']} in the speech tracks; "
            + ", ".join(f"{k}: {v}" for k, v in figures["backgrounds"].items()),
        ),
        ("... alone, where", ", ".join(figures["noticed"]) or "nowhere"),
        (
            "start error (t0 = getUserMedia answered)",
            f"median {figures['start_error_p50_ms']:.0f}"
            f" ms, p10-p90 spread {figures['start_error_spread_ms']:.0f} ms",
        ),
        (
            "decided after the speech ended",
            f"median {figures['decided_after_speech_p50_ms']:.0f}"
            f" ms, max {figures['decided_after_speech_max_ms']:.0f} ms",
        ),
        ("decision to the page's callback", f"max {figures['to_main_thread_max_ms']:.0f} ms"),
        (
            "recording starts before the word",
            f"at least {figures['pre_roll_before_word_min_ms']:.0f}"
            f" ms (sound from at least {figures['sound_from_min_ms']:.0f} ms into it)",
        ),
        (
            "worker: model time per 100 ms",
            f"{figures['worker_ms_per_100ms']:.2f} ms, largest "
            f"queue {figures['worker_max_lag_ms']:.0f} ms",
        ),
        (
            "main thread",
            f"{figures['main_thread_messages']} messages for {figures['events']} "
            f"events, {figures['long_tasks']} long tasks",
        ),
        ("load (worker, model, first inference)", f"median {figures['load_ms']:.0f} ms"),
    ]
    return "\n".join(
        ["| static/vad.js, live | |", "| --- | --- |", *(f"| {a} | {b} |" for a, b in rows)]
    )
