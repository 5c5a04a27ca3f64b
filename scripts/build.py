"""Build what the static site serves besides its sources: the app's zip, icons and precache list.

- static/build/app.zip: the app/ package, the one file PyScript unpacks at startup. One
  archive is one request instead of dozens, and the list of Python files can never drift from
  what is on disk. It is deterministic (sorted names, fixed timestamps), so its hash changes
  only when the code does.
- static/build/icons/: the manifest's PNG icons, rendered from static/icon.svg (icons.py).
- static/build/precache.js: the files the service worker keeps for offline use and the
  cache version, derived from those files (precache.py). Written last: it hashes the others.

`--root DIR` builds another copy of the site (the update test deploys a changed copy).
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

import icons
import precache

ROOT = Path(__file__).resolve().parent.parent
EPOCH = (2020, 1, 1, 0, 0, 0)


def python_files(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*.py") if "__pycache__" not in p.parts)


def write_app_zip(root: Path) -> None:
    target = root / "static" / "build" / "app.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in python_files(root / "app"):
            info = zipfile.ZipInfo(str(path.relative_to(root)), date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
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
