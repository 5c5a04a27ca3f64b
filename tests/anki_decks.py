"""Small Anki packages for the tests, made with genanki (which writes legacy `collection.anki2`
packages), plus the variants genanki cannot make: `collection.anki21`, the newer
zstd-compressed `collection.anki21b` with Anki's "please update" stand-in collection, and a
review history (`revlog`) written into a package's collection afterwards."""

from __future__ import annotations

import io
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import genanki

from tests.study.simulated import simulated_logs

MODEL = genanki.Model(
    1607392319,
    "Vocabulary",
    fields=[{"name": "Word"}, {"name": "Meaning"}, {"name": "Example"}],
    templates=[
        {"name": "Card 1", "qfmt": "{{Word}}", "afmt": "{{FrontSide}}<hr id=answer>{{Meaning}}"}
    ],
)
# "Basic (and reversed card)": card 0 asks the word, card 1 the meaning.
REVERSED = genanki.Model(
    1607392320,
    "Vocabulary (and reversed)",
    fields=[{"name": "Word"}, {"name": "Meaning"}, {"name": "Example"}],
    templates=[
        {"name": "Card 1", "qfmt": "{{Word}}", "afmt": "{{FrontSide}}<hr id=answer>{{Meaning}}"},
        {"name": "Card 2", "qfmt": "{{Meaning}}", "afmt": "{{FrontSide}}<hr id=answer>{{Word}}"},
    ],
)
Notes = dict[str, list[tuple[list[str], list[str]]]]  # deck name -> (fields, tags) per note
UPDATE_NOTE = "Please update to the latest Anki version, then import the .colpkg/.apkg file again."
COLLECTION = "collection.anki2"


def make_apkg(
    decks: Notes, media: dict[str, bytes] | None = None, model: genanki.Model = MODEL
) -> bytes:
    """An .apkg with one deck per entry of `decks` and the given media files; every note is
    of `model` (padded or cut to its fields)."""
    size = len(model.fields)
    with tempfile.TemporaryDirectory() as tmp:
        package_decks = []
        for number, (name, notes) in enumerate(decks.items()):
            deck = genanki.Deck(2059400110 + number, name)
            for fields, tags in notes:
                padded = [*fields, *[""] * size][:size]
                deck.add_note(genanki.Note(model=model, fields=padded, tags=tags))
            package_decks.append(deck)
        media_paths = []
        for file_name, content in (media or {}).items():
            path = Path(tmp) / file_name
            path.write_bytes(content)
            media_paths.append(str(path))
        target = Path(tmp) / "deck.apkg"
        genanki.Package(package_decks, media_files=media_paths).write_to_file(str(target))
        return target.read_bytes()


def rename_member(package: bytes, old: str, new: str) -> bytes:
    """The same package with one member renamed (collection.anki2 -> collection.anki21)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(new if info.filename == old else info.filename, source.read(info))
    return out.getvalue()


def newer_format_package() -> bytes:
    """What Anki 2.1.50+ exports by default: a zstd collection.anki21b that cannot be read
    here, next to a legacy collection.anki2 whose only note asks to update Anki."""
    stub = make_apkg({"Default": [([UPDATE_NOTE, ""], [])]})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(stub)) as source, zipfile.ZipFile(out, "w") as target:
        target.writestr("collection.anki2", source.read("collection.anki2"))
        target.writestr("collection.anki21b", b"\x28\xb5\x2f\xfd" + bytes(64))  # zstd magic
        target.writestr("meta", b"\x08\x03")
        target.writestr("media", b"\x28\xb5\x2f\xfd")
    return out.getvalue()


def sample_deck() -> bytes:
    """Two nested decks with HTML, entities, an extra field, tags, a cloze and one image."""
    return make_apkg(
        {
            "Biology::Cells": [
                (
                    ["<b>mitosis</b>", "cell division<br>into two cells", "<i>e.g.</i> skin"],
                    ["bio"],
                ),
                (["ribosome", "makes proteins &amp; more", ""], []),
            ],
            "Biology": [(["osmosis", 'water <img src="x.png"> moving&nbsp;in', ""], [])],
            "Spanish": [(["el {{c1::perro::animal}}", "the dog", ""], ["es", "pets"])],
        },
        media={"x.png": b"\x89PNG fake"},
    )


def _collection(package: bytes) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    with zipfile.ZipFile(io.BytesIO(package)) as source:
        conn.deserialize(source.read(COLLECTION))
    return conn


def card_ids(package: bytes) -> dict[tuple[str, int], int]:
    """(the note's first field, template ord) -> Anki card id, as genanki numbered them."""
    rows = _collection(package).execute(
        "SELECT n.flds, c.ord, c.id FROM cards c JOIN notes n ON n.id = c.nid"
    )
    return {(str(flds).split("\x1f")[0], ordinal): card for flds, ordinal, card in rows}


def edit_collection(package: bytes, edit: Callable[[sqlite3.Connection], object]) -> bytes:
    """`package` with its collection changed by `edit` (other members as they were)."""
    conn = _collection(package)
    edit(conn)
    conn.commit()
    collection = conn.serialize()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = collection if info.filename == COLLECTION else source.read(info)
            target.writestr(info.filename, data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def with_revlog(
    package: bytes,
    reviews: Iterable[tuple[Any, ...]],
    *,
    queues: dict[int, tuple[int, int]] | None = None,
    loose: bool = False,
) -> bytes:
    """`package` with `reviews` (id = time in ms, cid, ease, time spent, type) in its revlog.

    Every card with a review becomes a review card (Anki type 2, queue 2) unless `queues`
    gives its (type, queue). `loose` drops the table's types and NOT NULL constraints first,
    as a hand-made or damaged collection might, so any value can be stored."""
    rows = list(reviews)
    states = {row[1]: (2, 2) for row in rows} | (queues or {})

    def edit(conn: sqlite3.Connection) -> None:
        if loose:
            conn.execute("DROP TABLE revlog")
            conn.execute(
                "CREATE TABLE revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
            )
        conn.executemany("INSERT INTO revlog VALUES (?, ?, 0, ?, 0, 0, 0, ?, ?)", rows)
        conn.executemany(
            "UPDATE cards SET type = ?, queue = ? WHERE id = ?",
            [(card_type, queue, card) for card, (card_type, queue) in states.items()],
        )

    return edit_collection(package, edit)


def studied_deck(folder: Path, words: int = 120) -> Path:
    """An Anki deck of `words` words ("Simulated"), each studied 3 to 10 times by the
    simulated learner (tests/study/simulated.py): for 120, 600 reviews and more besides each
    word's first, enough to fit."""
    logs = simulated_logs(words)
    notes = [([f"word{n}", f"meaning {n}"], []) for n in range(len(logs))]
    package = make_apkg({"Simulated": notes})
    ids = card_ids(package)
    rows = [
        (at.at + n, ids[(f"word{n}", 0)], int(grade), 5_000, 0 if i == 0 else 1)
        for n, log in enumerate(logs)
        for i, (grade, at) in enumerate(log)
    ]
    path = folder / "studied.apkg"
    path.write_bytes(with_revlog(package, rows))
    return path
