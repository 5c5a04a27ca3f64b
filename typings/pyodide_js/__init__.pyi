"""Pyodide's JS API object (`pyodide_js`): Lexical only loads packages with it."""

from typing import Any

def loadPackage(
    names: list[str], *, checkIntegrity: bool = ..., errorCallback: Any = ...
) -> Any: ...
