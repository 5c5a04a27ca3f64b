import sys, types
from unittest.mock import MagicMock
for name in ("js", "pyodide", "pyodide.ffi", "pyodide_js", "pyodide.http"):
    sys.modules[name] = MagicMock()
import app.browser.session
