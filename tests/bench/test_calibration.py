"""Calibration units (issue 25, item 16): a latency read against the fixed Python workload run in
its own page, its target against the same workload's median on the reference run, the verdict
in those units, and the workload itself staying the same from run to run."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from bench import calibration, calibration_workload
from bench.report import Figure, calibrated, summarise, table, write
from tests.bench.test_report import META as REPORT_META

META = {
    **REPORT_META,
    "calibration": {"reference_ms": 100.0, "measured": "2026-01-01 on a test machine"},
}


def _latency(value: float, target: float | None = 20.0, calibration_ms: float = 100.0) -> Figure:
    return Figure(
        "edit", "Edit", "ms", value, [value], target, calibration=calibration_ms, reference=100.0
    )


def test_a_latency_in_units_is_its_value_over_its_page_calibration() -> None:
    figure = _latency(15.0, calibration_ms=150.0)
    assert figure.units == pytest.approx(0.1)
    assert _latency(15.0, target=None).units == pytest.approx(0.15)
    assert summarise("edit", "Edit", [15.0]).units is None  # never calibrated


def test_a_target_in_units_is_the_ms_target_over_the_reference_calibration() -> None:
    assert _latency(15.0).unit_target == pytest.approx(0.2)
    assert _latency(15.0, target=None).unit_target is None


def test_a_calibrated_latency_passes_only_if_it_holds_in_units() -> None:
    # A machine (or a minute) twice as slow as the reference: 30 ms is 0.15 of its calibration.
    slow = _latency(30.0, calibration_ms=200.0)
    assert slow.passed_in_ms is False
    assert slow.passed is True
    # Twice as fast: 15 ms holds in ms but is 0.3 of its calibration against 0.2.
    fast = _latency(15.0, calibration_ms=50.0)
    assert fast.passed_in_ms is True
    assert fast.passed is False
    assert _latency(20.0).passed is True  # at the target exactly, as in ms


def test_only_latencies_are_read_in_units() -> None:
    ratio = Figure("r", "Ratio", "x", 1.3, [1.3], 1.15, calibration=50.0, reference=100.0)
    heap = Figure("h", "Heap", "KB", 0.5, [0.5], 1.0, calibration=50.0, reference=100.0)
    assert ratio.units is None
    assert ratio.passed is False  # judged as it is, not made 2.6× by the calibration
    assert heap.units is None
    assert heap.passed is True


def test_calibrated_gives_each_latency_its_page_median_and_adds_the_calibration() -> None:
    figures = [
        summarise("search", "Search", [10.0, 12.0], target=30.0),
        summarise("heap", "Heap", [12.5], unit="MB"),
    ]
    out = calibrated(figures, [90.0, 110.0, 100.0, 130.0, 95.0], "big", "the big page", 80.0)
    search, heap, runs = out
    assert (search.calibration, search.reference) == (100.0, 80.0)
    assert search.units == pytest.approx(0.11)
    assert search.unit_target == pytest.approx(0.375)
    assert heap.calibration is None
    assert runs.key == "calibration.big"
    assert runs.unit == "ms"
    assert runs.value == 100.0
    assert runs.samples == [90.0, 110.0, 100.0, 130.0, 95.0]
    assert runs.units is None  # the calibration is not read against itself
    assert "the big page" in runs.label
    assert "5 runs" in runs.label
    assert "90-130 ms" in runs.label
    assert figures[0].calibration is None  # the figures handed in are left as they were


def test_calibrated_without_runs_leaves_the_figures_and_reports_the_calibration_missing() -> None:
    out = calibrated([summarise("search", "Search", [10.0], target=30.0)], [], "big", "big", 80.0)
    assert out[0].calibration is None
    assert out[0].passed is True
    assert out[1].value is None


@pytest.mark.parametrize(
    ("figure", "row"),
    [
        (
            _latency(30.0, calibration_ms=200.0),
            "| Edit | 30.0 ms | ≤ 20.0 ms | 0.150 ≤ 0.200 | pass (in ms: miss) |",
        ),
        (
            _latency(15.0, calibration_ms=50.0),
            "| Edit | 15.0 ms | ≤ 20.0 ms | 0.300 ≤ 0.200 | **miss** (in ms: pass) |",
        ),
        (_latency(10.0), "| Edit | 10.0 ms | ≤ 20.0 ms | 0.100 ≤ 0.200 | pass |"),
        (_latency(12.0, target=None), "| Edit | 12.0 ms |  | 0.120 |  |"),
        (Figure("r", "Ratio", "x", 1.1, [1.1], 1.15), "| Ratio | 1.10× | ≤ 1.15× |  | pass |"),
    ],
)
def test_a_row_shows_ms_and_units_and_says_when_ms_alone_would_judge_otherwise(
    figure: Figure, row: str
) -> None:
    header, _, shown = table([figure]).splitlines()
    assert header == "| figure | measured | target | in calibration units | result |"
    assert shown == row


def test_results_and_header_record_units_and_the_reference(tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    write([_latency(30.0, calibration_ms=200.0)], META, tmp_path / "results.json", doc)
    saved = json.loads((tmp_path / "results.json").read_text())
    figure = saved["figures"][0]
    assert figure["calibration"] == 200.0
    assert figure["reference"] == 100.0
    assert figure["units"] == pytest.approx(0.15)
    assert figure["unit_target"] == pytest.approx(0.2)
    assert figure["passed"] is True
    assert figure["passed_in_ms"] is False
    assert saved["calibration"]["reference_ms"] == 100.0
    assert "100.0 ms" in doc.read_text()
    assert "2026-01-01 on a test machine" in doc.read_text()


def test_the_reference_is_a_plausible_median_with_its_date_and_machine() -> None:
    assert 20.0 <= calibration.REFERENCE_MS <= 500.0
    assert "2026" in calibration.REFERENCE_MEASURED
    assert "cores" in calibration.REFERENCE_MEASURED


def test_the_workload_gives_the_same_answer_every_run() -> None:
    first = calibration_workload.run()
    assert isinstance(first, int)
    assert first == calibration_workload.run()
    assert calibration.expected_check() == first


def test_the_workload_leaves_one_name_behind_and_loads_only_what_the_app_has() -> None:
    """The page runs the source in a namespace of its own and calls `run`: what it defines at
    the top level is made once, outside the timing; what it imports the app has already
    imported (no package is loaded for it)."""
    tree = ast.parse(calibration.SOURCE)
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert imported <= {"__future__", "sqlite3", "unicodedata"}
    functions = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert calibration.CALLED in functions


def test_the_workload_runs_in_a_namespace_that_is_no_module_as_in_the_page() -> None:
    namespace: dict[str, object] = {"__name__": "bench_calibration"}
    exec(calibration.SOURCE, namespace)
    called = namespace[calibration.CALLED]
    assert callable(called)
    assert called() == calibration.expected_check()
