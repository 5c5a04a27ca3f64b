"""Fetch, verify and lay out every runtime file Lexical serves (PyScript, Pyodide, wheels).

Everything comes through the ordinary clients (`npm pack`, `pip download`) and is checked
against the sha256 recorded in vendor.lock.json before it is used. The wheels are placed
beside Pyodide and registered in its pyodide-lock.json, so `loadPackage` installs them
offline with Pyodide's own integrity check. Re-running is cheap: a stamp of the lock file
skips work that is already done.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from pycompile import compile_trees, zip_tree  # scripts/ is on the path when run as a script

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "vendor.lock.json"
CACHE = ROOT / ".cache" / "vendor"
STAMP = ROOT / "static" / "vendor" / ".stamp"
# Bumped when the layout of static/vendor changes for the same lock (e.g. compiled wheels).
LAYOUT = "pyc-2"
SITE_PACKAGES = "/lib/python3.14/site-packages"  # where Pyodide installs them, for tracebacks
STDLIB_ZIP = "python_stdlib.zip"
STDLIB_IN_BROWSER = "/lib/python314.zip"  # where Pyodide puts it; imported from in place


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verified(path: Path, expected: str) -> Path:
    actual = sha256(path)
    if actual != expected:
        path.unlink()
        sys.exit(f"vendor: {path.name} has sha256 {actual}, lock says {expected}; refusing it")
    return path


def npm_tarball(name: str, version: str, expected: str) -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    filename = f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    target = CACHE / filename
    if not target.exists():
        subprocess.run(
            ["npm", "pack", f"{name}@{version}", "--pack-destination", str(CACHE), "--silent"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return verified(target, expected)


def unpack_npm(entry: dict[str, Any]) -> None:
    tarball = npm_tarball(entry["name"], entry["version"], entry["sha256"])
    dest = ROOT / entry["to"]
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    prefix = entry["from"].rstrip("/") + "/"
    only = set(entry.get("only", []))
    skip = tuple(entry.get("skip_suffixes", []))
    with tarfile.open(tarball) as archive:
        for member in archive.getmembers():
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            relative = member.name[len(prefix) :]
            if (only and relative not in only) or (skip and relative.endswith(skip)):
                continue
            source = archive.extractfile(member)
            assert source is not None
            out = dest / relative
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(source.read())


def bundle(entry: dict[str, Any]) -> None:
    """One ES module from several verified npm packages, bundled by esbuild (a dev tool pinned
    by package-lock.json; never shipped): the packages are laid out as a node_modules folder
    beside the entry, so only these tarballs are what gets bundled."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for package in entry["packages"]:
            tarball = npm_tarball(package["name"], package["version"], package["sha256"])
            dest = work / "node_modules" / package["name"]
            with tarfile.open(tarball) as archive:
                for member in archive.getmembers():
                    if member.isfile() and member.name.startswith("package/"):
                        source = archive.extractfile(member)
                        assert source is not None
                        out = dest / member.name[len("package/") :]
                        out.parent.mkdir(parents=True, exist_ok=True)
                        out.write_bytes(source.read())
        source_entry = work / Path(entry["entry"]).name
        shutil.copyfile(ROOT / entry["entry"], source_entry)
        target = ROOT / entry["to"]
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                str(ROOT / "node_modules" / ".bin" / "esbuild"),
                str(source_entry),
                *("--bundle", "--format=esm", "--platform=browser", "--minify"),
                f"--outfile={target}",
                "--log-level=warning",
            ],
            check=True,
        )


def wheel(spec: dict[str, Any], platform: list[str]) -> Path:
    target = CACHE / spec["file"]
    if not target.exists():
        subprocess.run(
            [
                *(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"),
                *("--only-binary=:all:", *platform, "-d", str(CACHE)),
                f"{spec['name']}=={spec['version']}",
            ],
            check=True,
        )
    return verified(target, spec["sha256"])


def lock_entry(spec: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    entry = dict(previous or {})
    entry.update(
        name=spec["name"],
        version=spec["version"],
        file_name=spec["file"],
        sha256=spec["sha256"],
        imports=spec["imports"],
        depends=spec["depends"],
        install_dir="site",
        package_type="package",
        unvendored_tests=False,
        shared_library=False,
    )
    return entry


def place_wheels(section: dict[str, Any]) -> None:
    """Ship each verified wheel with its modules compiled for Pyodide added (pycompile.py),
    and record the shipped file's sha256 in Pyodide's lock, which loadPackage checks."""
    dest = ROOT / section["to"]
    lock_path = dest / "pyodide-lock.json"
    pyodide_lock = json.loads(lock_path.read_text())
    packages = pyodide_lock["packages"]
    with tempfile.TemporaryDirectory() as tmp:
        trees = {spec["file"]: Path(tmp) / spec["name"] for spec in section["packages"]}
        for spec in section["packages"]:
            with zipfile.ZipFile(wheel(spec, section["pip_platform"])) as archive:
                archive.extractall(trees[spec["file"]])
        compile_trees([(tree, SITE_PACKAGES) for tree in trees.values()])
        for spec in section["packages"]:
            shipped = dest / spec["file"]
            zip_tree(trees[spec["file"]], shipped, names_from=trees[spec["file"]])
            entry = lock_entry(spec, packages.get(spec["name"]))
            packages[spec["name"]] = {**entry, "sha256": sha256(shipped)}
    lock_path.write_text(json.dumps(pyodide_lock, indent=1, sort_keys=True))


def compile_stdlib(pyodide_dir: Path) -> None:
    """Add each standard library module's bytecode beside its source in Pyodide's
    python_stdlib.zip. Pyodide ships the sources alone, so every page load compiled again
    each standard module that Pyodide's own start and the app import (time to ready went
    from 2.7 to 1.4 s warm, decision 001); zipimport reads a `x.pyc` beside `x.py`, as for
    app.zip (pycompile.py)."""
    archive = pyodide_dir / STDLIB_ZIP
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        with zipfile.ZipFile(archive) as stdlib:
            stdlib.extractall(tree)
        compile_trees([(tree, STDLIB_IN_BROWSER)], beside_sources=True)
        zip_tree(tree, archive, names_from=tree)


def main() -> None:
    lock_text = LOCK.read_text()
    lock_digest = hashlib.sha256((lock_text + LAYOUT).encode()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == lock_digest:
        return
    lock = json.loads(lock_text)
    for entry in lock["npm"]:
        unpack_npm(entry)
        if entry["name"] == "pyodide":
            compile_stdlib(ROOT / entry["to"])
    for entry in lock.get("bundles", []):
        bundle(entry)
    place_wheels(lock["wheels"])
    STAMP.write_text(lock_digest)
    print("vendor: runtime files fetched and verified")


if __name__ == "__main__":
    main()
