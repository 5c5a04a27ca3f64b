"""Every JavaScript file of ours is valid (node --check), whatever the e2e tests cover: the
page's scripts, the modules app/browser/ loads later, and the e2e tests' browser doubles."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted([*ROOT.glob("static/*.js"), *ROOT.glob("e2e/*.js")])


def test_the_scripts_are_found() -> None:
    names = {path.name for path in SCRIPTS}
    assert {"charts.js", "visualiser.js", "recognition_double.js"} <= names


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_it_parses(script: Path) -> None:
    result = subprocess.run(
        ["node", "--check", "--input-type=module"],
        input=script.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
