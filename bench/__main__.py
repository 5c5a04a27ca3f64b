"""`make bench`: build the workloads, measure everything in one run, write and print the table.

`python -m bench --smoke` is the small run `make test` includes: one run of each figure on a
small workload, written to a temporary folder, failing only if a figure was not produced.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Playwright, sync_playwright

from app.store.durability import SNAPSHOT_EVERY
from bench import drill, drill_provider, fit, imports, reschedule, scenarios, startup, sync, voice
from bench.browser import ROOT, chromium_version, serve
from bench.calibration import REFERENCE_MEASURED, REFERENCE_MS
from bench.report import Figure, missing, write
from bench.workload import Size, Workload, build
from scripts import chromium

IMPORT_RUNS = 3  # each in a fresh profile, so few
GROUPS = (
    "startup",
    "large",
    "memory",
    "fit",
    "pauses",
    "small",
    "imports",
    "voice",
    "drill",
    "provider",
    "reschedule",
    "sync",
)


def _log(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="one quick run, to a temp folder")
    parser.add_argument("--runs", type=int, help="runs per startup and folder figure (7)")
    parser.add_argument("--words", type=int, help="words in the big workload (100000)")
    parser.add_argument("--folders", type=int, help="folders in the big workload (2000)")
    parser.add_argument("--small-words", type=int, default=1_000, help="the small workload")
    parser.add_argument("--edits", type=int, help="edits timed per workload (60)")
    parser.add_argument(
        "--pause-edits", type=int, help="edits watched for long main-thread tasks (1000)"
    )
    parser.add_argument("--deck-notes", type=int, help="notes in the imported deck (10000)")
    parser.add_argument("--voice-timed", type=int, help="voice turns timed (30)")
    parser.add_argument("--voice-turns", type=int, help="voice turns checked for leaks (100)")
    parser.add_argument("--hold", type=int, help="seconds the visualiser is watched (5)")
    parser.add_argument("--drill-cards", type=int, help="cards in the hands-free session (200)")
    parser.add_argument(
        "--provider-cards", type=int, help="cards studied through the provider rung (20)"
    )
    parser.add_argument(
        "--utterances", type=int, help="utterances said in that session, answers included (200)"
    )
    parser.add_argument("--sync-words", type=int, help="words synced to a new device (100000)")
    parser.add_argument("--sync-changes", type=int, help="changes timed between devices (20)")
    parser.add_argument("--json", type=Path, help="results file (bench/results.json)")
    parser.add_argument("--doc", type=Path, help="table file (docs/benchmarks.md)")
    parser.add_argument(
        "--only", choices=GROUPS, help="measure only these figures (written to a temp folder)"
    )
    args = parser.parse_args()
    smoke = {
        **{"runs": 1, "words": 2_000, "folders": 50, "edits": 5, "deck_notes": 300},
        "pause_edits": SNAPSHOT_EVERY,
        **{"voice_timed": 2, "voice_turns": 2, "hold": 1, "drill_cards": 5},
        **{"provider_cards": 2, "utterances": 7},
        **{"sync_words": 2_000, "sync_changes": 3},
    }
    full = {
        **{"runs": 7, "words": 100_000, "folders": 2_000, "edits": 60, "deck_notes": 10_000},
        "pause_edits": 1_000,
        **{"voice_timed": 30, "voice_turns": 100, "hold": 5, "drill_cards": 200},
        **{"provider_cards": 20, "utterances": 200},
        **{"sync_words": 100_000, "sync_changes": 20},
    }
    for name, default in (smoke if args.smoke else full).items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if (args.smoke or args.only) and args.json is None:
        out = Path(tempfile.mkdtemp(prefix="lexical-bench-smoke-"))
        args.json, args.doc = out / "results.json", out / "benchmarks.md"
    args.json = args.json or ROOT / "bench" / "results.json"
    args.doc = args.doc or ROOT / "docs" / "benchmarks.md"
    return args


def _memory_gb() -> float:
    with open("/proc/meminfo") as meminfo:
        kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal"))
    return kb / 1024 / 1024


def _versions() -> dict[str, str]:
    lock = json.loads((ROOT / "vendor.lock.json").read_text())
    entries = [*lock["npm"], *lock["wheels"]["packages"]]
    return {entry["name"]: entry["version"] for entry in entries}


def _meta(args: argparse.Namespace, queries: int) -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {
            "cores": os.cpu_count(),
            "memory_gb": round(_memory_gb(), 1),
            "chromium": chromium_version(),
            "platform": platform.freedesktop_os_release().get("PRETTY_NAME", platform.system()),
            "python": platform.python_version(),
        },
        "versions": _versions(),
        "calibration": {"reference_ms": REFERENCE_MS, "measured": REFERENCE_MEASURED},
        "settings": {
            "runs": args.runs,
            "words": args.words,
            "folders": args.folders,
            "small_words": args.small_words,
            "queries": queries,
            "edits": args.edits,
            "deck_notes": args.deck_notes,
            "voice_turns": args.voice_turns,
            "drill_cards": args.drill_cards,
            "provider_cards": args.provider_cards,
            "utterances": args.utterances,
        },
    }


def _measure(
    group: str,
    playwright: Playwright,
    base_url: str,
    data: Path,
    *,
    args: argparse.Namespace,
    large: Callable[[], Workload],
    medium: Callable[[], Workload],
    small: Callable[[], Workload],
) -> list[Figure]:
    """The figures of one group (GROUPS), in their own browser profiles."""
    if group == "startup":
        return startup.measure(playwright, base_url, args.runs, _log)
    if group == "large":
        return scenarios.large(
            playwright, base_url, data, large(), runs=args.runs, edits=args.edits, log=_log
        )
    if group == "pauses":
        return scenarios.pauses(
            playwright, base_url, data, large(), edits=args.pause_edits, log=_log
        )
    if group == "memory":
        return scenarios.memory(playwright, base_url, data, medium(), args.edits)
    if group == "fit":
        return fit.measure(playwright, base_url, data, medium(), _log)
    if group == "small":
        return scenarios.small(playwright, base_url, data, small(), args.edits)
    if group == "imports":
        return imports.measure(playwright, base_url, IMPORT_RUNS, args.deck_notes)
    if group == "voice":
        return voice.measure(
            playwright,
            base_url,
            timed=args.voice_timed,
            turns=args.voice_turns,
            hold_s=args.hold,
            log=_log,
        )
    if group == "reschedule":  # Pyodide under Node and CPython: no browser (bench/reschedule.py)
        return reschedule.measure(large())
    if group == "sync":
        words = args.sync_words
        collection = sync.workload(words, max(1, words // 50))
        return sync.measure(playwright, base_url, data, collection, args.sync_changes, _log)
    if group == "drill":
        return drill.measure(playwright, base_url, cards=args.drill_cards, log=_log)
    return drill_provider.measure(
        playwright, base_url, cards=args.provider_cards, utterances=args.utterances, log=_log
    )


def main() -> None:
    args = _arguments()
    started = time.monotonic()

    @functools.cache
    def large() -> Workload:
        built = build(Size.scaled(args.words, args.folders))
        _log(f"built the {args.words:,}-word workload in {time.monotonic() - started:.0f} s")
        return built

    @functools.cache
    def medium() -> Workload:  # a tenth of the big one: 10,000 words in a full run
        return build(Size.scaled(args.words // 10, max(1, args.folders // 10)))

    @functools.cache
    def small() -> Workload:
        return build(Size.scaled(args.small_words, max(1, args.small_words // 50)))

    figures: list[Figure] = []
    with (
        tempfile.TemporaryDirectory(prefix="lexical-bench-data-") as data,
        serve(Path(data)) as base_url,
        sync_playwright() as playwright,
    ):
        for group in [args.only] if args.only else GROUPS:
            # A group whose page crashed part way is measured again from its start.
            figures += chromium.again_if_crashed(
                lambda group=group: _measure(
                    group,
                    playwright,
                    base_url,
                    Path(data),
                    args=args,
                    large=large,
                    medium=medium,
                    small=small,
                ),
                f"a page of the {group} group crashed: measuring the group again",
            )
    print(
        write(
            figures, _meta(args, Size.scaled(args.words, args.folders).queries), args.json, args.doc
        )
    )
    _log(f"done in {time.monotonic() - started:.0f} s; wrote {args.json} and {args.doc}")
    if not_produced := missing(figures):
        sys.exit(f"bench: these figures were not produced: {', '.join(not_produced)}")


if __name__ == "__main__":
    main()
