"""index.html fetches at once the scripts PyScript would otherwise load one after another, and
the files it fetches only once Pyodide is up (the config's [files] and the main script).

The list names PyScript's hashed chunks, so it is checked against a real start: every script
the page loads from the vendored runtime before it is ready is preloaded (an upgrade that
renames or adds a chunk fails here), and every preload is used, once (none is fetched for
nothing, and none twice for a request that did not match).
"""

from __future__ import annotations

from playwright.sync_api import Page

VENDOR = "/static/vendor/"


def test_every_runtime_script_a_start_loads_is_preloaded_and_every_preload_is_used(
    app: Page,
) -> None:
    loaded = set(
        app.evaluate(
            """(vendor) => performance.getEntriesByType("resource")
                .map((e) => new URL(e.name).pathname)
                .filter((p) => p.includes(vendor) && /\\.m?js$/.test(p))""",
            VENDOR,
        )
    )
    preloaded = set(
        app.evaluate(
            """() => [...document.querySelectorAll('link[rel="modulepreload"]')]
                .map((link) => new URL(link.href).pathname)"""
        )
    )
    entry = "/static/vendor/pyscript/core.js"  # the page's own <script>, not a preload
    assert preloaded, "index.html preloads nothing"
    assert loaded - {entry} == preloaded


def test_every_fetch_preload_is_used_once(app: Page) -> None:
    counts = app.evaluate(
        """() => {
            const fetched = performance.getEntriesByType("resource")
                .map((e) => new URL(e.name).pathname);
            return [...document.querySelectorAll('link[rel="preload"][as="fetch"]')]
                .map((link) => new URL(link.href).pathname)
                .map((path) => [path, fetched.filter((p) => p === path).length]);
        }"""
    )
    paths = {path for path, _ in counts}
    assert {"/pyscript.toml", "/static/build/app.zip", "/app/main.py"} <= paths
    # None unused, and a second fetch would mean the preload's request did not match.
    assert [c for c in counts if c[1] != 1] == []
