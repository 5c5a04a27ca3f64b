"""dist/: exactly the files the app needs, pre-compressed copies of the large ones, kept up to
date without compressing again what did not change; and the nginx config that serves it."""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import pytest

from scripts import dist, precache
from tests.pwa.test_precache import put, site

__all__ = ["site"]  # the fake site of test_precache.py, as a fixture here too

ROOT = Path(__file__).resolve().parents[2]
NGINX = (ROOT / "deploy" / "nginx.conf").read_text()
RUNTIME = "static/vendor/pyodide/pyodide.asm.wasm"


@pytest.fixture
def built(site: Path) -> Path:
    put(site, RUNTIME, "\0asm" + "wasm " * 1000)  # big enough to be worth a copy
    precache.write(site)
    return site


def test_it_holds_the_precached_files_the_worker_and_copies_of_the_large_ones(
    built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    kept = dist.write(built, out)
    files = [*precache.boot_files(built), "sw.js", "static/build/precache.js"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == kept
    assert set(kept) == {*files, f"{RUNTIME}.gz", f"{RUNTIME}.br"}
    assert gzip.decompress((out / f"{RUNTIME}.gz").read_bytes()) == (built / RUNTIME).read_bytes()
    assert "vendor.lock.json" not in kept  # the sources and tools stay behind


def test_a_second_run_compresses_only_what_changed_and_drops_what_went(
    built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    dist.write(built, out)
    copies = out / f"{RUNTIME}.gz", out / f"{RUNTIME}.br"
    # Dated so that they are newer than their file, and recognisable if left alone.
    os.utime(out / RUNTIME, (1000, 1000))
    for copy in copies:
        os.utime(copy, (2000, 2000))
    put(out, "static/old-version.js", "no longer part of the app")
    dist.write(built, out)
    assert [copy.stat().st_mtime for copy in copies] == [2000, 2000]
    assert not (out / "static/old-version.js").exists()

    put(built, RUNTIME, "\0asm" + "new wasm " * 1000)
    precache.write(built)
    dist.write(built, out)
    assert all(copy.stat().st_mtime > 2000 for copy in copies)
    assert gzip.decompress(copies[0].read_bytes()) == (built / RUNTIME).read_bytes()


def test_a_site_built_from_other_files_is_refused(built: Path, tmp_path: Path) -> None:
    put(built, "static/app.css", "changed after the build")
    with pytest.raises(dist.DistError, match="make build"):
        dist.write(built, tmp_path / "dist")


def test_nginx_sends_the_page_s_own_policy_and_forbids_framing() -> None:
    page = (ROOT / "index.html").read_text()
    meta = re.search(r'Content-Security-Policy" content="([^"]+)"', page)
    header = re.search(r'add_header Content-Security-Policy "([^"]+)" always;', NGINX)
    assert meta
    assert header
    assert header.group(1) == meta.group(1) + "; frame-ancestors 'none'"


def test_nginx_keeps_only_the_names_with_a_content_hash_for_a_year() -> None:
    found = re.search(r'location ~ "([^"]+)"', NGINX)
    assert found
    hashed = re.compile(found.group(1))
    for name in ("core-C9KDLldu.js", "codemirror_lang-python-r-dBg-Wd.js", "toml-V4Savzlc.js"):
        assert hashed.search(f"/lexical/static/vendor/pyscript/{name}"), name
    # Names that stay from one version to the next, and one an upgrade could bring.
    for name in ("core.js", "storage.js", "service-worker.js", "py-terminal.js"):
        assert not hashed.search(f"/lexical/static/vendor/pyscript/{name}"), name
    assert not hashed.search("/lexical/static/vendor/pyodide/pyodide.asm.wasm")
