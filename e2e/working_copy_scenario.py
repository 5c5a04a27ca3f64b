"""Run by e2e/test_working_copy.py inside the vendored Pyodide under Node: a working copy placed
from a loaded buffer, imaged, edited between the image's pieces, grown and rolled back. What it
saw goes to `workingCopyResult` as JSON for the test to judge."""

from __future__ import annotations

import contextlib
import hashlib
import json
from typing import Any

import js
import pyodide_js
from pyodide.ffi import to_js

from app.browser.working_copy import BrowserCopies, BufferImage, capacity
from app.inputs import NewFolder, NewWord, WordPatch
from app.store import Store
from app.store.results import BulkRow
from app.store.working_copy import PIECE_BYTES, Image, piece_count


class RefusedError(Exception):
    """Ends an undo step part way, as a failed agent turn does."""


def digest(image: Image | Any, count: int) -> str:
    checksum = hashlib.sha256()
    for index in range(count):
        piece = image.piece(index)
        checksum.update(piece if isinstance(piece, bytes) else piece.to_bytes())
    return checksum.hexdigest()


def node(store: Store) -> Any:
    return pyodide_js.FS.lookupPath(store.path).node


source = Store.open()
folder = source.create_folder(NewFolder(name="Words"))
rows = [
    BulkRow(line=i, term=f"word {i}", meanings=[f"meaning {i} " + "x" * 1500], status="ok")
    for i in range(12_000)
]
source.bulk_add(folder.id, rows)
data = source.snapshot()
source.close()
wasm_before = int(js.wasmBytes())

buffer = js.Uint8Array.new(capacity(len(data)))
buffer.set(to_js(data))
copies = BrowserCopies(js.workingCopyScript)
store = copies.open(BufferImage(buffer, len(data)))
image = copies.image(store)
pieces = piece_count(image)
result: dict[str, object] = {
    "database_bytes": len(data),
    "file_is_the_buffer": bool(js.Object.is_(node(store).contents, buffer)),
    "bytes_before_edits": hashlib.sha256(data).hexdigest(),
    "image_when_placed": digest(image, pieces),
    "wasm_growth_bytes": int(js.wasmBytes()) - wasm_before,
}
image.close()
del data

raw = js.workingCopyScript.image(pyodide_js.FS, store.path, PIECE_BYTES)
first = raw.piece(0)
ids = [word.id for word in store.words(folder.id, 0, 12_000)[::9]]
for word_id in ids:  # pages all through the file, read and unread pieces alike
    store.update_word(word_id, WordPatch(meanings=["changed " + "y" * 300]))
store.add_word(NewWord(folder_id=folder.id, term="grown", meanings=["past the end"]))
result["pieces_kept_by_writes"] = int(raw.kept)
rest = [raw.piece(index) for index in range(1, pieces)]
raw.close()
before = b"".join(piece.to_bytes() for piece in [first, *rest])
result["image_before_edits"] = hashlib.sha256(before).hexdigest()
result["words_before_edits"] = len(rows)
result["restored_words"] = Store.from_snapshot(before).word_count(folder.id)
result["buffer_kept_after_growth"] = bool(js.Object.is_(node(store).contents, buffer))

size = int(node(store).usedBytes)
with contextlib.suppress(RefusedError), store.group("A turn that fails"):
    store.bulk_add(
        folder.id,
        [
            BulkRow(line=i, term=f"more {i}", meanings=["z" * 1500], status="ok")
            for i in range(1500)
        ],
    )
    result["size_during_turn"] = int(node(store).usedBytes)
    raise RefusedError
result["size_before_rollback"] = size
result["size_after_rollback"] = int(node(store).usedBytes)
result["buffer_kept_after_rollback"] = bool(js.Object.is_(node(store).contents, buffer))
result["rolled_back_cleanly"] = store.quick_check() and not store.find_words("more 1")

after = store.snapshot()
result["bytes_after_edits"] = hashlib.sha256(after).hexdigest()
image = copies.image(store)
result["image_after_edits"] = digest(image, piece_count(image))
image.close()
copies.discard(store)
js.workingCopyResult = json.dumps(result)
