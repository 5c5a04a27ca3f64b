"""Lexical published: the folder `make dist` writes, served by Debian's nginx over https under
/lexical/ (as a project page is) with the repository's own deploy/nginx.conf.

nginx runs as this user from a folder of its own (`-p`, with `daemon off;` under subprocess),
on a free loopback port, with a self-signed certificate made at test time by openssl; the
browser contexts accept it (`ignore_https_errors`), and the module's Chromium (the shared
launch, plus that certificate's key as trusted) registers a service worker from it.
Checked: the first visit starts and gets the right headers, the app is installable from the
sub-path and its worker's scope is the sub-path, it starts offline, a new deploy copied over
the served folder brings the update bar, and the page is a secure context where the
microphone would be asked for.
"""

from __future__ import annotations

import base64
import getpass
import grp
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Response, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, ROOT, _free_port, open_app, screenshot
from e2e.site_copy import copy_site, retitle
from e2e.test_offline import (
    CONTROLLED,
    WORKER_TIMEOUT_MS,
    installability_problems,
    update_banner,
)
from scripts import chromium, dist, precache

SUB_PATH = "/lexical/"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SITE_CONFIG = ROOT / "deploy" / "nginx.conf"
# Debian's libnginx-mod-http-brotli-static (`make nginx`), loaded as its modules-enabled would.
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
# What a server block around deploy/nginx.conf looks like on a host, with every path nginx
# writes in the test's own folder, so it needs no root. As root, the workers would switch to
# "nobody", who cannot read pytest's folders: they stay this user.
CONFIG = """\
{user}
load_module {brotli};
worker_processes 1;
daemon off;
pid nginx.pid;
error_log logs/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log logs/access.log;
    client_body_temp_path temp/body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {certificate};
        ssl_certificate_key {key};
        root {www};
        include {site};
    }}
}}
"""
CACHE_NONE = "no-cache"
CACHE_YEAR = "public, max-age=31536000, immutable"
REGISTRATION_SCOPE = "navigator.serviceWorker.getRegistration().then((r) => r && r.scope)"
MICROPHONE = """async () => ({
  secure: window.isSecureContext,
  getUserMedia: typeof navigator.mediaDevices?.getUserMedia,
  permission: (await navigator.permissions.query({ name: "microphone" })).state,
})"""


