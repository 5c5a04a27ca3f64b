"""Fixtures of the sync tests: the real sync server (scripts/sync_server.py) on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from e2e.sync_devices import SyncServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[SyncServer]:
    """The sync server on a fresh data folder, killed (SIGKILL) at the end."""
    served = SyncServer(tmp_path / "data")
    served.start()
    try:
        yield served
    finally:
        served.kill()
