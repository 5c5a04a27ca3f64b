"""static/visualiser.js exports what app/browser/microphone.py calls and is kept offline
(tests/test_javascript.py parses it); e2e/test_microphone.py watches it draw."""

from __future__ import annotations

from pathlib import Path

from app.browser.microphone import VISUALISER
from scripts.precache import later_modules

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / VISUALISER


def test_it_exports_what_the_browser_layer_calls() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    assert "export function start(analyser, target)" in text
    assert "export function stop(target)" in text


def test_it_is_kept_for_offline_use_but_not_loaded_at_startup() -> None:
    assert "static/visualiser.js" in later_modules(ROOT)
    assert "visualiser" not in (ROOT / "index.html").read_text(encoding="utf-8")
