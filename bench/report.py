"""Figures, their statistics and the two outputs: bench/results.json and the table in
docs/benchmarks.md (between marker comments, so the hand-written analysis around it stays)."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
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
    """One measured number; `target` is the most it may be (None: reported, not judged)."""

    key: str
    label: str
    unit: str
    value: float | None
    samples: list[float] = field(default_factory=list)
    target: float | None = None
    note: str = ""

    @property
    def passed(self) -> bool | None:
        if self.target is None or self.value is None:
            return None
        return self.value <= self.target


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


def _verdict(figure: Figure) -> str:
    return {True: "pass", False: "**miss**", None: ""}[figure.passed]


def table(figures: list[Figure]) -> str:
    lines = ["| figure | measured | target | result |", "| --- | --- | --- | --- |"]
    for f in figures:
        target = f"≤ {_number(f.target, f.unit)}" if f.target is not None else ""
        lines.append(f"| {f.label} | {_number(f.value, f.unit)} | {target} | {_verdict(f)} |")
    return "\n".join(lines)


def results(figures: list[Figure], meta: dict[str, Any]) -> dict[str, Any]:
    return {
        **meta,
        "figures": [{**asdict(f), "passed": f.passed} for f in figures],
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
        ]
    )


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
