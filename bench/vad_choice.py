"""Which voice activity detector hands-free study uses: every candidate, run in Debian Chromium
on the same recordings, scored on what the drill needs (docs/decisions/030, issue 24).

    .venv/bin/python -m bench.vad_choice            # a few minutes; prints the tables
    .venv/bin/python -m bench.vad_choice --json out.json

Not part of `make bench`: it measures a choice between npm packages once (rerun it when a
candidate or the recordings change), where `make bench` measures the app on every change. The
candidates are fetched with `npm pack` at pinned versions into .cache/vad-choice/ (never into
the repository or static/), the recordings are made with espeak-ng and sox in the same folder.

The recordings: a dozen short commands and answers ("apple", "the hospital", "skip", "I don't
know", ...) in several espeak-ng voices and speeds, each at a known place, 1-4 s apart, with
nothing behind them, with brown or pink noise at 20 and 10 dB SNR, with synthesised
instrumental music (plucked chords, a melody, hi-hats) at 20 and 10 dB, and in a reverberant
room with pink noise at 15 dB; and the noises and the music alone. Each at 16 and 48 kHz.

bench/vad_choice.js classifies every frame in the page; here the frames go through one
segmenter, the same for every detector and the same rules static/vad.js applies (an utterance
starts on a speech frame, counts only if it holds `min_speech_ms` of speech, and ends after
`silence_ms` without speech), and are scored against the known places: utterances found
(recall), utterances where there was none (in the speech tracks, and per minute of noise or
music alone), start and end errors, the detector's time per 100 ms of audio on the thread that
ran it, what it costs to ship (bytes, and gzipped) and to load.
"""

from __future__ import annotations

import argparse
import array
import contextlib
import functools
import gzip
import hashlib
import http.server
import json
import math
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import threading
import wave
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from scripts import chromium
from scripts.serve import ROOT, Handler

CACHE = ROOT / ".cache" / "vad-choice"
HERE = Path(__file__).parent
PAGE_FILES = ("vad_choice.html", "vad_choice.js")
# name -> (version, the folder of the package served as pkg/<key>/)
PACKAGES = {
    "vad-web": ("@ricky0123/vad-web", "0.0.31", "package/dist"),
    "ort": ("onnxruntime-web", "1.30.0", "package/dist"),
    "fvad": ("@echogarden/fvad-wasm", "0.2.0", "package"),
    "hark": ("hark", "1.2.3", "package"),
}
# What each detector would ship, relative to pkg/: for Silero, onnxruntime-web's smallest
# backend (wasm only) and the model; the few lines that run it (vad-web's models/silero.js, or
# ours) are left out, as is the code that turns frames into utterances for every detector.
SHIPPED = {
    "silero": [
        "ort/ort.wasm.min.mjs",
        "ort/ort-wasm-simd-threaded.mjs",
        "ort/ort-wasm-simd-threaded.wasm",
    ],
    "fvad": ["fvad/fvad.js", "fvad/fvad.wasm"],
    "hark": ["hark/hark.bundle.js"],
}
MODEL_FILES = {v: f"vad-web/silero_vad_{v}.onnx" for v in ("legacy", "v5", "v6")}
DETECTORS = [
    ("hark", "-50"),  # hark's default threshold
    ("hark", "-35"),
    *[("fvad", f"{mode}/30") for mode in (0, 1, 2, 3)],
    ("fvad", "3/10"),
    ("silero", "legacy"),
    ("silero", "v5"),
    ("silero", "v6"),
]
RATES = (16_000, 48_000)
UTTERANCES = [
    ("apple", "en-us", 175),
    ("the hospital", "en-gb+f3", 160),
    ("skip", "en-us+m3", 180),
    ("I don't know", "en-us+f2", 170),
    ("repeat", "en-gb", 175),
    ("yes", "en-us+f4", 150),
    ("what does it mean", "en-gb+m2", 185),
    ("slower", "en-us", 160),
    ("cardiology", "en-gb+f3", 170),
    ("no", "en-us+m3", 165),
    ("good", "en-us+f2", 175),
    ("stop", "en-gb", 190),
]
SPEECH_DB = -20.0  # each utterance's RMS, dBFS, give or take LEVEL_SPREAD_DB
LEVEL_SPREAD_DB = 3.0
GAP_S = (1.0, 4.0)
LEAD_S, TAIL_S = 1.5, 2.0
BACKGROUND_ONLY_S = 45.0
WORK_RATE = 48_000
# name -> (background, SNR in dB, reverberant room)
CONDITIONS: dict[str, tuple[str | None, float, bool]] = {
    "silence": (None, 0.0, False),
    "brown 20 dB": ("brown", 20.0, False),
    "brown 10 dB": ("brown", 10.0, False),
    "pink 20 dB": ("pink", 20.0, False),
    "pink 10 dB": ("pink", 10.0, False),
    "music 20 dB": ("music", 20.0, False),
    "music 10 dB": ("music", 10.0, False),
    "room + pink 15 dB": ("pink", 15.0, True),
}
# Backgrounds alone, at the level they have in the speech tracks at this SNR.
BACKGROUNDS = {
    "brown alone": ("brown", 10.0),
    "pink alone": ("pink", 10.0),
    "music alone": ("music", 10.0),
    "quiet music alone": ("music", 20.0),
}


