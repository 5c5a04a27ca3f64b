"""What the import contracts in pyproject.toml cannot check (`make lint` runs them with
lint-imports; decision 020): that the browser-free contract names every core package, that every
module says what it is for, and that the first screen imports nothing that can wait.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"


def test_the_browser_free_contract_names_every_core_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [contract] = [c for c in config["contracts"] if c["id"] == "browser-free-core"]
    packages = {p.stem for p in APP.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    core = {f"app.{name}" for name in packages - {"__init__", "browser", "main"}}
    assert set(contract["source_modules"]) == core


def test_every_module_says_what_it_is_for() -> None:
    missing = [str(p) for p in APP.rglob("*.py") if not ast.get_docstring(ast.parse(p.read_text()))]
    assert missing == []


# What the first screen must not import: the AI layer, the import/export readers and the
# Markdown parser are loaded when first used, which keeps them out of the startup time that
# `make bench` measures (docs/benchmarks.md).
LATER = (
    *("app.agents", "app.llm", "app.tools", "app.browser.assistant", "mistune", "html"),
    # Studying loads py-fsrs when it starts; the stats page and its charts when it opens.
    *("fsrs", "app.study.scheduler", "app.studying.session", "app.studying.stats"),
    *("app.study.grading", "app.ui.study_view", "app.ui.study_summary_view"),
    "app.ui.study_dialogs",
    # Validation: read models are plain dataclasses and the log is checked by hand, so pydantic
    # and everything validated with it load after the first screen (decision 025).
    *("pydantic", "app.inputs", "app.study.options", "app.store.conversations"),
    "app.store.study",
    *("app.store.stats_queries", "app.ui.stats_view", "app.ui.stats_charts", "app.browser.charts"),
)
STARTUP_IMPORTS = """
import sys
from unittest.mock import MagicMock
for name in ("js", "pyodide", "pyodide.ffi", "pyodide_js"):
    sys.modules[name] = MagicMock()  # the browser, as far as importing needs
import app.browser.session
print("\\n".join(sorted(sys.modules)))
"""


def _startup_imports() -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", STARTUP_IMPORTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.split()


def test_the_first_screen_imports_nothing_that_can_wait() -> None:
    loaded = _startup_imports()
    assert "app.browser.session" in loaded
    assert [m for m in loaded if m in LATER or m.startswith(tuple(f"{x}." for x in LATER))] == []
    readers = [m for m in loaded if m.startswith("app.store.transfer.")]
    assert readers == ["app.store.transfer.steps"]  # only the progress type the page shows


def test_the_first_screen_imports_only_the_standard_library_and_the_app() -> None:
    # app/main.py loads the packages while the first screen is being made (decision 026): a
    # module of theirs imported before then would race their installation.
    tops = {m.split(".")[0] for m in _startup_imports()}
    # The doubles of the browser, the script itself, and setuptools' hook in a virtualenv.
    runner = {"js", "pyodide", "pyodide_js", "__main__", "_distutils_hack"}
    assert sorted(tops - runner - {"app"} - sys.stdlib_module_names) == []
