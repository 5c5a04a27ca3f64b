"""Every Python module the page may import ships compiled for the browser's Python, PyScript's
own included.

Pyodide's file system is empty at every page load, so a module without bytecode is compiled
from source on every start: for the standard library alone that was about 1.5 s of the
runtime's own start and 150 ms of the app's imports (docs/benchmarks.md). This checks the
files `make build` leaves to serve (so it lives with the tests that run after it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext

from e2e.conftest import ROOT, open_app

PYODIDE = ROOT / "static" / "vendor" / "pyodide"
TAG = "cpython-314"  # Pyodide 314's cache tag, as in the wheels' __pycache__ names


def _sources_without_bytecode(archive: Path, *, beside: bool) -> list[str]:
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
    sources = sorted(n for n in names if n.endswith(".py"))
    if beside:  # zipimport reads x.pyc next to x.py
        return [n for n in sources if n + "c" not in names]
    return [  # installed as files: __pycache__/x.cpython-314.pyc
        n
        for n in sources
        if f"{n.rpartition('/')[0]}/__pycache__/{Path(n).stem}.{TAG}.pyc".lstrip("/") not in names
    ]


def test_the_standard_library_ships_compiled() -> None:
    assert _sources_without_bytecode(PYODIDE / "python_stdlib.zip", beside=True) == []


def test_the_app_ships_compiled_except_its_top_level_await_script() -> None:
    missing = _sources_without_bytecode(ROOT / "static" / "build" / "app.zip", beside=True)
    assert missing == ["app/main.py"]  # PyScript runs it; it cannot compile on its own


def test_app_zip_holds_the_image_of_a_new_collections_database() -> None:
    # Opened from the zip as a start opens it; its schema is the one the migrations make.
    check = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from app.store import Store, empty_image\n"
        "assert empty_image.shipped() is not None\n"
        "q = 'SELECT type, name, sql FROM sqlite_master ORDER BY name'\n"
        "assert Store.new()._db.all(q) == Store.open()._db.all(q)\n"
    )
    app_zip = ROOT / "static" / "build" / "app.zip"
    subprocess.run([sys.executable, "-c", check, str(app_zip)], cwd=ROOT.parent, check=True)


def test_the_pure_python_packages_ship_compiled_in_one_zip() -> None:
    packages = ROOT / "static" / "build" / "packages.zip"
    assert _sources_without_bytecode(packages, beside=True) == []
    with zipfile.ZipFile(packages) as zipped:
        tops = {name.split("/")[0] for name in zipped.namelist()}
    modules = sorted(top for top in tops if "." not in top)
    # pydantic-core has compiled code and typing-extensions comes with it: both loadPackage'd.
    assert modules == ["annotated_types", "mistune", "pydantic", "typing_inspection"]


def test_every_wheel_ships_compiled() -> None:
    wheels = sorted(PYODIDE.glob("*.whl"))
    assert len(wheels) >= 8
    for wheel in wheels:
        assert _sources_without_bytecode(wheel, beside=False) == [], wheel.name


# PyScript's API handed over once the page has started it (importing its module any earlier
# stops PyScript from starting), for a look at the running Python.
CAPTURE_PYODIDE = """
addEventListener("DOMContentLoaded", () => {
  import("/static/vendor/pyscript/core.js").then(({ hooks }) => {
    hooks.main.onReady.add((wrap) => { window.lexicalTestPyodide = wrap.interpreter; });
  });
});
"""


def _run_in_started_page(context: BrowserContext, base_url: str, code: str) -> Any:
    """What `code` (ending in a JSON string) evaluates to in the Python of a started page."""
    context.add_init_script(CAPTURE_PYODIDE)
    page = open_app(context, base_url)
    # The packages with compiled code load after the first screen (app/browser/packages.py).
    page.wait_for_function("performance.getEntriesByName('lexical:load:pydantic-core').length > 0")
    return json.loads(page.evaluate("(code) => window.lexicalTestPyodide.runPython(code)", code))


# For every module of PyScript's package the page imported: its bytecode, and whether Python
# could use it. A checked pyc is used only when its hash is that of the source beside it.
PYSCRIPT_PYCS = """
import importlib.util, json, sys
found = {}
for name, module in sorted(sys.modules.items()):
    spec = getattr(module, "__spec__", None)
    if name.split(".")[0] != "pyscript" or spec is None or not spec.has_location:
        continue
    with open(spec.origin, "rb") as source, open(spec.cached, "rb") as compiled:
        header = compiled.read(16)
        found[name] = {
            "checked": int.from_bytes(header[4:8], "little") == 3,
            "current": header[8:16] == importlib.util.source_hash(source.read()),
        }
json.dumps(found)
"""


def test_a_start_imports_pyscripts_own_modules_from_the_shipped_bytecode(
    context: BrowserContext, base_url: str
) -> None:
    found = _run_in_started_page(context, base_url, PYSCRIPT_PYCS)
    assert len(found) >= 10, found  # pyscript and its submodules
    assert all(f == {"checked": True, "current": True} for f in found.values()), found


# Where the running page found each package, and whether any was also written out as files.
PACKAGE_ORIGINS = """
import importlib, json, os, sys
names = ("pydantic", "mistune", "annotated_types", "typing_inspection", "pydantic_core")
origins = {name: importlib.import_module(name).__spec__.origin for name in names}
site = next(p for p in sys.path if p.endswith("site-packages"))
json.dumps({"origins": origins, "site": sorted(os.listdir(site))})
"""


def test_a_start_imports_the_pure_python_packages_from_their_zip(
    context: BrowserContext, base_url: str
) -> None:
    found = _run_in_started_page(context, base_url, PACKAGE_ORIGINS)
    zipped = {name: origin for name, origin in found["origins"].items() if "packages.zip" in origin}
    assert sorted(zipped) == ["annotated_types", "mistune", "pydantic", "typing_inspection"]
    assert "/site-packages/pydantic_core/" in found["origins"]["pydantic_core"]
    assert not {"pydantic", "mistune"} & set(found["site"])  # nothing unpacked twice


def test_app_zip_ships_the_code_its_dataclasses_compile_and_a_start_uses_it(
    context: BrowserContext, base_url: str
) -> None:
    with zipfile.ZipFile(ROOT / "static" / "build" / "app.zip") as zipped:
        shipped = {n for n in zipped.namelist() if n.startswith("app/dataclass_methods/")}
    assert "app/dataclass_methods/app.domain.marshal" in shipped
    # Every dataclass of the app made so far ran shipped code, but those of the browser layer
    # (the build cannot import it without a page; none of them is made before the first
    # screen). The packages' own dataclasses compile as they always did.
    code = "import dataclasses, json; json.dumps(dataclasses.exec.compiled_here)"
    compiled_here = _run_in_started_page(context, base_url, code)
    ours = [m for m in compiled_here if m.split(".")[0] == "app"]
    assert [m for m in ours if not m.startswith("app.browser.")] == []
