"""static/visualiser.js exports what app/browser/microphone.py calls (tests/test_javascript.py
parses it, tests/pwa/test_precache.py keeps it offline); e2e/test_microphone.py watches it draw."""

from __future__ import annotations

from pathlib import Path

from app.browser.microphone import VISUALISER

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / VISUALISER


def test_it_exports_what_the_browser_layer_calls() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    assert "export function start(analyser, target)" in text
    assert "export function stop(target)" in text
