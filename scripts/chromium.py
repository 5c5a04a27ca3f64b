"""How the e2e tests and the benchmark start Debian's Chromium: the executable, its flags, and
loading a page again if its renderer crashed while it loaded.

Playwright's own browser download cannot work here, so everything runs the system Chromium
(`make chromium` installs it); `CHROMIUM=/path` picks another build.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
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


# Loads of one page in all when its renderer keeps crashing, and the pause between them.
LOADS = 3
PAUSE_S = 2.0


def loaded(new_page: Callable[[], Page], load: Callable[[Page], None], what: str) -> Page:
    """A new page with `load` done. Once in a hundred or so starts on this shared machine the
    renderer crashes while Pyodide starts, for the app and for bare Pyodide alike, before
    anything is saved (the same as a person reloading). One CI run saw it in a fifth of its
    starts, twice in a row, with nothing failing on this machine (nor with its disk full or
    its cores busy): so a crash is tried again after a pause, up to `LOADS` loads, and the log
    says what the machine had free then. Any other failure fails at once."""
    for _ in range(LOADS - 1):
        page = new_page()
        try:
            load(page)
            return page
        except Error as exc:
            if "crashed" not in str(exc):
                raise
            print(
                f"chromium: the page crashed while loading {what} ({machine()}); loading it again",
                file=sys.stderr,
            )
            page.close()
            time.sleep(PAUSE_S)
    page = new_page()
    load(page)
    return page


def machine() -> str:
    """What the machine had free: memory, the disk under /tmp (Chromium's shared memory when
    /dev/shm is small, and its profiles), and how busy its cores were."""
    available = "unknown"
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                available = f"{int(line.split()[1]) // 1024} MiB"
    tmp = shutil.disk_usage("/tmp").free // 2**20
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"memory available {available}, {tmp} MiB free in /tmp, load average {load}"
