"""The reschedule figure's timed part (bench/reschedule.py), the same under CPython and in the
vendored Pyodide under Node: a stored collection's cards replayed from their logs, first the
replay alone, then the whole reschedule (reads, replay, the write and its change capture) with
the log entry of every batch encoded as it is written, as the page's save queue encodes it, and
the time the other tab (or a boot before the next snapshot) takes to read those entries back."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from app.store import Store
from app.store.changes import Changeset, take_captured
from app.store.oplog import decode_entry, encode_entry
from app.study.fast_replay import replayer
from app.study.model import card_seed
from app.studying.reschedule import reschedule

# Another retention than the workload's: every card's due date moves.
RETENTION = 0.85


def replay_only(store: Store) -> tuple[float, int]:
    """ms to replay every logged card (after reading the logs), and how many cards."""
    logs = store.study.card_logs(None)
    chosen = replayer(RETENTION, None)
    start = time.perf_counter()
    for i, (word, direction) in enumerate(logs.seeds):
        log = logs.reviews[logs.starts[i] : logs.starts[i + 1]]
        chosen.schedule(log, card_seed(word, direction))
    return (time.perf_counter() - start) * 1000, len(logs.rows)


def measured(image: bytes) -> dict[str, Any]:
    """The times for the collection in `image`, with how many cards changed. It is opened
    from a file, as the page's working copy is (decision 035; in Pyodide, a file in its file
    system's memory): about 7 % slower there than SQLite's in-memory database."""
    with tempfile.TemporaryDirectory(prefix="lexical-reschedule-") as folder:
        path = Path(folder) / "working-copy.sqlite"
        path.write_bytes(image)
        store = Store.open(str(path))
        try:
            return _measured(store)
        finally:
            store.close()


def _measured(store: Store) -> dict[str, Any]:
    options = store.study.options_for(None)[0]
    store.study.set_options(None, options.model_copy(update={"retention": RETENTION}))
    take_captured(store.study.db)
    replay_ms, cards = replay_only(store)
    entries: list[str] = []
    encoding = [0.0]

    def encoded(changeset: Changeset) -> None:
        # What the page does with each batch's changeset: the operation log's entry
        # (app/store/durability.py then puts it in IndexedDB, which is not timed here).
        start = time.perf_counter()
        entries.append(encode_entry(len(entries) + 1, changeset))
        encoding[0] += time.perf_counter() - start

    store.subscribe(encoded)
    start = time.perf_counter()
    changed = reschedule(store, None)
    reschedule_ms = (time.perf_counter() - start - encoding[0]) * 1000
    start = time.perf_counter()
    for entry in entries:
        decode_entry(entry)
    return {
        "cards": cards,
        "changed": changed,
        "replay_ms": replay_ms,
        "reschedule_ms": reschedule_ms,
        "entry_ms": encoding[0] * 1000,
        "entry_mb": sum(len(entry.encode()) for entry in entries) / 1e6,
        "entries": len(entries),
        "read_ms": (time.perf_counter() - start) * 1000,
    }
