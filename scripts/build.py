"""Pack the app/ package into static/build/app.zip, the one file PyScript unpacks at startup.

One archive is one request instead of dozens, and the list of Python files can never drift
from what is on disk. It also carries the modules compiled for the browser's Python
(scripts/pycompile.py), so startup does not compile them again on every load. The archive is
deterministic (sorted names, fixed timestamps), so its hash changes only when the code does.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from pycompile import compile_trees, zip_tree  # scripts/ is on the path when run as a script

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "app"
TARGET = ROOT / "static" / "build" / "app.zip"


def python_files() -> list[Path]:
    return sorted(p for p in SOURCE.rglob("*.py") if "__pycache__" not in p.parts)


def main() -> None:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    partial = TARGET.with_suffix(".tmp")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "app"
        for path in python_files():
            copy = staged / path.relative_to(SOURCE)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        # PyScript unpacks the archive into the home directory, /home/pyodide.
        compile_trees([(staged, "/home/pyodide/app")])
        zip_tree(staged, partial, names_from=staged.parent)
    partial.replace(TARGET)


if __name__ == "__main__":
    main()
