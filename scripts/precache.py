"""Work out which files Lexical needs to start, and write them out for the service worker.

The list is derived from the files themselves, never kept by hand, so it cannot drift:
- index.html: every file it links or loads (styles, scripts, icons, the manifest, the Python
  entry point and the PyScript config);
- the manifest: its icons;
- scripts: their static imports, followed through the module graph; from those modules, the
  dynamic imports PyScript makes at startup: its plugins (chunks that import the module
  back) and the parser of our config format (TOML). The editor and terminal chunks
  (CodeMirror, xterm) load only for <py-editor> or a terminal, which Lexical has none of;
- pyscript.toml: the interpreter and every [files] entry (the app's zip);
- Pyodide: the runtime files vendor.lock.json lays out, and the wheels of the packages
  app/main.py loads (and those app/browser/ loads when first needed, such as py-fsrs for
  studying), with their dependencies as recorded in the vendored pyodide-lock.json;
- our scripts that app/browser/ imports when first needed (static/charts.js for the stats
  page's charts), with every module they import and every file they load by URL (uPlot and
  its stylesheet): kept for offline use, never loaded at startup.
The cache version is a hash of those files' contents and of the worker's code, so any change
to either makes browsers install the new version.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

WORKER = "sw.js"
OUTPUT = "static/build/precache.js"
STATIC_IMPORT = re.compile(r"""\b(?:from|import)\s*["'](\.{1,2}/[^"']+)["']""")
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")
URL_ATTRIBUTES = {"script": ("src", "config"), "link": ("href",), "img": ("src",)}
# A file a module loads by its own URL, e.g. a stylesheet: new URL("./x.css", import.meta.url).
MODULE_ASSET = re.compile(r"""\bnew\s+URL\(\s*["'](\.{1,2}/[^"']+)["']\s*,\s*import\.meta\.url""")
# Our script that Python code in app/browser/ imports when a page first needs it.
LATER_MODULE = re.compile(r"""["'](\./static/[^"'\s]+\.m?js)["']""")


class PrecacheError(RuntimeError):
    """A file the app needs at startup is missing, or its entry point cannot be read."""


class _References(HTMLParser):
    """Collects the local URLs a page loads through its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.manifests: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in URL_ATTRIBUTES.get(tag, ()):
            url = values.get(name)
            if url and not re.match(r"[a-z][a-z0-9+.-]*:|#|//", url):
                self.urls.append(url)
                if tag == "link" and values.get("rel") == "manifest":
                    self.manifests.append(url)


def _local(root: Path, base: str, url: str) -> str:
    """`url` as a path relative to `root`, resolved against the file `base` refers from."""
    joined = PurePosixPath(base).parent / re.split(r"[?#]", url, maxsplit=1)[0]
    parts: list[str] = []
    for part in joined.parts:
        if part == "..":
            if not parts:
                raise PrecacheError(f"{base} refers outside the site: {url}")
            parts.pop()
        elif part != ".":
            parts.append(part)
    path = "/".join(parts)
    if not (root / path).is_file():
        raise PrecacheError(f"{base} needs {path}, which does not exist (run `make vendor build`)")
    return path


def _imports(root: Path, module: str, pattern: re.Pattern[str]) -> set[str]:
    text = (root / module).read_text(encoding="utf-8")
    return {_local(root, module, url) for url in pattern.findall(text)}


def _static_closure(root: Path, modules: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = sorted(modules)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(root, module, STATIC_IMPORT) - seen)
    return seen


def script_modules(root: Path, entries: set[str], config_format: str) -> set[str]:
    """Entry scripts, their static imports and the chunks PyScript imports at startup."""
    modules = _static_closure(root, entries)
    for module in sorted(modules):
        for chunk in _imports(root, module, DYNAMIC_IMPORT):
            is_plugin = module in _imports(root, chunk, STATIC_IMPORT)
            if is_plugin or PurePosixPath(chunk).name.startswith(config_format + "-"):
                modules |= _static_closure(root, {chunk})
    return modules


def _loaded_lists(path: Path) -> list[list[str]]:
    """The literal package lists a module hands to Pyodide's loadPackage."""
    return [
        [ast.literal_eval(item) for item in node.args[0].elts]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "loadPackage"
        and node.args
        and isinstance(node.args[0], ast.List)
    ]


def boot_packages(main: Path) -> list[str]:
    """The package names app/main.py hands to Pyodide's loadPackage at startup."""
    lists = _loaded_lists(main)
    if not lists:
        raise PrecacheError(f"{main} has no loadPackage([...]) call listing the startup packages")
    return lists[0]


def later_packages(browser: Path) -> list[str]:
    """Packages the browser layer loads when first needed (py-fsrs for studying): not loaded
    at startup, but kept for offline use like everything else."""
    return [
        name
        for path in sorted(browser.glob("*.py"))
        for names in _loaded_lists(path)
        for name in names
    ]


def later_modules(root: Path) -> set[str]:
    """Scripts app/browser/ imports when first needed, with what they import (statically or
    not: all of it loads once the script is used) and the files they load by URL."""
    todo = sorted(
        _local(root, "index.html", url)
        for path in sorted((root / "app" / "browser").glob("*.py"))
        for url in LATER_MODULE.findall(path.read_text(encoding="utf-8"))
    )
    files: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in files:
            files.add(module)
            files |= _imports(root, module, MODULE_ASSET)
            loaded = _imports(root, module, STATIC_IMPORT) | _imports(root, module, DYNAMIC_IMPORT)
            todo.extend(sorted(loaded - files))
    return files


def pyodide_files(root: Path, interpreter: str, packages: list[str]) -> set[str]:
    """The runtime files vendored for Pyodide, and the wheels `packages` pull in."""
    folder = PurePosixPath(interpreter).parent
    vendored = json.loads((root / "vendor.lock.json").read_text(encoding="utf-8"))
    runtime = [e for e in vendored["npm"] if PurePosixPath(e["to"]) == folder]
    if len(runtime) != 1:
        raise PrecacheError(f"vendor.lock.json lays out nothing into {folder}")
    files = {_local(root, interpreter, name) for name in runtime[0]["only"]}
    lock = json.loads((root / folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    todo, seen = list(packages), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            entry = lock["packages"][name]
            files.add(_local(root, interpreter, entry["file_name"]))
            todo.extend(entry["depends"])
    return files


def boot_files(root: Path) -> list[str]:
    """Every file the page loads to start, as paths relative to the site root."""
    page = _References()
    page.feed((root / "index.html").read_text(encoding="utf-8"))
    files = {"index.html"} | {_local(root, "index.html", url) for url in page.urls}
    for manifest in page.manifests:
        path = _local(root, "index.html", manifest)
        icons = json.loads((root / path).read_text(encoding="utf-8")).get("icons", [])
        files |= {_local(root, path, icon["src"]) for icon in icons}
    configs = [f for f in files if f.endswith(".toml")]
    if len(configs) != 1:
        raise PrecacheError("index.html must load exactly one PyScript config (a .toml file)")
    config = tomllib.loads((root / configs[0]).read_text(encoding="utf-8"))
    interpreter = _local(root, configs[0], config["interpreter"])
    files |= {_local(root, configs[0], url) for url in config.get("files", {})}
    scripts = {f for f in files if f.endswith((".js", ".mjs"))}
    files |= script_modules(root, scripts, "toml")
    packages = boot_packages(root / "app" / "main.py") + later_packages(root / "app" / "browser")
    files |= pyodide_files(root, interpreter, packages)
    files |= later_modules(root)
    return sorted(files)


def version(root: Path, files: list[str]) -> str:
    """A short content hash of the boot files and the worker: it names the cache."""
    digest = hashlib.sha256((root / WORKER).read_bytes())
    for name in files:
        digest.update(f"\0{name}\0".encode())
        digest.update(hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def write(root: Path) -> Path:
    """Write the precache list and version the service worker imports."""
    files = boot_files(root)
    manifest = {"version": version(root, files), "files": [f"./{f}" for f in files]}
    target = root / OUTPUT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        "// Generated by scripts/build.py (scripts/precache.py) from the files; do not edit.\n"
        f"self.LEXICAL_PRECACHE = {json.dumps(manifest, indent=1)};\n",
        encoding="utf-8",
    )
    return target
