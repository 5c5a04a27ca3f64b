"""The bench's statistics and outputs: percentiles, verdicts, and a table rewritten in place
between markers so the analysis written around it survives every run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.browser import app_packages, idb_names
from bench.report import BEGIN, END, Figure, missing, percentile, summarise, table, write

META = {
    "date": "2026-01-01 00:00 UTC",
    "machine": {"cores": 2, "memory_gb": 8.0, "chromium": "Chromium 1", "platform": "Debian"},
    "versions": {"pyodide": "314.0.7"},
    "settings": {
        "runs": 3,
        "words": 100,
        "folders": 5,
        "small_words": 10,
        "queries": 2,
        "edits": 4,
    },
}


def test_percentiles_interpolate_between_ranks() -> None:
    samples = [5.0, 1.0, 3.0, 2.0, 4.0]
    assert percentile(samples, 50) == 3.0
    assert percentile(samples, 0) == 1.0
    assert percentile(samples, 100) == 5.0
    assert percentile(samples, 95) == pytest.approx(4.8)
    with pytest.raises(ValueError, match="no samples"):
        percentile([], 50)


def test_a_figure_passes_only_at_or_under_its_target() -> None:
    assert summarise("a", "A", [10.0, 30.0], target=20.0).passed is True
    assert summarise("a", "A", [10.0, 30.0], q=95, target=20.0).passed is False
    assert summarise("a", "A", [10.0]).passed is None
    assert summarise("a", "A", []).value is None


def test_missing_names_figures_without_a_value() -> None:
    figures = [summarise("ok", "Ok", [1.0]), summarise("empty", "Empty", [])]
    assert missing(figures) == ["empty"]


def test_table_shows_units_targets_and_misses() -> None:
    text = table(
        [
            Figure("r", "Ratio", "x", 1.3, [1.3], 1.15),
            summarise("s", "Slow", [2500.0], target=2000.0),
            summarise("h", "Heap", [12.5], unit="MB"),
            Figure("p", "Proxies", "count", 1200.0, [0.0, 1200.0], 0.0),
        ]
    )
    assert "| Ratio | 1.30× | ≤ 1.15× |  | **miss** |" in text
    assert "| Slow | 2.50 s | ≤ 2.00 s |  | **miss** |" in text
    assert "| Heap | 12.5 MB |  |  |  |" in text
    assert "| Proxies | 1,200 | ≤ 0 |  | **miss** |" in text


def test_write_keeps_the_text_around_the_markers(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\n\nIntro.\n\n{BEGIN}\nold table\n{END}\n\n## Analysis\nKept.\n")
    figures = [summarise("s", "Search", [1.0, 2.0], target=30.0)]
    write(figures, META, tmp_path / "results.json", doc)
    text = doc.read_text()
    assert "old table" not in text
    assert "Intro." in text
    assert "Kept." in text
    assert "| Search | 1.5 ms | ≤ 30.0 ms |  | pass |" in text
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["figures"][0]["samples"] == [1.0, 2.0]
    assert saved["figures"][0]["passed"]


def test_write_creates_the_doc_when_missing(tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "benchmarks.md"
    write([summarise("s", "Search", [1.0])], META, tmp_path / "r.json", doc)
    assert BEGIN in doc.read_text()
    assert "| Search |" in doc.read_text()


def test_the_bench_reads_the_app_packages_and_storage_names_from_the_app() -> None:
    assert app_packages() == ["pydantic-core", "pydantic", "mistune"]
    assert set(idb_names()) == {"DB_NAME", "DB_VERSION", "SNAPSHOTS", "OPS"}