def log(message: str) -> None:
    print(f"vad_choice: {message}", file=sys.stderr, flush=True)


def run(*command: str | Path) -> str:
    done = subprocess.run([str(c) for c in command], check=True, capture_output=True, text=True)
    return done.stdout + done.stderr


# --- the candidates -------------------------------------------------------------------------


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_packages(folder: Path) -> dict[str, dict[str, str]]:
    """`npm pack` each candidate at its pinned version and unpack it under folder/pkg/<key>;
    returns what was fetched (name, version, sha256 of the tarball)."""
    tarballs, site = folder / "tarballs", folder / "site" / "pkg"
    tarballs.mkdir(parents=True, exist_ok=True)
    fetched = {}
    for key, (name, version, inner) in PACKAGES.items():
        tarball = tarballs / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
        if not tarball.exists():
            log(f"npm pack {name}@{version}")
            run("npm", "pack", f"{name}@{version}", "--pack-destination", tarballs, "--silent")
        target = site / key
        if not target.exists():
            with tarfile.open(tarball) as archive:
                archive.extractall(folder / "unpacked" / key, filter="data")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(folder / "unpacked" / key / inner, target_is_directory=True)
        fetched[key] = {"name": name, "version": version, "sha256": sha256(tarball)}
    return fetched


def shipped_bytes(site: Path, kind: str, variant: str) -> tuple[int, int]:
    """Bytes of the files the detector needs, as they are and gzipped (level 9)."""
    files = [*SHIPPED[kind], *([MODEL_FILES[variant]] if kind == "silero" else [])]
    raw = packed = 0
    for name in files:
        data = (site / "pkg" / name).read_bytes()
        raw += len(data)
        packed += len(gzip.compress(data, 9))
    return raw, packed


# --- the recordings -------------------------------------------------------------------------


@dataclass
class Track:
    name: str
    condition: str
    rate: int
    path: Path
    seconds: float
    truth: list[tuple[float, float]] = field(default_factory=list)  # speech, in seconds


def read_pcm(path: Path) -> array.array[int]:
    with wave.open(str(path)) as source:
        if (source.getsampwidth(), source.getnchannels()) != (2, 1):
            raise ValueError(f"{path} is not 16-bit mono")
        samples = array.array("h")
        samples.frombytes(source.readframes(source.getnframes()))
    return samples


def write_pcm(path: Path, samples: array.array[int], rate: int) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.tobytes())


def rms(path: Path) -> float:
    """RMS amplitude of a WAV file, full scale = 1 (sox's stat)."""
    for line in run("sox", path, "-n", "stat").splitlines():
        if line.startswith("RMS     amplitude"):
            return float(line.split(":")[1])
    raise RuntimeError(f"sox stat gave no RMS for {path}")


