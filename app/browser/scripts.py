"""Import the app's own ES modules (static/*.js) when a page first needs them, once each.

Such modules load on first use, so startup never pays for them; scripts/precache.py keeps every
file of static/ for offline use, these included.
"""

from __future__ import annotations

from typing import Any

import js

_loaded: dict[str, Any] = {}  # url -> the imported module, once its import succeeded


async def import_script(url: str) -> Any:
    """The module at `url` (relative to the page, e.g. "./static/charts.js"). A failed import
    raises JsException and is tried again next time (offline and not cached yet)."""
    if url not in _loaded:
        # import() is syntax, not a function Python can call; CSP allows it ('unsafe-eval').
        # An absolute URL, since a relative one would resolve against Pyodide's own script.
        importer = js.Function.new("url", "return import(url)")
        _loaded[url] = await importer(js.URL.new(url, js.document.baseURI).href)
    return _loaded[url]
