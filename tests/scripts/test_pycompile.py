"""The zips that ship compiled code are deterministic: same files, same bytes."""

from __future__ import annotations

import zipfile
from pathlib import Path

from scripts.pycompile import zip_tree


def test_zip_tree_is_deterministic_sorted_and_relative(tmp_path: Path) -> None:
    tree = tmp_path / "app"
    for name in ("b.py", "a/__pycache__/x.cpython-314.pyc", "a/x.py"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(name)
    first, second = tmp_path / "1.zip", tmp_path / "2.zip"
    zip_tree(tree, first, names_from=tmp_path)
    (tree / "b.py").touch()  # a newer timestamp must not change the archive
    zip_tree(tree, second, names_from=tmp_path)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
    assert names == ["app/a/__pycache__/x.cpython-314.pyc", "app/a/x.py", "app/b.py"]
