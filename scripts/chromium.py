"""How the e2e tests and the benchmark start Debian's Chromium: the executable and its flags.

Playwright's own browser download cannot work here, so everything runs the system Chromium
(`make chromium` installs it); `CHROMIUM=/path` picks another build.
"""

from __future__ import annotations

import os
import shutil

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
