"""Calibration units (issue 25, item 16; decision 034): each page the bench measures also runs a
fixed Python workload (bench/calibration_workload.py) in its own Pyodide, a few times at the
start, middle and end of its scenario, and every latency of that page is read against the
median of those runs. Targets are judged in those units: the ms target over REFERENCE_MS, the
workload's median on the reference run below. A figure that holds in units holds on a machine
twice as slow, or in a busy minute, as well as on this one in a quiet one.
"""

from __future__ import annotations

import functools
from pathlib import Path

from playwright.sync_api import Page

from bench import calibration_workload
from bench.report import Figure, calibrated

# The workload's median on the reference run, rounded: one sitting of `python -m bench --only`
# small, large, pauses, imports, voice, drill, small, large on main (2026-11-27, 23:44-23:50
# UTC) gave page medians of 78.5-94.5 ms in quiet minutes (eight pages, their median 82.2) and
# 130 ms for one 100,000-word page in a busy one (load 4.7 on the 2 cores); `--only small` and
# `--only large` just before, 77.8 and 81.7 ms.
REFERENCE_MS = 80.0
REFERENCE_MEASURED = (
    "2026-11-27, this machine: 2 cores (shared), 24 GB, Chromium 156.0.8078.108 headless, "
    "Debian 12, pyodide 314.0.7"
)
RUNS_PER_POINT = 3  # at each point of a page's scenario: start, middle, end
# Untimed runs before a page's first timed one: in a fresh page the first five or so took 2-3×
# the later ones (with 3,000 words: 100-160 ms against 48, in two pages), while V8 compiled the
# WebAssembly they run hot; the first run alone up to 10×.
WARM_UP_RUNS = 6
SOURCE = Path(calibration_workload.__file__).read_text()
CALLED = "run"  # the function the page times


@functools.cache
def expected_check() -> int:
    """The workload's answer under CPython, which the page's must equal."""
    return calibration_workload.run()


class Calibration:
    """The calibration runs of one page (or of pages alike, as each import's fresh one):
    `take()` at each point of its scenario, then `figures()` reads its latencies against their
    median."""

    def __init__(self, key: str, name: str) -> None:
        self.key, self.name = key, name
        self.samples: list[float] = []

    def take(self, page: Page, runs: int = RUNS_PER_POINT) -> None:
        """`runs` runs of the workload in `page`, each in a task of its own (bench/probe.js)."""
        taken = page.evaluate(
            "([source, called, runs, warmUp]) => __bench.calibrate(source, called, runs, warmUp)",
            [SOURCE, CALLED, runs, WARM_UP_RUNS],
        )
        if wrong := [check for check in taken["checks"] if check != expected_check()]:
            raise SystemExit(
                f"bench: the calibration workload answered {wrong[0]} in the page, "
                f"{expected_check()} under CPython: it did other work"
            )
        self.samples += [float(ms) for ms in taken["ms"]]

    def figures(self, figures: list[Figure]) -> list[Figure]:
        return calibrated(figures, self.samples, self.key, self.name, REFERENCE_MS)
