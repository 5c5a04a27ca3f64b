"""Run the `@copilotkit/aimock` provider emulator on loopback for a test, from JSON fixtures."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "node_modules" / "@copilotkit" / "aimock" / "dist" / "cli.js"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get_json(url: str, key: str) -> Any:
    request = urllib.request.Request(url, headers={"authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@contextmanager
def running_aimock(fixtures: list[dict[str, Any]], folder: Path, key: str) -> Iterator[str]:
    """The emulator's base URL while it runs; it accepts only `key`."""
    node = shutil.which("node")
    if node is None or not CLI.exists():
        raise RuntimeError("aimock is not installed: run `make node-deps` (needs node and npm)")
    path = folder / "fixtures.json"
    path.write_text(json.dumps({"fixtures": fixtures}))
    port = _free_port()
    command = [node, str(CLI), "-p", str(port), "-h", "127.0.0.1", "-f", str(path)]
    server = subprocess.Popen(
        [*command, "--log-level", "silent"],
        env={**os.environ, "AIMOCK_API_KEYS": key},
        stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                get_json(f"{url}/health", key)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
