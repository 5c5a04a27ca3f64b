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
import contextlib
import functools
import gzip
import hashlib
import http.server
import json
import shutil
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from bench.vad_live import live, live_table
from bench.vad_recordings import Track, log, make_tracks, run
from bench.vad_scoring import Rules, score
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


def measure(
    args: argparse.Namespace, rules: Rules
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Fetch, record, classify in Chromium (each detector's frames are kept in CACHE/frames);
    with --live, static/vad.js on the fake microphone too."""
    fetched = fetch_packages(CACHE)
    site = CACHE / "site"
    for name in PAGE_FILES:
        shutil.copyfile(HERE / name, site / name)
    if not (site / "static").exists():
        (site / "static").symlink_to(ROOT / "static", target_is_directory=True)
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
        heard = live(playwright, base, tracks) if args.live else None
    return rescore(args, rules), heard


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
    parser.add_argument(
        "--live",
        action="store_true",
        help="also run static/vad.js on the fake microphone, each 48 kHz recording in real time"
        " (about 10 minutes; --only NONE to skip the other detectors)",
    )
    defaults = Rules()
    for name in ("positive", "negative", "min_speech_ms", "silence_ms"):
        parser.add_argument(
            f"--{name.replace('_', '-')}", type=float, default=getattr(defaults, name)
        )
    args = parser.parse_args()
    rules = Rules(args.positive, args.negative, args.min_speech_ms, args.silence_ms)
    results, heard = (rescore(args, rules), None) if args.rescore else measure(args, rules)
    if results:
        print(f"Rules: {rules}\n\n{tables(results)}\n")
    if heard:
        print(live_table(heard))
    if args.json:
        packages = json.loads((CACHE / "tracks.json").read_text())["packages"]
        args.json.write_text(
            json.dumps(
                {
                    "packages": packages,
                    "rules": asdict(rules),
                    "results": results,
                    "live": heard,
                    "chromium": subprocess.run(
                        [chromium.executable(), "--version"],
                        capture_output=True,
                        text=True,
                        check=False,
                    ).stdout.strip(),
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
