"""Opening an SQLite file someone handed us (a Lexical database, an Anki collection) safely.

The bytes are deserialised into an in-memory connection: nothing touches the file system and
nothing is shared with the workspace's own database. Before any query the file must carry the
SQLite header and pass `PRAGMA quick_check`; schema code in the file is not trusted, and a step
budget stops a crafted file from keeping the page busy forever.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from app.domain import InvalidInput

HEADER = b"SQLite format 3\x00"
# SQLite's VM calls the progress handler every STEP instructions; past BUDGET calls we stop.
STEP = 10_000
BUDGET = 200_000  # two billion instructions: far more than reading 500,000 words needs


def is_sqlite(data: bytes) -> bool:
    return data.startswith(HEADER)


def open_foreign(data: bytes, what: str) -> sqlite3.Connection:
    """An in-memory copy of `data`, checked; `what` names the file in messages ("Anki
    collection")."""
    if not is_sqlite(data) or len(data) < 512:
        article = "an" if what[:1].lower() in "aeiou" else "a"
        raise InvalidInput(f"This is not {article} {what}: it is not an SQLite database file.")
    image = bytearray(data)
    # Bytes 18-19 say "WAL mode"; an in-memory copy must use the rollback journal to be read.
    image[18:20] = b"\x01\x01"
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.deserialize(bytes(image))
        conn.execute("PRAGMA trusted_schema = OFF")
        _set_budget(conn)
        check = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as exc:
        conn.close()
        raise InvalidInput(f"This {what} is damaged and cannot be read ({exc}).") from exc
    if check is None or check[0] != "ok":
        conn.close()
        raise InvalidInput(f"This {what} is damaged: SQLite's integrity check failed.")
    return conn


def _set_budget(conn: sqlite3.Connection) -> None:
    calls = 0

    def tick() -> int:
        nonlocal calls
        calls += 1
        return 1 if calls > BUDGET else 0  # non-zero interrupts the running statement

    conn.set_progress_handler(tick, STEP)


def tables(conn: sqlite3.Connection) -> set[str]:
    """Names of the real tables (not views) in the file."""
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(r[0]) for r in rows}


def require_tables(conn: sqlite3.Connection, needed: Iterable[str], message: str) -> None:
    if not set(needed) <= tables(conn):
        conn.close()
        raise InvalidInput(message)
