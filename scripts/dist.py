"""Write dist/: the one folder any static https host serves Lexical from (`make dist`).

It holds exactly what the app needs to run, and nothing of its sources or tools: the files the
service worker precaches (scripts/precache.py derives them from index.html, the manifest,
pyscript.toml, static/, the vendored runtime and the wheels the app loads), the worker itself
and its precache list. Every file keeps its path, and every reference between them is relative
(`./static/...`), so the folder works at a host's root and under any sub-path (`/lexical/`, as
GitHub and GitLab project pages serve it) alike (docs/decisions/038).

Beside each large text or WebAssembly file it writes `<file>.gz` (and `<file>.br`, with Node's
own brotli) for hosts that serve pre-compressed copies; hosts that ignore them serve the file.
The folder is brought up to date, not rewritten: a file whose bytes did not change keeps its
compressed copies (brotli at its best takes about a minute for the runtime's WebAssembly), and
whatever the app no longer needs is removed. `--root` and `--out` pick another site and folder
(the publish test deploys a changed build over the folder it serves).
"""

from __future__ import annotations

import argparse
import filecmp
import gzip
import shutil
import subprocess
import sys
from pathlib import Path

from scripts import precache

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BROTLI = ROOT / "scripts" / "brotli.mjs"
# Text and WebAssembly shrink to a quarter or so; zips, wheels and PNGs are deflated already
# (gzip saves 1-3 % of them), so they get no copies.
COMPRESSED_SUFFIXES = {
    ".css", ".html", ".js", ".json", ".mjs", ".onnx", ".py", ".svg", ".toml", ".wasm",
    ".webmanifest",
}  # fmt: skip
MIN_COMPRESSED_BYTES = 1024  # below this a copy saves less than a request's headers
ENCODINGS = (".gz", ".br")


class DistError(RuntimeError):
    """The site is not built, or not built from its current files."""


def site_files(root: Path) -> list[str]:
    """Every file dist/ holds, relative to the site: the precache, the worker and its list."""
    return sorted({*precache.boot_files(root), precache.WORKER, precache.OUTPUT})


def _compressible(path: Path) -> bool:
    return path.suffix in COMPRESSED_SUFFIXES and path.stat().st_size >= MIN_COMPRESSED_BYTES


def _stale(copy: Path, source: Path) -> bool:
    return not copy.exists() or copy.stat().st_mtime < source.stat().st_mtime


def _gzip(source: Path) -> None:
    # Level 9 and no timestamp: the same file always gives the same bytes.
    partial = source.with_name(source.name + ".gz.tmp")
    partial.write_bytes(gzip.compress(source.read_bytes(), compresslevel=9, mtime=0))
    partial.replace(source.with_name(source.name + ".gz"))


def _brotli(sources: list[Path]) -> None:
    if sources:
        node = shutil.which("node") or sys.exit("dist: Node.js is needed for the brotli copies")
        subprocess.run([node, str(BROTLI), *map(str, sources)], check=True)


def write(root: Path = ROOT, target: Path = DIST) -> list[str]:
    """Bring `target` up to date with the site at `root`; the files it holds, relative to it."""
    if (root / precache.OUTPUT).read_text(encoding="utf-8") != precache.render(root):
        raise DistError(f"{precache.OUTPUT} is not from the current files: run `make build`")
    files = site_files(root)
    for name in files:
        source, copy = root / name, target / name
        if not (copy.is_file() and filecmp.cmp(source, copy, shallow=False)):
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)  # a new mtime: older compressed copies are stale
    compressed = [name for name in files if _compressible(target / name)]
    for name in compressed:
        if _stale(target / f"{name}.gz", target / name):
            _gzip(target / name)
    _brotli([target / name for name in compressed if _stale(target / f"{name}.br", target / name)])
    kept = {*files, *(name + encoding for name in compressed for encoding in ENCODINGS)}
    _remove_all_but(target, kept)
    return sorted(kept)


def _remove_all_but(target: Path, kept: set[str]) -> None:
    for path in sorted(target.rglob("*"), reverse=True):  # a folder's files before the folder
        if path.is_dir():
            if not any(path.iterdir()):
                path.rmdir()
        elif path.relative_to(target).as_posix() not in kept:
            path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="the built site")
    parser.add_argument("--out", type=Path, default=DIST, help="the folder to write")
    args = parser.parse_args()
    try:
        kept = write(args.root.resolve(), args.out.resolve())
    except (DistError, precache.PrecacheError) as error:
        sys.exit(f"dist: {error}")
    size = sum((args.out / name).stat().st_size for name in kept if not name.endswith(ENCODINGS))
    print(f"dist: {len(kept)} files in {args.out} ({size / 1e6:.1f} MB before compression)")


if __name__ == "__main__":
    main()
