"""Every Python module the page may import ships compiled for the browser's Python.

Pyodide's file system is empty at every page load, so a module without bytecode is compiled
from source on every start: for the standard library alone that was about 1.5 s of the
runtime's own start and 150 ms of the app's imports (docs/benchmarks.md). This checks the
files `make build` leaves to serve (so it lives with the tests that run after it).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from e2e.conftest import ROOT

PYODIDE = ROOT / "static" / "vendor" / "pyodide"
TAG = "cpython-314"  # Pyodide 314's cache tag, as in the wheels' __pycache__ names


def _sources_without_bytecode(archive: Path, *, beside: bool) -> list[str]:
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
    sources = sorted(n for n in names if n.endswith(".py"))
    if beside:  # zipimport reads x.pyc next to x.py
        return [n for n in sources if n + "c" not in names]
    return [  # installed as files: __pycache__/x.cpython-314.pyc
        n
        for n in sources
        if f"{n.rpartition('/')[0]}/__pycache__/{Path(n).stem}.{TAG}.pyc".lstrip("/") not in names
    ]


def test_the_standard_library_ships_compiled() -> None:
    assert _sources_without_bytecode(PYODIDE / "python_stdlib.zip", beside=True) == []


def test_the_app_ships_compiled_except_its_top_level_await_script() -> None:
    missing = _sources_without_bytecode(ROOT / "static" / "build" / "app.zip", beside=True)
    assert missing == ["app/main.py"]  # PyScript runs it; it cannot compile on its own


def test_every_wheel_ships_compiled() -> None:
    wheels = sorted(PYODIDE.glob("*.whl"))
    assert len(wheels) >= 8
    for wheel in wheels:
        assert _sources_without_bytecode(wheel, beside=False) == [], wheel.name