def utterance(folder: Path, index: int, said_as: tuple[str, str, int], gain_db: float) -> Path:
    """One utterance said by espeak-ng, at WORK_RATE, silence trimmed off both ends (so its
    length is where the speech is), at `gain_db` dBFS RMS."""
    text, voice, speed = said_as
    said, trimmed, out = (folder / f"u{index}-{n}.wav" for n in ("said", "trimmed", "final"))
    run("espeak-ng", "-v", voice, "-s", str(speed), "-w", said, text)
    trim = ("silence", "1", "0.005", "-50d")
    run(
        "sox",
        said,
        "-r",
        WORK_RATE,
        "-c",
        "1",
        "-b",
        "16",
        trimmed,
        *trim,
        "reverse",
        *trim,
        "reverse",
    )
    level = 20 * math.log10(rms(trimmed))
    run("sox", trimmed, out, "gain", f"{gain_db - level:.2f}")
    return out


def speech_track(folder: Path, seed: int) -> tuple[Path, list[tuple[float, float]], Path]:
    """The utterances laid out with random gaps; the track, where each utterance is, and a
    file of the utterances alone (for their level)."""
    rng = random.Random(seed)
    clips = [
        utterance(folder, i, said_as, SPEECH_DB + rng.uniform(-1, 1) * LEVEL_SPREAD_DB)
        for i, said_as in enumerate(UTTERANCES)
    ]
    pieces, truth, at = [read_pcm(clip) for clip in clips], [], LEAD_S
    starts = []
    for piece in pieces:
        starts.append(round(at * WORK_RATE))
        truth.append((starts[-1] / WORK_RATE, (starts[-1] + len(piece)) / WORK_RATE))
        at = truth[-1][1] + rng.uniform(*GAP_S)
    total = round((truth[-1][1] + TAIL_S) * WORK_RATE)
    track = array.array("h", bytes(2 * total))
    for start, piece in zip(starts, pieces, strict=True):
        track[start : start + len(piece)] = piece
    path, speech_only = folder / "speech.wav", folder / "speech-only.wav"
    write_pcm(path, track, WORK_RATE)
    run("sox", *clips, speech_only)
    return path, truth, speech_only


def music(folder: Path, seconds: float) -> Path:
    """Instrumental music made by sox: a bar of plucked chords (C, Am, F, G, one a beat), a sine
    melody in eighths over it, and a hi-hat on every eighth; looped to `seconds`."""
    chords = [("C3", "E4", "G4"), ("A2", "C4", "E4"), ("F2", "A3", "C4"), ("G2", "B3", "D4")]
    melody = [
        "E5",
        "G5",
        "C5",
        "D5",
        "E5",
        "C5",
        "A4",
        "C5",
        "F5",
        "A5",
        "C5",
        "A4",
        "G4",
        "B4",
        "D5",
        "G5",
    ]
    beats = []
    for i, notes in enumerate(chords):
        beat = folder / f"beat{i}.wav"
        plucks = [w for note in notes for w in ("pluck", note)]
        run(
            "sox",
            "-r",
            WORK_RATE,
            "-c",
            len(notes),
            "-n",
            "-b",
            "16",
            "-c",
            "1",
            beat,
            "synth",
            "0.5",
            *plucks,
            "gain",
            "-6",
        )
        beats.append(beat)
    tunes = []
    for i, note in enumerate(melody):
        tune = folder / f"note{i}.wav"
        run(
            "sox",
            "-n",
            "-r",
            WORK_RATE,
            "-c",
            "1",
            "-b",
            "16",
            tune,
            "synth",
            "0.125",
            "sine",
            note,
            "fade",
            "0.01",
            "0.125",
            "0.03",
            "gain",
            "-12",
        )
        tunes.append(tune)
    hat = folder / "hat.wav"
    run(
        "sox",
        "-n",
        "-r",
        WORK_RATE,
        "-c",
        "1",
        "-b",
        "16",
        hat,
        "synth",
        "0.03",
        "whitenoise",
        "fade",
        "0",
        "0.03",
        "0.025",
        "gain",
        "-18",
        "pad",
        "0",
        "0.095",
    )
    chord_bar, tune_bar, hat_bar, bar = (
        folder / f"{n}.wav" for n in ("chords", "tune", "hats", "bar")
    )
    run("sox", *beats, chord_bar)
    run("sox", *tunes, tune_bar)
    run("sox", *([hat] * 16), hat_bar)
    run("sox", "-m", chord_bar, tune_bar, hat_bar, bar)
    out = folder / "music.wav"
    repeats = math.ceil(seconds / 2.0)
    run("sox", bar, out, "repeat", repeats - 1, "trim", "0", f"{seconds:.3f}")
    return out


