"""Run the axe-core accessibility engine (npm, test-only) on the page as it is shown now.

axe is evaluated through the DevTools protocol, so the app's strict CSP stays as it ships.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.1 A and AA, the level we promise; "best-practice" rules are advice, not failures.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def _source() -> str:
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: run 'npm ci' (make test does)")
    return AXE.read_text(encoding="utf-8")


def violations(page: Page, screen: str) -> list[str]:
    """One readable line per rule broken on the current screen, naming the offending elements."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_source())
    found: list[dict[str, Any]] = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(r => r.violations.map(v => ({id: v.id, help: v.help,"
        " targets: v.nodes.map(n => n.target.join(' '))})))",
        TAGS,
    )
    return [f"{screen}: {v['id']} ({v['help']}) at {', '.join(v['targets'][:5])}" for v in found]
