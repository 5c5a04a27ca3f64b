"""Small Anki packages for the tests, made with genanki (which writes legacy `collection.anki2`
packages), plus the variants genanki cannot make: `collection.anki21`, and the newer
zstd-compressed `collection.anki21b` with Anki's "please update" stand-in collection."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

import genanki

MODEL = genanki.Model(
    1607392319,
    "Vocabulary",
    fields=[{"name": "Word"}, {"name": "Meaning"}, {"name": "Example"}],
    templates=[
        {"name": "Card 1", "qfmt": "{{Word}}", "afmt": "{{FrontSide}}<hr id=answer>{{Meaning}}"}
    ],
)
Notes = dict[str, list[tuple[list[str], list[str]]]]  # deck name -> (fields, tags) per note
UPDATE_NOTE = "Please update to the latest Anki version, then import the .colpkg/.apkg file again."


def make_apkg(decks: Notes, media: dict[str, bytes] | None = None) -> bytes:
    """An .apkg with one deck per entry of `decks` and the given media files."""
    with tempfile.TemporaryDirectory() as tmp:
        package_decks = []
        for number, (name, notes) in enumerate(decks.items()):
            deck = genanki.Deck(2059400110 + number, name)
            for fields, tags in notes:
                padded = [*fields, "", ""][:3]
                deck.add_note(genanki.Note(model=MODEL, fields=padded, tags=tags))
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
