"""How the e2e tests and the benchmark start Debian's Chromium: the executable, its flags, and
doing a step again if its renderer crashed in it.

Playwright's own browser download cannot work here, so everything runs the system Chromium
(`make chromium` installs it); `CHROMIUM=/path` picks another build.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from typing import TypeVar

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


T = TypeVar("T")

# Tries in all when a renderer keeps crashing, and the pause between them.
TRIES = 3
PAUSE_S = 2.0


def again_if_crashed(attempt: Callable[[], T], crash: str) -> T:
    """`attempt()`, made again after a pause (up to `TRIES` in all) when a renderer crashed in
    it, with the log saying what crashed (`crash`) and what the machine had free then. Once
    in a hundred or so starts on this shared machine the renderer crashes, for the app and for
    bare Pyodide alike, with nothing of the app's pointing at it (decision 032); one CI run saw
    it in a fifth of its starts, twice in a row. Any other failure fails at once."""
    for _ in range(TRIES - 1):
        try:
            return attempt()
        except Error as exc:
            if "crashed" not in str(exc):
                raise
            print(f"chromium: {crash} ({machine()}); trying again", file=sys.stderr)
            time.sleep(PAUSE_S)
    return attempt()


def loaded(new_page: Callable[[], Page], load: Callable[[Page], None], what: str) -> Page:
    """A new page with `load` done; a page whose renderer crashed while it loaded (before
    anything is saved: the same as a person reloading) is loaded again in a new one."""

    def attempt() -> Page:
        page = new_page()
        try:
            load(page)
        except Error:
            page.close()
            raise
        return page

    return again_if_crashed(attempt, f"the page crashed while loading {what}")


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
