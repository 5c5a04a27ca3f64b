"""static/charts.js exports what the browser layer calls (tests/test_javascript.py parses it)."""

from __future__ import annotations

from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "charts.js"


def test_it_exports_what_the_browser_layer_calls() -> None:
    assert "export async function drawCharts(" in SCRIPT.read_text(encoding="utf-8")
