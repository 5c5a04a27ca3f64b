"""static/visualiser.js is valid JavaScript (node --check), exports what app/browser/microphone.py
calls and is kept offline; e2e/test_microphone.py watches it draw."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.browser.microphone import VISUALISER
from scripts.precache import later_modules

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / VISUALISER


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_the_visualiser_module_parses() -> None:
    result = subprocess.run(
        ["node", "--check", "--input-type=module"],
        input=SCRIPT.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_it_exports_what_the_browser_layer_calls() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    assert "export function start(analyser, target)" in text
    assert "export function stop(target)" in text


def test_it_is_kept_for_offline_use_but_not_loaded_at_startup() -> None:
    assert "static/visualiser.js" in later_modules(ROOT)
    assert "visualiser" not in (ROOT / "index.html").read_text(encoding="utf-8")
