"""static/charts.js is valid JavaScript (node --check), whatever the browser tests cover."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "charts.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_charts_module_parses() -> None:
    result = subprocess.run(
        ["node", "--check", "--input-type=module"],
        input=SCRIPT.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_it_exports_what_the_browser_layer_calls() -> None:
    assert "export async function drawCharts(" in SCRIPT.read_text(encoding="utf-8")