def background(folder: Path, kind: str, seconds: float) -> Path:
    if kind == "music":
        return music(folder, seconds)
    out = folder / f"{kind}.wav"
    run(
        "sox",
        "-n",
        "-r",
        WORK_RATE,
        "-c",
        "1",
        "-b",
        "16",
        out,
        "synth",
        f"{seconds:.3f}",
        f"{kind}noise",
        "gain",
        "-6",
    )
    return out


def scaled(source: Path, out: Path, target_rms: float) -> Path:
    run("sox", source, out, "vol", f"{target_rms / rms(source):.6f}")
    return out


def make_tracks(folder: Path, seed: int) -> list[Track]:
    """Every recording at every rate, with where its speech is."""
    folder.mkdir(parents=True, exist_ok=True)
    speech, truth, speech_only = speech_track(folder, seed)
    seconds = truth[-1][1] + TAIL_S
    speech_rms = rms(speech_only)
    room = folder / "room.wav"
    run("sox", speech, room, "reverb", "50", "50", "60", "gain", "-2")
    made: dict[str, tuple[Path, list[tuple[float, float]], float]] = {}
    noises = {
        kind: background(folder, kind, max(seconds, BACKGROUND_ONLY_S))
        for kind in ("brown", "pink", "music")
    }
    for name, (kind, snr, reverberant) in CONDITIONS.items():
        voice = room if reverberant else speech
        slug = name.replace(" ", "-").replace("+", "")
        if kind is None:
            made[slug] = (voice, truth, seconds)
            continue
        level = scaled(noises[kind], folder / f"{slug}-bg.wav", speech_rms / 10 ** (snr / 20))
        out = folder / f"{slug}.wav"
        run("sox", "-m", "-v", "1", voice, "-v", "1", level, out, "trim", "0", f"{seconds:.3f}")
        made[slug] = (out, truth, seconds)
    for name, (kind, snr) in BACKGROUNDS.items():
        slug = name.replace(" ", "-")
        out = scaled(noises[kind], folder / f"{slug}.wav", speech_rms / 10 ** (snr / 20))
        made[slug] = (out, [], BACKGROUND_ONLY_S)
    names = {n.replace(" ", "-").replace("+", ""): n for n in [*CONDITIONS, *BACKGROUNDS]}
    tracks = []
    for slug, (path, spans, length) in made.items():
        for rate in RATES:
            out = folder / "site" / f"{slug}-{rate}.wav"
            out.parent.mkdir(exist_ok=True)
            run("sox", path, "-r", rate, "-c", "1", "-b", "16", out)
            tracks.append(Track(out.stem, names[slug], rate, out, length, spans))
    return tracks


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The segmenter's settings (static/vad.js has the same ones)."""

    positive: float = 0.5  # a frame at or above this is speech
    negative: float = 0.35  # inside an utterance, a frame below this is silence
    min_speech_ms: float = 100.0  # less speech than this in an utterance: a misfire
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

    def add(self, truth: list[tuple[float, float]], found: list[tuple[float, float]]) -> None:
        self.utterances += len(truth)
        for segment in found:
            hits = sum(overlaps(segment, spoken) for spoken in truth)
            self.false += hits == 0
            self.merged += hits > 1
        for index, spoken in enumerate(truth):
            over = [segment for segment in found if overlaps(segment, spoken)]
            if not over:
                self.missed.append(UTTERANCES[index][0])
                continue
            self.found += 1
            self.extra += len(over) - 1
            self.start_errors.append(over[0][0] - spoken[0])
            self.end_errors.append(over[-1][1] - spoken[1])
            (segment,) = over if len(over) == 1 else (None,)
            self.clean += (
                segment is not None
                and sum(overlaps(segment, other) for other in truth) == 1
                and spoken[0] - segment[0] <= SLACK_S
                and segment[1] - spoken[1] <= SLACK_S
            )


