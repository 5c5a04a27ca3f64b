"""The core stays browser-free: only app/browser/ and app/main.py may import js/pyodide/pyscript.

That is what lets every other module run (and be tested) under plain CPython, and later move
into a worker by changing only the transport.
"""

from __future__ import annotations

import ast
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
