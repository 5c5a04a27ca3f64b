"""How the e2e tests and the benchmark start Debian's Chromium: the executable, its flags, and
loading a page again once if its renderer crashed while it loaded.

Playwright's own browser download cannot work here, so everything runs the system Chromium
(`make chromium` installs it); `CHROMIUM=/path` picks another build.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable

from playwright.sync_api import Error, Page

# No sandbox (CI runs as root); nothing that reaches out to Google's services on its own.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def executable() -> str:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def loaded(new_page: Callable[[], Page], load: Callable[[Page], None], what: str) -> Page:
    """A new page with `load` done. Once in a hundred or so starts on this shared machine the
    renderer crashes while Pyodide starts, for the app and for bare Pyodide alike, before
    anything is saved (the same as a person reloading): that is tried once more, and said so.
    A second crash fails."""
    page = new_page()
    try:
        load(page)
    except Error as exc:
        if "crashed" not in str(exc):
            raise
        print(f"chromium: the page crashed while loading {what}; loading it again", file=sys.stderr)
        page.close()
        page = new_page()
        load(page)
    return page
