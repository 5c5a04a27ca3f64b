"""Figures, their statistics and the two outputs: bench/results.json and the table in
docs/benchmarks.md (between marker comments, so the hand-written analysis around it stays)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

BEGIN = "<!-- bench:begin (rewritten by make bench; edit outside these markers) -->"
END = "<!-- bench:end -->"


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation between the closest ranks."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = (len(ordered) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def median(samples: list[float]) -> float:
    return percentile(samples, 50)


@dataclass
class Figure:
    """One measured number; `target` is the most it may be (None: reported, not judged).

    A latency (unit "ms") taken in a calibrated page (bench/calibration.py) carries that page's
    calibration median and the reference run's, both in ms: it is judged in calibration units,
    its value over its page's median against its target over the reference's."""

    key: str
    label: str
    unit: str
    value: float | None
    samples: list[float] = field(default_factory=list)
    target: float | None = None
    note: str = ""
    calibration: float | None = None
    reference: float | None = None

    @property
    def units(self) -> float | None:
        """The value in calibration units, for a latency of a calibrated page."""
        if self.unit != "ms" or self.value is None or not self.calibration:
            return None
        return self.value / self.calibration

    @property
    def unit_target(self) -> float | None:
        """The target in calibration units: the ms target over the reference run's median."""
        if self.units is None or self.target is None or not self.reference:
            return None
        return self.target / self.reference

    @property
    def passed_in_ms(self) -> bool | None:
        if self.target is None or self.value is None:
            return None
        return self.value <= self.target

    @property
    def passed(self) -> bool | None:
        if self.units is not None and self.unit_target is not None:
            return self.units <= self.unit_target
        return self.passed_in_ms


def summarise(
    key: str,
    label: str,
    samples: list[float],
    *,
    q: float = 50,
    unit: str = "ms",
    target: float | None = None,
    note: str = "",
) -> Figure:
    """A figure whose value is the q-th percentile of `samples` (the median by default)."""
    value = percentile(samples, q) if samples else None
    return Figure(key, label, unit, value, list(samples), target, note)


def calibrated(
    figures: list[Figure], samples: list[float], key: str, name: str, reference: float
) -> list[Figure]:
    """`figures`, all taken in one page, with that page's calibration median (of `samples`,
    in ms) and the `reference` median beside each latency; then the calibration as a figure
    of its own. Without samples the latencies stay in ms and the calibration is missing."""
    middle = median(samples) if samples else None
    spread = f" ({min(samples):.0f}-{max(samples):.0f} ms)" if samples else ""
    runs = Figure(
        f"calibration.{key}",
        f"Calibration: the fixed Python workload in {name}, median of {len(samples)} runs" + spread,
        "ms",
        middle,
        list(samples),
        note="bench/calibration_workload.py, at the start, middle and end of the page's "
        "scenario; its latencies are read against this median",
    )
    marked = [
        replace(f, calibration=middle, reference=reference) if f.unit == "ms" else f
        for f in figures
    ]
    return [*marked, runs]


def missing(figures: list[Figure]) -> list[str]:
    """Keys of figures that were not produced (no value or no samples)."""
    return [f.key for f in figures if f.value is None or not f.samples]


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "not measured"
    if unit == "x":
        return f"{value:.2f}×"
    if unit == "ms" and value >= 1000:
        return f"{value / 1000:.2f} s"
    if unit == "ms":
        return f"{value:.1f} ms"
    if unit == "count":
        return f"{value:,.0f}"
    return f"{value:.1f} {unit}"


VERDICTS = {True: "pass", False: "**miss**", None: ""}


def _verdict(figure: Figure) -> str:
    """The verdict, in units for a calibrated latency; and what ms alone would have said, when
    it says otherwise."""
    verdict = VERDICTS[figure.passed]
    if figure.unit_target is not None and figure.passed_in_ms != figure.passed:
        verdict += f" (in ms: {VERDICTS[figure.passed_in_ms].strip('*')})"
    return verdict


def _in_units(figure: Figure) -> str:
    if figure.units is None:
        return ""
    target = f" ≤ {figure.unit_target:.3f}" if figure.unit_target is not None else ""
    return f"{figure.units:.3f}{target}"


def table(figures: list[Figure]) -> str:
    lines = [
        "| figure | measured | target | in calibration units | result |",
        "| --- | --- | --- | --- | --- |",
    ]
    for f in figures:
        target = f"≤ {_number(f.target, f.unit)}" if f.target is not None else ""
        measured = _number(f.value, f.unit)
        lines.append(f"| {f.label} | {measured} | {target} | {_in_units(f)} | {_verdict(f)} |")
    return "\n".join(lines)


def results(figures: list[Figure], meta: dict[str, Any]) -> dict[str, Any]:
    return {
        **meta,
        "figures": [
            {
                **asdict(f),
                "units": f.units,
                "unit_target": f.unit_target,
                "passed": f.passed,
                "passed_in_ms": f.passed_in_ms,
            }
            for f in figures
        ],
    }


def header(meta: dict[str, Any]) -> str:
    machine, versions, settings = meta["machine"], meta["versions"], meta["settings"]
    runtime = ", ".join(f"{name} {version}" for name, version in versions.items())
    return "\n".join(
        [
            f"Measured {meta['date']} on {machine['cores']} cores, "
            f"{machine['memory_gb']:.0f} GB memory, {machine['chromium']} (headless), "
            f"{machine['platform']}.",
            "",
            f"Runtime: {runtime}.",
            "",
            f"Settings: {settings['runs']} run(s) per startup and folder figure; workload of "
            f"{settings['words']:,} words in {settings['folders']:,} folders "
            f"(small one: {settings['small_words']:,} words); {settings['queries']} search "
            f"queries typed one character at a time; {settings['edits']} edits per size.",
            *_calibration(meta),
        ]
    )


def _calibration(meta: dict[str, Any]) -> list[str]:
    if "calibration" not in meta:
        return []
    reference = meta["calibration"]
    return [
        "",
        "Calibration units: a latency over its own page's calibration median (the fixed "
        "Python workload of bench/calibration_workload.py, run in that page at the start, "
        "middle and end of its scenario); a target over the reference median, "
        f"{reference['reference_ms']:.1f} ms ({reference['measured']}). A latency with a "
        "target is judged in units; startup is judged as a ratio to bare Pyodide.",
    ]


def write(figures: list[Figure], meta: dict[str, Any], json_path: Path, doc_path: Path) -> str:
    """Write both outputs; returns the table (with its header) as printed."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results(figures, meta), indent=1, ensure_ascii=False) + "\n")
    block = f"{header(meta)}\n\n{table(figures)}"
    doc_path.parent.mkdir(parents=True, exist_ok=True)
    text = doc_path.read_text() if doc_path.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = f"{text.rstrip()}\n\n{BEGIN}\n{END}\n"
    before, rest = text.split(BEGIN, 1)
    after = rest.split(END, 1)[1]
    doc_path.write_text(f"{before}{BEGIN}\n{block}\n{END}{after}")
    return block
