"""The browser's working copy (static/working_copy.js, app/browser/working_copy.py) in the real
runtime: the vendored Pyodide under Node, its SQLite writing through MEMFS (decision 035).

An image taken before edits reads back the database of that moment, byte for byte, however the
edits land between its pieces (rewritten pages, a file grown and truncated back by a rollback);
a loaded buffer becomes the file without a copy and keeps its room through growth and
rollbacks; and the database never enters WebAssembly's memory.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "static" / "vendor" / "pyodide"

HARNESS = """
const [indexURL, root] = process.argv.slice(1);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const pyodide = await loadPyodide({ indexURL });
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, "/repo");
await pyodide.loadPackage(["pydantic", "mistune"], { messageCallback() {} });
globalThis.workingCopyScript = await import(root + "/static/working_copy.js");
globalThis.wasmBytes = () => pyodide._module.HEAPU8.length;
try {
  pyodide.runPython("import sys; sys.path.insert(0, '/repo'); import e2e.working_copy_scenario");
  console.log(globalThis.workingCopyResult);
} catch (error) {
  console.error(String(error.message ?? error).slice(-3000)); // not the minified source line
  process.exit(1);
}
"""


def _scenario() -> dict[str, Any]:
    if shutil.which("node") is None:
        pytest.skip("needs Node")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", HARNESS, f"{PYODIDE}/", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def scenario() -> dict[str, Any]:
    return _scenario()


def test_an_image_reads_back_the_moment_it_was_taken(scenario: dict[str, Any]) -> None:
    assert scenario["image_when_placed"] == scenario["bytes_before_edits"]
    assert scenario["image_before_edits"] == scenario["bytes_before_edits"]
    assert scenario["image_after_edits"] == scenario["bytes_after_edits"]
    assert scenario["bytes_before_edits"] != scenario["bytes_after_edits"]
    assert scenario["pieces_kept_by_writes"] > 0  # the edits did land in unread pieces
    assert scenario["restored_words"] == scenario["words_before_edits"]


def test_a_loaded_buffer_is_the_file_and_keeps_its_room(scenario: dict[str, Any]) -> None:
    assert scenario["file_is_the_buffer"]
    assert scenario["buffer_kept_after_growth"]
    assert scenario["buffer_kept_after_rollback"]
    assert scenario["size_during_turn"] > scenario["size_before_rollback"]  # it grew, then
    assert scenario["size_after_rollback"] == scenario["size_before_rollback"]  # was cut back
    assert scenario["rolled_back_cleanly"]


def test_the_database_stays_out_of_webassembly_memory(scenario: dict[str, Any]) -> None:
    # The database is several times bigger than what Pyodide's memory grew by meanwhile.
    assert scenario["database_bytes"] > 4 * scenario["wasm_growth_bytes"]
