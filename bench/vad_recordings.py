"""The recordings bench/vad_choice.py scores voice activity detectors on (docs/decisions/030):
a dozen short commands and answers ("apple", "the hospital", "skip", "I don't know", ...) said by
espeak-ng in several voices and speeds, trimmed to where their sound is, laid 1-4 s apart at
known places; with nothing behind them, with brown or pink noise at 20 and 10 dB SNR, with
instrumental music made by sox (plucked chords, a sine melody, hi-hats) at 20 and 10 dB, and in
a reverberant room with pink noise at 15 dB; and the noises and the music alone. Each at 16 and
48 kHz. Made with sox and espeak-ng, deterministic for a seed.
"""

from __future__ import annotations

import array
import math
import random
import subprocess
import sys
import wave
from dataclasses import dataclass, field
from pathlib import Path

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


def run(*command: str | Path | float) -> str:
    done = subprocess.run([str(c) for c in command], check=True, capture_output=True, text=True)
    return done.stdout + done.stderr


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
