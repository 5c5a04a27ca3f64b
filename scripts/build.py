"""Build what the static site serves besides its sources: the app's zip, icons and precache list.

- static/build/app.zip: the app/ package. One archive is one request instead of dozens, and
  the list of Python files can never drift from what is on disk. PyScript copies it into the
  browser's file system as it is and app/main.py imports from it (zipimport), so only the
  modules a session imports are ever read out of it; unpacking all of it at every start
  cost about 0.1 s. It carries each module compiled for the browser's Python beside its
  source (scripts/pycompile.py), so startup does not compile them again on every load. It is
  deterministic (sorted names, fixed timestamps), so its hash changes only when the code does.
- app/store/empty.sqlite inside app.zip: the database of a new, empty collection, made by the
  app's own migrations, which a first start opens instead of creating the schema (decision 027).
- app/dataclass_methods/ inside app.zip: the code each dataclass of the app's core compiles as
  it is made, recorded by the browser's Python, which app/compiled_dataclasses.py runs instead
  of compiling it again at every start (decision 029).
- static/build/pyscript-bytecode.zip: PyScript's own Python package (`pyscript.*`, which its
  bundle writes into the file system and imports before app/main.py runs) compiled for the
  browser's Python: pyscript.toml unpacks it beside those sources, so they are not compiled
  at every start (about 20 ms). The pycs are checked against their sources' hashes: if a
  PyScript upgrade changed one, Python compiles it as before instead of running a stale copy.
- static/build/packages.zip: the pure-Python packages the app imports (pydantic and mistune
  with their dependencies), compiled the same way and imported from the zip (decision 026).
  Pyodide's loadPackage writes every file of a wheel into the file system at each start, 360
  files and about 5 MB for these; from the zip only the modules imported are read. Packages
  with compiled code (pydantic-core) cannot be imported from a zip: app/browser/packages.py
  loads those, and what they depend on, with loadPackage, and they are left out of the zip.
- static/build/icons/: the manifest's PNG icons, rendered from static/icon.svg (icons.py).
- static/build/precache.js: the files the service worker keeps for offline use and the
  cache version, derived from those files (precache.py). Written last: it hashes the others.

`--root DIR` builds another copy of the site (the update test deploys a changed copy).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import icons  # scripts/ is on the path when run as a script
import precache
from pycompile import compile_trees, record_dataclass_methods, zip_tree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for the app's own names
from app import compiled_dataclasses

ROOT = Path(__file__).resolve().parent.parent
APP_ZIP_IN_BROWSER = "/home/pyodide/app.zip"  # where pyscript.toml's [files] puts it
PYSCRIPT_IN_BROWSER = "/home/pyodide/pyscript"  # where PyScript writes its package
# Writes the image into the folder given, under the name app/store/empty_image.py reads.
EMPTY_DATABASE = (
    "import sys, pathlib; from app.store import Store, empty_image; "
    "pathlib.Path(sys.argv[1], empty_image.NAME).write_bytes(Store.open().snapshot())"
)
PACKAGES_IN_BROWSER = "/home/pyodide/packages.zip"  # where pyscript.toml's [files] puts it
# What the app imports besides the standard library and py-fsrs (loaded when studying starts).
ZIPPED_PACKAGES = ("pydantic", "mistune")


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
        _write_empty_database(root, staged / "store")
        study = precache.loaded_packages(root / precache.PACKAGES).get("STUDY", [])
        record_dataclass_methods(staged, [*ZIPPED_PACKAGES, *study], compiled_dataclasses.METHODS)
        zip_tree(staged, partial, names_from=staged.parent)
    partial.replace(target)


def _write_empty_database(root: Path, folder: Path) -> None:
    """The image of a new collection's database, made by the app's own migrations."""
    subprocess.run([sys.executable, "-c", EMPTY_DATABASE, str(folder)], cwd=root, check=True)


def write_pyscript_bytecode(root: Path) -> None:
    target = root / "static" / "build" / "pyscript-bytecode.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    extracted = subprocess.run(
        [
            shutil.which("node") or sys.exit("build: Node.js is needed"),
            str(ROOT / "scripts" / "pyscript_package.mjs"),
            str(root / "static" / "vendor" / "pyscript"),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    package = json.loads(extracted)["pyscript"]
    partial = target.with_suffix(".tmp")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "pyscript"
        _write_tree(staged, package)
        compile_trees([(staged, PYSCRIPT_IN_BROWSER)], checked=True)
        for source in python_files(staged):
            source.unlink()  # PyScript writes the sources itself; only the pycs ship
        zip_tree(staged, partial, names_from=staged)
    partial.replace(target)


def write_packages_zip(root: Path) -> None:
    pyodide = root / "static" / "vendor" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    base = precache.loaded_packages(root / precache.PACKAGES)["BASE"]
    loaded = precache.dependencies(lock, base)
    names = sorted(precache.dependencies(lock, ZIPPED_PACKAGES) - loaded)
    compiled = [name for name in names if not lock[name]["file_name"].endswith("-none-any.whl")]
    if compiled:
        sys.exit(
            f"build: {', '.join(compiled)} has compiled code: list it in BASE in "
            f"{precache.PACKAGES} instead (a zip cannot hold a shared library)"
        )
    target = root / "static" / "build" / "packages.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "site-packages"
        for name in names:
            with zipfile.ZipFile(pyodide / lock[name]["file_name"]) as wheel:
                for member in wheel.namelist():
                    # zipimport reads x.pyc beside x.py only: compiled again below.
                    if "__pycache__" not in member.split("/"):
                        (staged / member).parent.mkdir(parents=True, exist_ok=True)
                        (staged / member).write_bytes(wheel.read(member))
        compile_trees([(staged, PACKAGES_IN_BROWSER)], beside_sources=True)
        zip_tree(staged, partial, names_from=staged)
    partial.replace(target)


def _write_tree(folder: Path, files: dict[str, object]) -> None:
    for name, content in files.items():
        path = folder / name
        if isinstance(content, dict):
            _write_tree(path, content)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(str(content), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="the site to build")
    root = parser.parse_args().root.resolve()
    write_app_zip(root)
    write_pyscript_bytecode(root)
    write_packages_zip(root)
    icons.write_icons(root / "static" / "icon.svg", root / "static" / "build" / "icons")
    precache.write(root)


if __name__ == "__main__":
    main()
