"""Work out which files Lexical needs, and write them out for the service worker.

The list is derived from the files themselves, never kept by hand, so it cannot drift:
- index.html: every file it links or loads (styles, scripts, icons, the manifest, the Python
  entry point and the PyScript config);
- the manifest: its icons; pyscript.toml: the interpreter and every [files] entry (the app's
  zip);
- our own files in static/ (not its vendor/ and build/ folders), all of them: the scripts the
  page loads, and those app/browser/ imports when first needed (static/charts.js for the stats
  page, static/visualiser.js for the microphone, static/vad.js with its worklet and worker for
  voice activity detection);
- the runtime packages vendor.lock.json lays out with npm, as their files: each entry's `only`
  list (Pyodide's runtime files, uPlot, onnxruntime-web's wasm backend and the Silero VAD
  model) or, without one, every file vendor.py unpacked from
  the package (PyScript's whole dist: every chunk its bundle can load, whatever it is named
  and whoever loads it, so an upgrade that splits the bundle differently misses none);
- the wheels of the packages app/browser/packages.py loads after the first screen and when
  first needed (py-fsrs for studying), with their dependencies as recorded in the vendored
  pyodide-lock.json;
- the modules vendor.lock.json's "bundles" make (Yjs and its websocket provider, loaded only
  when sync is turned on).
The cache version is a hash of those files' contents and of the worker's code, so any change
to either makes browsers install the new version.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Any

WORKER = "sw.js"
OUTPUT = "static/build/precache.js"
URL_ATTRIBUTES = {"script": ("src", "config"), "link": ("href",), "img": ("src",)}
LOCK = "vendor.lock.json"
PACKAGES = "app/browser/packages.py"  # what the app loads with loadPackage


class PrecacheError(RuntimeError):
    """A file the app needs is missing, or its entry point cannot be read."""


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


def loaded_packages(module: Path) -> dict[str, list[str]]:
    """The package lists app/browser/packages.py hands to Pyodide's loadPackage, by name: BASE
    right after the first screen, STUDY when studying first needs it."""
    lists = {
        node.targets[0].id: [ast.literal_eval(item) for item in node.value.elts]
        for node in ast.parse(module.read_text(encoding="utf-8")).body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.List)
    }
    if "BASE" not in lists:
        raise PrecacheError(f"{module} has no BASE list of the packages the app loads")
    return lists


def own_files(root: Path) -> set[str]:
    """Our files in static/: each is loaded by the page or by app/browser/ when first needed."""
    return {
        path.relative_to(root).as_posix() for path in (root / "static").iterdir() if path.is_file()
    }


def package_files(root: Path) -> set[str]:
    """The files of every runtime package vendor.lock.json lays out with npm."""
    files: set[str] = set()
    for entry in json.loads((root / LOCK).read_text(encoding="utf-8"))["npm"]:
        folder = root / entry["to"]
        if "only" in entry:
            files |= {_local(root, LOCK, f"{entry['to']}/{name}") for name in entry["only"]}
            continue
        found = {p.relative_to(root).as_posix() for p in folder.rglob("*") if p.is_file()}
        if not found:
            raise PrecacheError(f"{entry['to']} has no files (run `make vendor`)")
        files |= found
    for entry in json.loads((root / LOCK).read_text(encoding="utf-8")).get("bundles", []):
        files.add(_local(root, LOCK, entry["to"]))
    return files


def dependencies(lock: dict[str, Any], packages: Iterable[str]) -> set[str]:
    """`packages` and all they depend on, as Pyodide's lock (its "packages" table) records."""
    todo, seen = list(packages), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            if name not in lock:
                raise PrecacheError(f"the app loads {name}, which Pyodide's lock does not have")
            todo.extend(lock[name]["depends"])
    return seen


def wheel_files(root: Path, interpreter: str, packages: list[str]) -> set[str]:
    """The wheels of `packages` and of all they depend on, beside Pyodide's own lock."""
    lock_name = f"{PurePosixPath(interpreter).parent}/pyodide-lock.json"
    lock = json.loads((root / lock_name).read_text(encoding="utf-8"))["packages"]
    return {
        _local(root, lock_name, lock[name]["file_name"]) for name in dependencies(lock, packages)
    }


def boot_files(root: Path) -> list[str]:
    """Every file the app needs to start and to work offline, relative to the site root."""
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
    files |= {interpreter} | {_local(root, configs[0], url) for url in config.get("files", {})}
    packages = [name for names in loaded_packages(root / PACKAGES).values() for name in names]
    files |= own_files(root) | package_files(root) | wheel_files(root, interpreter, packages)
    return sorted(files)


def version(root: Path, files: list[str]) -> str:
    """A short content hash of the listed files and the worker: it names the cache."""
    digest = hashlib.sha256((root / WORKER).read_bytes())
    for name in files:
        digest.update(f"\0{name}\0".encode())
        digest.update(hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def render(root: Path) -> str:
    """The precache list and version the service worker imports, as the script it imports."""
    files = boot_files(root)
    manifest = {"version": version(root, files), "files": [f"./{f}" for f in files]}
    return (
        "// Generated by scripts/build.py (scripts/precache.py) from the files; do not edit.\n"
        f"self.LEXICAL_PRECACHE = {json.dumps(manifest, indent=1)};\n"
    )


def write(root: Path) -> Path:
    """Write the precache list and version the service worker imports."""
    target = root / OUTPUT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(root), encoding="utf-8")
    return target
