"""The core stays browser-free: only app/browser/ and app/main.py may import js/pyodide/pyscript.

That is what lets every other module run (and be tested) under plain CPython, and later move
into a worker by changing only the transport.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
BROWSER_MODULES = {"js", "pyodide", "pyodide_js", "pyscript"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def core_files() -> list[Path]:
    return [
        p
        for p in APP.rglob("*.py")
        if "browser" not in p.relative_to(APP).parts and p != APP / "main.py"
    ]


def test_core_never_imports_browser_modules() -> None:
    files = core_files()
    assert len(files) > 10
    offenders = {str(p.relative_to(APP)): imported_roots(p) & BROWSER_MODULES for p in files}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_check_sees_browser_imports() -> None:
    assert "js" in imported_roots(APP / "browser" / "dom.py")


def test_every_module_says_what_it_is_for() -> None:
    missing = [str(p) for p in APP.rglob("*.py") if not ast.get_docstring(ast.parse(p.read_text()))]
    assert missing == []


# What the first screen must not import: the AI layer, the import/export readers and the
# Markdown parser are loaded when first used, which keeps them out of the startup time that
# `make bench` measures (docs/benchmarks.md).
LATER = (
    *("app.agents", "app.llm", "app.tools", "app.browser.assistant", "mistune"),
    # Studying loads py-fsrs when it starts; the stats page and its charts when it opens.
    *("fsrs", "app.study.scheduler", "app.study.session", "app.study.stats"),
    *("app.study.grading", "app.ui.study_view", "app.ui.study_summary_view"),
    "app.ui.study_dialogs",
    *("app.store.stats_queries", "app.ui.stats_view", "app.ui.stats_charts", "app.browser.charts"),
)
STARTUP_IMPORTS = """
import sys
from unittest.mock import MagicMock
for name in ("js", "pyodide", "pyodide.ffi", "pyodide_js"):
    sys.modules[name] = MagicMock()  # the browser, as far as importing needs
import app.browser.session
print("\\n".join(sorted(sys.modules)))
"""


def test_the_first_screen_imports_nothing_that_can_wait() -> None:
    result = subprocess.run(
        [sys.executable, "-c", STARTUP_IMPORTS],
        cwd=APP.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = result.stdout.split()
    assert "app.browser.session" in loaded
    assert "pydantic" in loaded
    assert [m for m in loaded if m.startswith(LATER)] == []
    readers = [m for m in loaded if m.startswith("app.store.transfer.")]
    assert readers == ["app.store.transfer.steps"]  # only the progress type the page shows