def p90(values: list[float]) -> float:
    return sorted(values)[max(0, math.ceil(0.9 * len(values)) - 1)] if values else math.nan


def p10(values: list[float]) -> float:
    return sorted(values)[len(values) // 10] if values else math.nan


# --- the browser ----------------------------------------------------------------------------


@contextlib.contextmanager
def serving(site: Path) -> Iterator[str]:
    handler = functools.partial(Handler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.quiet = True  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def classify_all(
    browser: Browser, base: str, kind: str, variant: str, tracks: list[Track]
) -> tuple[float, dict[str, dict[str, Any]]]:
    """Load the detector in a fresh profile (so loading is cold), then classify each track."""
    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base}/vad_choice.html")
        page.wait_for_function("document.documentElement.dataset.ready === 'true'")
        load_ms = page.evaluate("([k, v]) => vadChoice.load(k, v)", [kind, variant])["loadMs"]
        results = {}
        for track in tracks:
            results[track.name] = page.evaluate(
                "([url, rate]) => vadChoice.classify(url, rate)",
                [f"{base}/{track.path.name}", track.rate],
            )
    finally:
        context.close()
    if errors:
        raise SystemExit(f"vad_choice: errors in the page: {errors[:3]}")
    return load_ms, results


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


# --- the report -----------------------------------------------------------------------------


def label(kind: str, variant: str) -> str:
    if kind == "hark":
        return f"hark {variant} dB"
    if kind == "fvad":
        mode, frame = variant.split("/")
        return f"fvad mode {mode}, {frame} ms"
    return f"Silero {variant}"


def tables(results: list[dict[str, Any]]) -> str:
    """The summary, then each detector per recording (utterances found cleanly / all, and
    "+n" for segments where nobody spoke; for the backgrounds alone, segments per 45 s and
    the share of the time they cover)."""
    lines = [
        "| detector | clean | found | false (speech tracks) | false/min, background alone"
        " | busy, background alone | start p50 / p90 late | end p50 / p90 early"
        " | CPU per 100 ms | ships (gzip) | load |",
        "| --- " * 11 + "|",
    ]
    for r in results:
        s = r["score"]
        lines.append(
            f"| {r['label']} | {100 * s['clean']:.0f}% | {100 * s['recall']:.0f}% |"
            f" {s['false_in_speech']} | {s['false_per_min_alone']:.1f} |"
            f" {100 * s['busy_alone']:.0f}% |"
            f" {s['start_p50_ms']:.0f} / {s['start_p90_late_ms']:.0f} ms |"
            f" {s['end_p50_ms']:.0f} / {s['end_p90_early_ms']:.0f} ms |"
            f" {s['cpu_ms_per_100ms']:.3f} ms | {r['bytes'] / 1e6:.2f} MB"
            f" ({r['gzip_bytes'] / 1e6:.2f} MB) | {r['load_ms']:.0f} ms |"
        )
    first = results[0]["score"]
    conditions, alone = list(first["conditions"]), list(first["backgrounds"])
    lines += [
        "",
        "| detector | " + " | ".join([*conditions, *alone, "16 / 48 kHz"]) + " |",
        "| --- " * (2 + len(conditions) + len(alone)) + "|",
    ]
    for r in results:
        s = r["score"]
        cells = [
            f"{c['clean']}/{c['of']}" + (f" +{c['false']}" if c["false"] else "")
            for c in s["conditions"].values()
        ]
        cells += [f"{b['segments']:.0f}, {100 * b['busy']:.0f}%" for b in s["backgrounds"].values()]
        cells.append(" / ".join(f"{100 * v:.0f}%" for v in s["clean_by_rate"].values()))
        lines.append(f"| {r['label']} | " + " | ".join(cells) + " |")
    lines += [
        "",
        *(
            f"- {r['label']} missed: {', '.join(r['score']['missed']) or 'nothing'}"
            for r in results
        ),
    ]
    return "\n".join(lines)


def measure(args: argparse.Namespace, rules: Rules) -> list[dict[str, Any]]:
    """Fetch, record, classify in Chromium; each detector's frames are kept in CACHE/frames."""
    fetched = fetch_packages(CACHE)
    site = CACHE / "site"
    for name in PAGE_FILES:
        shutil.copyfile(HERE / name, site / name)
    log("making the recordings")
    tracks = make_tracks(CACHE / "audio", args.seed)
    for track in tracks:
        shutil.move(track.path, site / track.path.name)
        track.path = site / track.path.name
    (CACHE / "tracks.json").write_text(
        json.dumps(
            {"packages": fetched, "tracks": [asdict(t) | {"path": str(t.path)} for t in tracks]}
        )
    )
    chosen = [d for d in DETECTORS if not args.only or args.only in label(*d)]
    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium.executable(), args=chromium.FLAGS
        )
        for kind, variant in chosen:
            log(f"{label(kind, variant)}: classifying {len(tracks)} recordings")
            load_ms, frames = classify_all(browser, base, kind, variant, tracks)
            frames_file(kind, variant).parent.mkdir(exist_ok=True)
            frames_file(kind, variant).write_text(
                json.dumps({"load_ms": load_ms, "frames": frames})
            )
        browser.close()
    return rescore(args, rules)


