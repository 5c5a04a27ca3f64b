"""The service worker's precache list is derived from the files, its version from their bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.precache import (
    LATER_MODULE,
    PrecacheError,
    boot_files,
    boot_packages,
    later_modules,
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

MODULES = {
    # The entry re-exports the core chunk, which loads plugins and the TOML parser at startup
    # and the editor only when a page has one.
    "core.js": 'export{a}from"./core-1.js";',
    "core-1.js": (
        'import{u}from"./util-1.js";const p={error:()=>import("./error-1.js")};'
        'const t=async()=>(await import("./toml-1.js")).parse;'
        'const e=()=>import("./editor-1.js");'
    ),
    "util-1.js": "export const u=1;",
    "error-1.js": 'import{a}from"./core-1.js";',
    "toml-1.js": "export const parse=1;",
    "editor-1.js": 'import"./codemirror-1.js";',
    "codemirror-1.js": "",
}

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
    put(tmp_path, "app/main.py", 'await pyodide_js.loadPackage(["pydantic", "mistune"])\n')
    for name, text in MODULES.items():
        put(tmp_path, f"static/vendor/pyscript/{name}", text)
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


def test_the_list_is_what_the_page_loads_at_startup(site: Path) -> None:
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
            *(pyscript + m for m in ("core.js", "core-1.js", "util-1.js", "error-1.js")),
            pyscript + "toml-1.js",
            *(pyodide + f for f in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json")),
            *(pyodide + f for f in ("pydantic-2.whl", "pydantic_core-2.whl", "mistune-3.whl")),
        ]
    )


def test_a_missing_file_stops_the_build_and_is_named(site: Path) -> None:
    (site / "static/vendor/pyscript/util-1.js").unlink()
    with pytest.raises(PrecacheError, match=r"core-1\.js needs static/vendor/pyscript/util-1\.js"):
        boot_files(site)


def test_a_reference_outside_the_site_is_refused(site: Path) -> None:
    put(site, "static/theme.js", 'import "../../../etc/passwd";')
    with pytest.raises(PrecacheError, match="outside the site"):
        boot_files(site)


def test_the_startup_packages_come_from_main_py(site: Path) -> None:
    assert boot_packages(site / "app" / "main.py") == ["pydantic", "mistune"]
    put(site, "app/main.py", "import js\n")
    with pytest.raises(PrecacheError, match="loadPackage"):
        boot_packages(site / "app" / "main.py")


def test_the_real_main_py_names_its_packages() -> None:
    main = Path(__file__).resolve().parents[2] / "app" / "main.py"
    assert boot_packages(main) == ["pydantic", "mistune"]


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


def test_scripts_the_browser_code_imports_later_are_kept_with_all_they_load(site: Path) -> None:
    put(site, "app/browser/charts.py", 'MODULE = "./static/charts.js"\n')
    put(
        site,
        "static/charts.js",
        'import { ease } from "./ease.js";\n'
        'const sheet = new URL("./vendor/plot/plot.css", import.meta.url);\n'
        'const plot = () => import("./vendor/plot/plot.js");\n',
    )
    for name in ("static/ease.js", "static/vendor/plot/plot.css"):
        put(site, name, "")
    put(site, "static/vendor/plot/plot.js", 'import "./plot-core.js";')
    put(site, "static/vendor/plot/plot-core.js", "")
    later = {
        "static/charts.js",
        "static/ease.js",
        "static/vendor/plot/plot.css",
        "static/vendor/plot/plot.js",
        "static/vendor/plot/plot-core.js",
    }
    assert later_modules(site) == later
    assert later <= set(boot_files(site))
    (site / "static/vendor/plot/plot.css").unlink()
    with pytest.raises(PrecacheError, match=r"static/charts\.js needs .*plot\.css"):
        later_modules(site)


@pytest.mark.parametrize("script", ["charts.js", "visualiser.js"])
def test_scripts_loaded_later_are_kept_for_offline_use_but_not_loaded_at_startup(
    script: str,
) -> None:
    root = Path(__file__).resolve().parents[2]
    page = (root / "index.html").read_text()
    assert script not in page
    assert "uplot" not in page.lower()
    assert f"./static/{script}" in {
        url
        for path in (root / "app" / "browser").glob("*.py")
        for url in LATER_MODULE.findall(path.read_text())
    }
