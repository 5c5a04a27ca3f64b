"""Build what the static site serves besides its sources: the app's zip, icons and precache list.

- static/build/app.zip: the app/ package. One archive is one request instead of dozens, and
  the list of Python files can never drift from what is on disk. PyScript copies it into the
  browser's file system as it is and app/main.py imports from it (zipimport), so only the
  modules a session imports are ever read out of it; unpacking all of it at every start
  cost about 0.1 s. It carries each module compiled for the browser's Python beside its
  source (scripts/pycompile.py), so startup does not compile them again on every load. It is
  deterministic (sorted names, fixed timestamps), so its hash changes only when the code does.
- static/build/icons/: the manifest's PNG icons, rendered from static/icon.svg (icons.py).
- static/build/precache.js: the files the service worker keeps for offline use and the
  cache version, derived from those files (precache.py). Written last: it hashes the others.

`--root DIR` builds another copy of the site (the update test deploys a changed copy).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import icons  # scripts/ is on the path when run as a script
import precache
from pycompile import compile_trees, zip_tree

ROOT = Path(__file__).resolve().parent.parent
APP_ZIP_IN_BROWSER = "/home/pyodide/app.zip"  # where pyscript.toml's [files] puts it


def python_files(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*.py") if "__pycache__" not in p.parts)


def write_app_zip(root: Path) -> None:
    source = root / "app"
    target = root / "static" / "build" / "app.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "app"
        for path in python_files(source):
            copy = staged / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        # Tracebacks then name the files where zipimport finds them (and their source lines).
        compile_trees([(staged, f"{APP_ZIP_IN_BROWSER}/app")], beside_sources=True)
        zip_tree(staged, partial, names_from=staged.parent)
    partial.replace(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="the site to build")
    root = parser.parse_args().root.resolve()
    write_app_zip(root)
    icons.write_icons(root / "static" / "icon.svg", root / "static" / "build" / "icons")
    precache.write(root)


if __name__ == "__main__":
    main()