def frames_file(kind: str, variant: str) -> Path:
    return CACHE / "frames" / f"{kind}-{variant.replace('/', '-')}.json"


def rescore(args: argparse.Namespace, rules: Rules) -> list[dict[str, Any]]:
    """Score the frames the last run kept, with `rules`."""
    saved = json.loads((CACHE / "tracks.json").read_text())
    tracks = [
        Track(**{**t, "path": Path(t["path"]), "truth": [tuple(s) for s in t["truth"]]})
        for t in saved["tracks"]
    ]
    results = []
    for kind, variant in DETECTORS:
        if (args.only and args.only not in label(kind, variant)) or not frames_file(
            kind, variant
        ).exists():
            continue
        kept = json.loads(frames_file(kind, variant).read_text())
        raw, packed = shipped_bytes(CACHE / "site", kind, variant)
        results.append(
            {
                "label": label(kind, variant),
                "kind": kind,
                "variant": variant,
                "load_ms": kept["load_ms"],
                "bytes": raw,
                "gzip_bytes": packed,
                "score": score(tracks, kept["frames"], rules),
            }
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.vad_choice",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", type=Path, help="write every figure here too")
    parser.add_argument("--seed", type=int, default=24, help="places and levels of the words")
    parser.add_argument("--only", help="only the detectors whose label contains this")
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="score the frames the last run kept again (with other rules)",
    )
    defaults = Rules()
    for name in ("positive", "negative", "min_speech_ms", "silence_ms"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=float, default=getattr(defaults, name)
        )
    args = parser.parse_args()
    rules = Rules(args.positive, args.negative, args.min_speech_ms, args.silence_ms)
    results = rescore(args, rules) if args.rescore else measure(args, rules)
    print(f"Rules: {rules}\n")
    print(tables(results))
    if args.json:
        packages = json.loads((CACHE / "tracks.json").read_text())["packages"]
        args.json.write_text(
            json.dumps(
                {
                    "packages": packages,
                    "rules": asdict(rules),
                    "results": results,
                    "chromium": run(chromium.executable(), "--version").strip(),
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
