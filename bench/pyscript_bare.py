"""The second startup baseline of `make bench`: PyScript starting the vendored Pyodide, then the
packages app/main.py loads, then data-ready (bench/pyscript_bare.html)."""

# PyScript runs this file with top-level await (a plain script cannot): so can the checker.
# mypy: disable-error-code="top-level-await"

import js
import pyodide_js
from pyodide.ffi import to_js

js.performance.mark("bare:runtime")  # for the bench's breakdown: runtime ready, packages next
packages = js.URLSearchParams.new(js.location.search).get("packages") or ""
await pyodide_js.loadPackage(to_js(packages.split(",")), checkIntegrity=True)  # noqa: F704, PLE1142
js.document.documentElement.dataset.ready = "true"
