"""The calibration workload (bench/calibration.py): a fixed piece of the kinds of work the app
does, run in each measured page's own Pyodide so that its latencies can be read against it.

Its parts are the app's in small: objects made, grouped and sorted (a folder's words), text
folded and split (search keys, a bulk paste), and SQLite on an in-memory database (inserts
with full-text indexing, grouped counts, prefix queries, an update). The page runs this
source in a namespace of its own and times `run()`; the tests run it under CPython.

It must give the same answer everywhere: no clock, no `random`, no set of strings (their order
follows the hash seed), no floats in the answer. It imports only what the app has imported
already, so the page loads nothing for it, and keeps nothing: what it made is freed by
reference counting when it returns (the app's collector, app/browser/collector.py, counts what
is left over).
"""

from __future__ import annotations

import sqlite3
import unicodedata

WORDS = 5_000
FOLDERS = 40
SYLLABLES = (
    *("ka", "lé", "mo", "ñu", "ri", "sta", "ön", "vel", "tra", "pé", "gu", "ço"),
    *("ста", "ри", "жи", "ль", "θε", "ρά", "πι", "ση"),
)
MEANINGS = ("house", "river", "to walk", "bright", "a small bird", "later", "heavy", "to know")


class Entry:
    """A word, as a plain class with slots: a dataclass run in the page's namespace, which is no
    module, could not resolve its annotations."""

    __slots__ = ("due", "folder", "meanings", "term")

    def __init__(self, term: str, meanings: list[str], folder: int, due: int) -> None:
        self.term, self.meanings, self.folder, self.due = term, meanings, folder, due


def _entries() -> list[Entry]:
    """WORDS entries from a linear congruential generator with a fixed seed."""
    state, out = 12_345, []
    for i in range(WORDS):
        parts = []
        for _ in range(1 + i % 4):
            state = (state * 1_103_515_245 + 12_345) & 0x7FFFFFFF
            parts.append(SYLLABLES[state % len(SYLLABLES)])
        meanings = [MEANINGS[(state >> k) % len(MEANINGS)] for k in range(1 + i % 3)]
        out.append(Entry("".join(parts), meanings, state % FOLDERS, (state >> 8) % 365))
    return out


def _fold(text: str) -> str:
    """Search's folding in small: accents off, case folded."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _objects(entries: list[Entry]) -> int:
    """Group by folder, sort each folder three ways, then edit every word as a new object."""
    folders: dict[int, list[Entry]] = {}
    for entry in entries:
        folders.setdefault(entry.folder, []).append(entry)
    total = 0
    for folder, words in sorted(folders.items()):
        for key in (lambda e: (e.due, e.term.casefold()), lambda e: e.term, lambda e: -e.due):
            words.sort(key=key)
            total += folder * len(words) + words[0].due + len(words[-1].meanings)
    edited = [Entry(e.term, [*e.meanings, e.term[:2]], e.folder, e.due + 1) for e in entries]
    by_term = {e.term: e for e in edited}
    return total + len(by_term) + sum(len(e.meanings) for e in by_term.values())


def _text(entries: list[Entry]) -> int:
    pasted = "\n".join(f"{e.term} - {'; '.join(e.meanings)}" for e in entries)
    total = 0
    for line in pasted.splitlines():
        term, _, meanings = line.partition(" - ")
        folded = _fold(term)
        total += len(folded) + len(meanings.split("; ")) + folded.count("a")
    return total


def _sqlite(entries: list[Entry]) -> int:
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(
            "CREATE TABLE word (id INTEGER PRIMARY KEY, term TEXT, folder INTEGER, due INTEGER);"
            "CREATE INDEX word_folder ON word (folder, due);"
            "CREATE VIRTUAL TABLE search USING fts5(term, meanings, prefix='2');"
        )
        with db:
            db.executemany(
                "INSERT INTO word VALUES (?, ?, ?, ?)",
                [(i, e.term, e.folder, e.due) for i, e in enumerate(entries)],
            )
            db.executemany(
                "INSERT INTO search (rowid, term, meanings) VALUES (?, ?, ?)",
                [(i, _fold(e.term), " ".join(e.meanings)) for i, e in enumerate(entries)],
            )
        counts = db.execute("SELECT folder, count(*) FROM word GROUP BY folder")
        total = sum(int(n) for _, n in counts)
        for syllable in SYLLABLES:
            prefix = _fold(syllable)
            total += len(
                db.execute(
                    "SELECT term FROM word WHERE term LIKE ? ORDER BY term LIMIT 20",
                    (syllable + "%",),
                ).fetchall()
            )
            (matched,) = db.execute(
                "SELECT count(*) FROM search WHERE search MATCH ?", (f'"{prefix}"*',)
            ).fetchone()
            total += int(matched)
        with db:
            db.execute("UPDATE word SET due = due + 1 WHERE folder < ?", (FOLDERS // 2,))
        (due,) = db.execute("SELECT sum(due) FROM word").fetchone()
        total += int(due)
    finally:
        db.close()
    return total


def run() -> int:
    """The workload once; its answer (a checksum) shows it did the same work everywhere."""
    entries = _entries()
    return (_objects(entries) + _text(entries) + _sqlite(entries)) % 2**31
