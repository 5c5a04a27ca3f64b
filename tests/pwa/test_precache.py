"""The service worker's precache list is derived from the files, its version from their bytes."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from scripts.precache import (
    PrecacheError,
    boot_files,
    loaded_packages,
    own_files,
    version,
    write,
)

INDEX = """<!doctype html><html><head>
<link rel="stylesheet" href="./static/app.css">
<link rel="icon" href="./static/icon.svg">
<link rel="manifest" href="./manifest.webmanifest">
<link rel="preconnect" href="https://provider.example">
<script src="./static/theme.js"></script>
<script type="module" src="./static/vendor/pyscript/core.js"></script>
</head><body><a href="#/">Home</a><img src="data:image/png;base64,AA==" alt="">
<script type="py" src="./app/main.py" config="./pyscript.toml"></script>
</body></html>"""

# PyScript's dist: its entry, the core chunk, plugins, the TOML parser, and the editor's
# chunks, which load only for a <py-editor>. All of them are kept, whoever imports them.
PYSCRIPT_DIST = ("core.js", "core-1.js", "error-1.js", "toml-1.js", "editor-1.js", "xterm.css")

PYODIDE_LOCK = {
    "packages": {
        "pydantic": {"file_name": "pydantic-2.whl", "depends": ["pydantic-core"]},
        "pydantic-core": {"file_name": "pydantic_core-2.whl", "depends": []},
        "mistune": {"file_name": "mistune-3.whl", "depends": []},
        "micropip": {"file_name": "micropip-0.whl", "depends": []},
    }
}


def put(root: Path, name: str, text: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    put(tmp_path, "index.html", INDEX)
    put(tmp_path, "sw.js", "// worker")
    for name in ("static/app.css", "static/icon.svg", "static/theme.js", "static/build/app.zip"):
        put(tmp_path, name, name)
    icons = [{"src": "static/build/icons/icon-192.png", "sizes": "192x192"}]
    put(tmp_path, "manifest.webmanifest", json.dumps({"name": "Lexical", "icons": icons}))
    put(tmp_path, "static/build/icons/icon-192.png", "png")
    put(
        tmp_path,
        "pyscript.toml",
        'interpreter = "./static/vendor/pyodide/pyodide.mjs"\n'
        '[files]\n"./static/build/app.zip" = "./*"\n',
    )
    put(tmp_path, "app/main.py", "import js\n")
    put(tmp_path, "app/browser/packages.py", 'BASE = ["pydantic", "mistune"]\nSTUDY = []\n')
    for name in PYSCRIPT_DIST:
        put(tmp_path, f"static/vendor/pyscript/{name}", name)
    runtime = ["pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json"]
    npm = [
        {"name": "@pyscript/core", "to": "static/vendor/pyscript"},
        {"name": "pyodide", "to": "static/vendor/pyodide", "only": runtime},
    ]
    put(tmp_path, "vendor.lock.json", json.dumps({"npm": npm}))
    for name in (*runtime[:2], "pydantic-2.whl", "pydantic_core-2.whl", "mistune-3.whl"):
        put(tmp_path, f"static/vendor/pyodide/{name}", name)
    put(tmp_path, "static/vendor/pyodide/micropip-0.whl", "not loaded at startup")
    put(tmp_path, "static/vendor/pyodide/pyodide-lock.json", json.dumps(PYODIDE_LOCK))
    return tmp_path


def test_the_list_is_what_the_page_loads_with_every_file_of_the_runtime_packages(
    site: Path,
) -> None:
    pyscript, pyodide = "static/vendor/pyscript/", "static/vendor/pyodide/"
    assert boot_files(site) == sorted(
        [
            "index.html",
            "manifest.webmanifest",
            "pyscript.toml",
            "app/main.py",
            "static/app.css",
            "static/icon.svg",
            "static/theme.js",
            "static/build/app.zip",
            "static/build/icons/icon-192.png",
            *(pyscript + m for m in PYSCRIPT_DIST),
            *(pyodide + f for f in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json")),
            *(pyodide + f for f in ("pydantic-2.whl", "pydantic_core-2.whl", "mistune-3.whl")),
        ]
    )


def test_a_chunk_new_in_pyscript_is_kept_whatever_its_name_and_whoever_loads_it(
    site: Path,
) -> None:
    put(site, "static/vendor/pyscript/plugins/speech-Zq81.js", "export default 1;")
    assert "static/vendor/pyscript/plugins/speech-Zq81.js" in boot_files(site)


def test_our_own_scripts_are_kept_though_the_page_loads_them_only_when_needed(
    site: Path,
) -> None:
    put(site, "static/charts.js", "export const draw = 1;")
    put(site, "static/vendor/.stamp", "vendor.py's stamp, not a runtime file")
    assert "static/charts.js" in own_files(site)
    assert "static/charts.js" in boot_files(site)
    assert "static/vendor/.stamp" not in boot_files(site)


@pytest.mark.parametrize(
    ("missing", "named"),
    [
        ("static/app.css", r"index\.html needs static/app\.css"),
        (
            "static/vendor/pyodide/pyodide.asm.wasm",
            r"vendor\.lock\.json needs .*pyodide\.asm\.wasm",
        ),
        ("static/vendor/pyodide/mistune-3.whl", r"pyodide-lock\.json needs .*mistune-3\.whl"),
    ],
)
def test_a_missing_file_stops_the_build_and_is_named(site: Path, missing: str, named: str) -> None:
    (site / missing).unlink()
    with pytest.raises(PrecacheError, match=named):
        boot_files(site)


def test_a_package_not_laid_out_stops_the_build(site: Path) -> None:
    lock = json.loads((site / "vendor.lock.json").read_text())
    lock["npm"].append({"name": "plot", "to": "static/vendor/plot"})
    put(site, "vendor.lock.json", json.dumps(lock))
    with pytest.raises(PrecacheError, match=r"static/vendor/plot has no files"):
        boot_files(site)


def test_a_package_the_app_loads_must_be_in_pyodides_lock(site: Path) -> None:
    put(site, "app/browser/packages.py", 'BASE = ["pydantic"]\nSTUDY = ["numpy"]\n')
    with pytest.raises(PrecacheError, match="numpy"):
        boot_files(site)


def test_a_reference_outside_the_site_is_refused(site: Path) -> None:
    put(site, "index.html", INDEX.replace("./static/app.css", "../../etc/passwd"))
    with pytest.raises(PrecacheError, match="outside the site"):
        boot_files(site)


def test_the_packages_come_from_the_lists_in_app_browser_packages_py(site: Path) -> None:
    module = site / "app" / "browser" / "packages.py"
    assert loaded_packages(module) == {"BASE": ["pydantic", "mistune"], "STUDY": []}
    put(site, "app/browser/packages.py", "import js\n")
    with pytest.raises(PrecacheError, match="BASE"):
        loaded_packages(module)


def test_the_real_packages_py_names_its_packages() -> None:
    module = Path(__file__).resolve().parents[2] / "app" / "browser" / "packages.py"
    assert loaded_packages(module) == {
        "BASE": ["pydantic-core"],
        "STUDY": ["fsrs"],
        "QR": ["segno"],
    }


def test_the_version_follows_the_bytes_of_the_files_and_the_worker(site: Path) -> None:
    files = boot_files(site)
    first = version(site, files)
    assert version(site, files) == first
    put(site, "static/app.css", "changed")
    second = version(site, files)
    put(site, "sw.js", "// new worker code")
    assert len({first, second, version(site, files)}) == 3


def test_the_worker_gets_the_list_and_version_as_a_script(site: Path) -> None:
    text = write(site).read_text()
    prefix = "self.LEXICAL_PRECACHE = "
    payload = json.loads(text[text.index(prefix) + len(prefix) :].rstrip().removesuffix(";"))
    assert payload["version"] == version(site, boot_files(site))
    assert payload["files"] == [f"./{name}" for name in boot_files(site)]


def test_the_scripts_app_browser_imports_later_are_ours_and_not_loaded_at_startup() -> None:
    root = Path(__file__).resolve().parents[2]
    named = {
        node.value
        for path in (root / "app" / "browser").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"\./static/\S+\.m?js", node.value)
    }
    assert {"./static/charts.js", "./static/visualiser.js"} <= named
    page = (root / "index.html").read_text()
    for url in named:
        assert url.removeprefix("./") in own_files(root)
        assert url not in page
