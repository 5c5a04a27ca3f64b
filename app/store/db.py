"""A thin facade over `sqlite3.Connection`: typed helpers, nestable transactions, snapshots.

The connection runs in autocommit mode and `transaction()` manages SAVEPOINTs itself, so a
command can run inside an agent turn's group and each level rolls back on its own.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from app.ids import uuid7
from app.text.fold import fold
from app.text.markdown import plain_text

Params = Sequence[Any] | dict[str, Any]


def register_functions(conn: sqlite3.Connection) -> None:
    """SQL functions the schema's triggers and the queries call; every connection to a Lexical
    file needs them."""
    # Notes are Markdown: search should match and show their words, not the markup.
    conn.create_function("md_text", 1, _md_text, deterministic=True)
    # Filtering a folder's words matches terms and meanings ignoring case and accents.
    conn.create_function("word_text", 2, _word_text, deterministic=True)
    # Every synced row's global id (schema 8): the default of its `gid` column, so every way a
    # row is inserted (commands, imports, restores, undo, the operation log) gets one, and a
    # row written back with its gid (undo, redo, a replayed log) keeps it. With an argument,
    # the id of a row made at that millisecond (the migration numbering existing rows).
    conn.create_function("uuid7", 0, uuid7)
    conn.create_function("uuid7", 1, uuid7)


def _md_text(source: object) -> str:
    return plain_text(source) if isinstance(source, str) else ""


# Each keystroke in a folder's filter box reads every word of the folder again: the same words,
# so their folded text is kept (a 5,000-word folder filters 3-4x faster the second time).
WORD_TEXTS_KEPT = 20_000


@functools.lru_cache(maxsize=WORD_TEXTS_KEPT)
def _word_text(term: object, meanings: object) -> str:
    """A word's term and meanings (a JSON array), one a line, folded (app.text.fold)."""
    try:
        items = json.loads(meanings) if isinstance(meanings, str) else []
    except ValueError:
        items = []
    lines = [term, *items] if isinstance(items, list) else [term]
    return fold("\n".join(line for line in lines if isinstance(line, str)))


def _insert_sql(table: str, columns: Iterable[str]) -> str:
    """INSERT for `columns` plus the timestamps (names come from code, never from users)."""
    names = [*columns, "created_at", "updated_at"]
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"


class Database:
    """One SQLite connection plus the transaction depth needed to nest savepoints."""

    def __init__(self, conn: sqlite3.Connection, path: str = ":memory:") -> None:
        self.path = path
        conn.row_factory = sqlite3.Row
        register_functions(conn)
        self._conn = conn
        self._depth = 0

    @classmethod
    def open(cls, path: str = ":memory:") -> Database:
        conn = sqlite3.connect(path, isolation_level=None)
        if path != ":memory:":
            # The file is the workspace's working copy; durability comes from the snapshots
            # and the operation log (app/store/durability.py), so nothing is synced, the
            # rollback journal stays in memory and no other connection ever shares the file.
            for pragma in ("journal_mode = MEMORY", "synchronous = 0", "locking_mode = EXCLUSIVE"):
                conn.execute(f"PRAGMA {pragma}")
        return cls(conn, path)

    @classmethod
    def from_bytes(cls, data: bytes) -> Database:
        """Open an in-memory database holding a copy of a `serialize()` image."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        conn.deserialize(data)
        return cls(conn)

    def serialize(self) -> bytes:
        return self._conn.serialize()

    def make_read_only(self) -> None:
        # query_only is the backstop for read-only handles: SQLite itself refuses any write.
        self._conn.execute("PRAGMA query_only = 1")

    @contextmanager
    def query_only(self) -> Iterator[None]:
        """Refuse every write on this connection for the block (SQLite enforces it), then
        restore whatever was set before."""
        before = int(self.scalar("PRAGMA query_only"))
        self._conn.execute("PRAGMA query_only = 1")
        try:
            yield
        finally:
            self._conn.execute(f"PRAGMA query_only = {before}")

    def close(self) -> None:
        self._conn.close()

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    def first(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._conn.execute(sql, params).fetchone()
        return row

    def scalar(self, sql: str, params: Params = ()) -> Any:
        row = self._conn.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def tuples(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """Rows as plain tuples: for reads of many rows, where a `sqlite3.Row` each costs."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, params).fetchall()

    def execute(self, sql: str, params: Params = ()) -> sqlite3.Cursor:
        return self._conn.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._conn.executemany(sql, rows)

    def insert(self, table: str, values: dict[str, Any], now: int) -> int:
        """Insert one row stamped as created and updated at `now`; returns its id."""
        cursor = self._conn.execute(_insert_sql(table, values), [*values.values(), now, now])
        return int(cursor.lastrowid or 0)

    def insert_many(self, table: str, rows: Sequence[dict[str, Any]], now: int) -> None:
        """Insert rows that share one set of columns, each stamped at `now`."""
        if rows:
            self._conn.executemany(
                _insert_sql(table, rows[0]), [[*row.values(), now, now] for row in rows]
            )

    def update(self, table: str, row_id: int, values: dict[str, Any], now: int) -> None:
        """Change the given columns of one row and stamp it as updated at `now`."""
        values = {**values, "updated_at": now}
        assignments = ", ".join(f"{name} = ?" for name in values)
        self._conn.execute(
            f"UPDATE {table} SET {assignments} WHERE id = ?", [*values.values(), row_id]
        )

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing block; nested blocks become savepoints inside the outer one."""
        name = f"sp{self._depth}"
        self._conn.execute(f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield
        except BaseException:
            self._conn.execute(f"ROLLBACK TO {name}")
            raise
        finally:
            self._depth -= 1
            self._conn.execute(f"RELEASE {name}")
