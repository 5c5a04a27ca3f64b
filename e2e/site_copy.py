"""A copy of the site that a test can build a new version of, as a deploy would bring.

The update tests serve a copy (test_offline.py with scripts/serve.py, test_publish.py as
dist/ with nginx), change a file in it and build it again, so the browser finds a new worker.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from e2e.conftest import ROOT
from scripts.precache import WORKER, boot_files


def copy_site(target: Path) -> Path:
    """A buildable copy of the site: its files, the runtime, the worker and the app's sources."""
    for name in [*boot_files(ROOT), WORKER, "vendor.lock.json"]:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target / name)
    for folder in ("app", "static/vendor"):
        shutil.copytree(ROOT / folder, target / folder, dirs_exist_ok=True)
    return target


def build(site: Path) -> None:
    """`make build` for the copy: the app's zip, icons and the worker's precache list."""
    command = [sys.executable, str(ROOT / "scripts" / "build.py"), "--root", str(site)]
    subprocess.run(command, check=True)


def retitle(site: Path, title: str) -> None:
    """Change the page's title, the change each update test deploys and then looks for."""
    index = site / "index.html"
    index.write_text(index.read_text().replace("<title>Lexical<", f"<title>{title}<"))
