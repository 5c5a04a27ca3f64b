"""A new collection's database comes from the image the build ships in app.zip, and it is the
schema the migrations make (app/store/empty_image.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from app.store import Store, empty_image
from app.store.migrations import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"

# What a start from app.zip sees: the image beside the module, read through zipimport.
FROM_ZIP = f"""
import json, sys
from app.store import Store, empty_image
store = Store.new()
print(json.dumps({{
    "shipped": empty_image.shipped() is not None,
    "origin": empty_image.__spec__.origin,
    "version": store.schema_version,
    "schema": [list(r) for r in store._db.all({SCHEMA!r})],
}}))
"""


def _schema(store: Store) -> list[list[str]]:
    return [list(row) for row in store._db.all(SCHEMA)]


def test_from_the_sources_there_is_no_image_and_the_schema_is_created() -> None:
    assert empty_image.shipped() is None
    store = Store.new()
    assert store.schema_version == SCHEMA_VERSION
    assert _schema(store) == _schema(Store.open())


def test_from_a_zip_the_image_beside_the_module_is_opened(tmp_path: Path) -> None:
    archive = tmp_path / "app.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted((ROOT / "app").rglob("*.py")):
            zipped.write(path, path.relative_to(ROOT).as_posix())
        # A marker table shows the store came from this image and not from the migrations.
        marked = Store.open()
        marked._db.execute("CREATE TABLE from_the_image (x)")
        zipped.writestr(f"app/store/{empty_image.NAME}", marked.snapshot())
    run = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(archive)!r})\n{FROM_ZIP}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(run.stdout)
    assert found["shipped"]
    assert found["origin"].startswith(str(archive))
    assert found["version"] == SCHEMA_VERSION
    assert ["table", "from_the_image", "CREATE TABLE from_the_image (x)"] in found["schema"]
    assert [r for r in found["schema"] if r[1] != "from_the_image"] == _schema(Store.open())