def _spki_hash(certificate: Path) -> str:
    """The sha256 of the certificate's public key (base64), as Chromium's flag names it."""
    pem = subprocess.run(
        ["openssl", "x509", "-pubkey", "-noout", "-in", str(certificate)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    der = base64.b64decode("".join(line for line in pem.splitlines() if "-----" not in line))
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


OPENSSL_CERTIFICATE = [
    *("openssl", "req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"),
    *("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
    *("-addext", "subjectAltName=IP:127.0.0.1"),
]


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, valid for a day."""
    certificate, key = folder / "cert.pem", folder / "key.pem"
    command = [*OPENSSL_CERTIFICATE, "-keyout", str(key), "-out", str(certificate)]
    subprocess.run(command, check=True, capture_output=True)
    return certificate, key


class Nginx:
    """nginx serving `www` (which holds the site under lexical/) on a free loopback port."""

    def __init__(self, prefix: Path, www: Path, certificate: tuple[Path, Path]) -> None:
        for folder in ("logs", "temp"):
            (prefix / folder).mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        user = ""
        if os.geteuid() == 0:
            user = f"user {getpass.getuser()} {grp.getgrgid(os.getegid()).gr_name};"
        config = prefix / "nginx.conf"
        config.write_text(
            CONFIG.format(
                user=user,
                brotli=BROTLI_MODULE,
                port=self.port,
                certificate=certificate[0],
                key=certificate[1],
                www=www,
                site=SITE_CONFIG,
            )
        )
        errors = prefix / "logs" / "error.log"  # also for what nginx says before its config
        command = [NGINX, "-p", str(prefix), "-c", str(config), "-e", str(errors)]
        subprocess.run([*command, "-t", "-q"], check=True)  # a bad config fails here, and says why
        self.process = subprocess.Popen(command)
        self.origin = f"https://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start: {errors.read_text()}")

    def stop(self) -> None:
        self.process.terminate()  # SIGTERM: nginx's fast shutdown, workers included
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def built() -> Path:
    """dist/ as `make dist` leaves it (brought up to date here: a stale one is never tested)."""
    dist.write()
    return dist.DIST


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _certificate(tmp_path_factory.mktemp("tls"))


def serve(prefix: Path, site: Path, certificate: tuple[Path, Path]) -> Iterator[Nginx]:
    """nginx serving `site` at /lexical/, stopped afterwards."""
    www = prefix / "www"
    www.mkdir(parents=True)
    (www / SUB_PATH.strip("/")).symlink_to(site, target_is_directory=True)
    server = Nginx(prefix, www, certificate)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def nginx(
    tmp_path_factory: pytest.TempPathFactory, built: Path, certificate: tuple[Path, Path]
) -> Iterator[Nginx]:
    yield from serve(tmp_path_factory.mktemp("nginx"), built, certificate)


@pytest.fixture(scope="module")
def base_url(nginx: Nginx) -> str:
    return nginx.origin


@pytest.fixture(scope="module")
def browser(playwright: Playwright, certificate: tuple[Path, Path]) -> Iterator[Browser]:
    """The shared launch, trusting this test's certificate (and no other). The contexts'
    `ignore_https_errors` lets pages load over it, but Chromium still refuses to register a
    service worker whose script came with a certificate error; named here, there is none."""
    browser = playwright.chromium.launch(
        executable_path=chromium.executable(),
        args=[
            *chromium.FLAGS,
            f"--ignore-certificate-errors-spki-list={_spki_hash(certificate[0])}",
        ],
    )
    yield browser
    browser.close()


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"ignore_https_errors": True}


def open_published(context: BrowserContext, base_url: str) -> tuple[Page, list[Response]]:
    """The app at /lexical/, with every response it gets from then on."""
    responses: list[Response] = []

    def seen(response: Response) -> None:
        responses.append(response)

    context.on("response", seen)
    return open_app(context, base_url, SUB_PATH), responses


def fetch(context: BrowserContext, url: str, encodings: str = "gzip, deflate, br") -> Response:
    return context.request.get(url, headers={"Accept-Encoding": encodings}, max_redirects=0)


def test_first_visit_gets_the_right_headers_and_can_install(
    context: BrowserContext, base_url: str, built: Path
) -> None:
    app, responses = open_published(context, base_url)
    site = base_url + SUB_PATH
    # Everything the app loaded came from under /lexical/, and came.
    assert {r.url for r in responses if not r.url.startswith(site)} == set()
    assert [r.url for r in responses if r.status >= 400] == []

    wasm = fetch(context, site + "static/vendor/pyodide/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm"
    assert wasm.headers["content-encoding"] == "br"  # the copy `make dist` wrote
    assert wasm.headers["cache-control"] == CACHE_NONE  # the same name in the next version
    gzipped = fetch(context, site + "static/vendor/pyodide/pyodide.asm.wasm", "gzip")
    assert gzipped.headers["content-encoding"] == "gzip"
    plain = fetch(context, site + "static/vendor/pyodide/pyodide.asm.wasm", "identity")
    assert "content-encoding" not in plain.headers
    assert plain.body() == (built / "static/vendor/pyodide/pyodide.asm.wasm").read_bytes()
    module = fetch(context, site + "static/vendor/pyodide/pyodide.mjs")
    assert module.headers["content-type"].startswith("text/javascript")
    worker = fetch(context, site + "sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == CACHE_NONE
    page = fetch(context, site)
    assert page.headers["cache-control"] == CACHE_NONE
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    [chunk] = re.findall(r"static/vendor/pyscript/core-\w+\.js", (built / "index.html").read_text())
    assert fetch(context, site + chunk).headers["cache-control"] == CACHE_YEAR
    bare = fetch(context, base_url + SUB_PATH.rstrip("/"))
    assert (bare.status, bare.headers["location"]) == (301, site)

    # Installable from the sub-path: the manifest is found there, and so is all it names.
    app.wait_for_function(CONTROLLED, timeout=WORKER_TIMEOUT_MS)
    screenshot(app, "published-under-a-sub-path")
    assert app.evaluate(REGISTRATION_SCOPE) == site
    assert installability_problems(context, app) == []
    devtools = context.new_cdp_session(app)
    found = devtools.send("Page.getAppManifest")
    devtools.detach()
    assert found["url"] == site + "manifest.webmanifest"
    manifest = json.loads(found["data"])
    for key in ("id", "start_url", "scope"):
        assert urljoin(found["url"], manifest[key]) == site
    for icon in manifest["icons"]:
        answer = fetch(context, urljoin(found["url"], icon["src"]))
        assert (answer.status, answer.headers["content-type"]) == (200, "image/png")

    # A secure context, so the microphone can be asked for: the browser would prompt.
    assert app.evaluate(MICROPHONE) == {
        "secure": True,
        "getUserMedia": "function",
        "permission": "prompt",
    }


def test_starts_offline_once_installed(context: BrowserContext, base_url: str) -> None:
    app, _ = open_published(context, base_url)
    app.wait_for_function(CONTROLLED, timeout=WORKER_TIMEOUT_MS)
    context.set_offline(True)
    app.reload()
    app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    assert app.evaluate("navigator.serviceWorker.controller.scriptURL") == (
        base_url + SUB_PATH + precache.WORKER
    )
    expect(app.get_by_role("status").filter(has_text=re.compile("^Offline$"))).to_be_visible()


class TestANewDeploy:
    """A copy of dist/ on a server of its own, so the test can deploy a new build over it."""

    @pytest.fixture
    def served(self, tmp_path: Path, built: Path) -> Path:
        served = tmp_path / "served"
        shutil.copytree(built, served)  # copy2: the compressed copies stay newer than their files
        return served

    @pytest.fixture
    def nginx(
        self, tmp_path: Path, served: Path, certificate: tuple[Path, Path]
    ) -> Iterator[Nginx]:
        yield from serve(tmp_path / "nginx", served, certificate)

    @pytest.fixture
    def base_url(self, nginx: Nginx) -> str:
        return nginx.origin

    def test_brings_the_update_bar(
        self, context: BrowserContext, base_url: str, served: Path, tmp_path: Path
    ) -> None:
        app, _ = open_published(context, base_url)
        app.wait_for_function(CONTROLLED, timeout=WORKER_TIMEOUT_MS)

        # A new version: a changed page, built, and written over the folder being served.
        site = copy_site(tmp_path / "site")
        retitle(site, "Lexical 2")
        precache.write(site)  # the rest of the build's output is the same as the copy's
        dist.write(site, served)
        # The app looks for a new version when the browser comes back online.
        context.set_offline(True)
        context.set_offline(False)
        expect(update_banner(app)).to_be_visible(timeout=WORKER_TIMEOUT_MS)
        update_banner(app).get_by_role("button", name="Reload").click()
        expect(app).to_have_title("Lexical 2", timeout=WORKER_TIMEOUT_MS)
        app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
        # One cache is left, named after the sub-path (another copy of Lexical on the same
        # host keeps its own).
        [cache] = app.evaluate("caches.keys()")
        assert cache.startswith(f"lexical-{SUB_PATH}:")
