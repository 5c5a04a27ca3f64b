"""The part of `pyodide.ffi` Lexical uses: crossing between Python and JS values.

Signatures follow Pyodide's own, narrowed to the arguments Lexical passes.
"""

from collections.abc import Callable, Iterable
from typing import Any, final

class JsProxy:
    """A JS object seen from Python: any attribute may exist."""

    def __getattr__(self, name: str) -> Any: ...

@final
class JsNull:
    """The type of `jsnull`, JS `null` (JS `undefined` arrives as None)."""

jsnull: JsNull

class JsException(JsProxy, Exception):
    name: str
    message: str

def create_proxy(obj: Callable[..., Any], /) -> JsProxy: ...
def create_once_callable(obj: Callable[..., Any], /) -> JsProxy: ...
def to_js(
    obj: object, /, *, dict_converter: Callable[[Iterable[Any]], Any] | None = None
) -> Any: ...
