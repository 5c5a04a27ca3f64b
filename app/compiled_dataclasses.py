"""The methods `@dataclass` writes, compiled ahead of time as every module of app.zip is.

A dataclass writes the source of its methods (`__init__`, `__repr__`, `__eq__`, …) as the class
is made, and compiles it there: for the 38 classes the first screen makes, about 100 ms of a
cold start in the browser, where Python's compiler still runs unoptimised WebAssembly.
scripts/build.py runs the vendored Pyodide once, records the code that each of the app's
dataclasses compiles, and ships it in app.zip beside this module, one file per module
(`METHODS/<module>.marshal`: the sha256 of each source to its code). `install()` makes
`dataclasses` run that code whenever the source it wrote is the same; anything else (a class
changed since the build, a module without the file, running from the sources) compiles as
before (decision 029).
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
from types import CodeType
from typing import Any

from app.shipped import beside

METHODS = "dataclass_methods"  # the folder beside this module that the build writes


class CompiledMethods:
    """Stands in for `exec` inside `dataclasses`, which hands it the source of a class's
    methods with that class's module's globals."""

    def __init__(self) -> None:
        self._modules: dict[str, dict[bytes, CodeType]] = {}
        self.compiled_here: list[str] = []  # the modules whose source had no code shipped

    def __call__(self, source: str, namespace: dict[str, Any], local: dict[str, Any], /) -> None:
        module = str(namespace.get("__name__", ""))
        shipped = self._shipped(module)  # the packages' modules have none: no digest then
        code = shipped.get(source_key(source)) if shipped else None
        if code is None:
            self.compiled_here.append(module)
        exec(code if code is not None else source, namespace, local)

    def _shipped(self, module: str) -> dict[bytes, CodeType]:
        if module not in self._modules:
            data = beside(__spec__, f"{METHODS}/{module}.marshal") if module else None
            try:
                self._modules[module] = marshal.loads(data) if data is not None else {}
            except (ValueError, EOFError, TypeError):  # not this Python's: compile instead
                self._modules[module] = {}
        return self._modules[module]


def source_key(source: str) -> bytes:
    """What the shipped code is found by: the source's digest, a fraction of its size."""
    return hashlib.sha256(source.encode()).digest()


def install() -> CompiledMethods:
    """Have every dataclass made from now on use the shipped code where there is some."""
    methods = CompiledMethods()
    dataclasses.exec = methods  # type: ignore[attr-defined]
    return methods
