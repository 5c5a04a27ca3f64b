"""Pyodide's JS API object (`pyodide_js`): Lexical loads packages with it and hands its file
system to static/working_copy.js."""

from typing import Any

FS: Any

def loadPackage(
    names: list[str], *, checkIntegrity: bool = ..., errorCallback: Any = ...
) -> Any: ...
