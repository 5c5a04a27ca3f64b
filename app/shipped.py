"""Files the build ships inside app.zip beside the modules, read as the modules are.

zipimport reads files in its archive only through a module's loader; running from the sources
(the unit tests) there are no such files, and callers do without them.
"""

from __future__ import annotations

import os
from importlib.machinery import ModuleSpec


def beside(spec: ModuleSpec | None, name: str) -> bytes | None:
    """The file `name` (a path relative to the module's folder) next to the module `spec`
    describes, or None where the build did not put it."""
    if spec is None or spec.origin is None:
        return None
    get_data = getattr(spec.loader, "get_data", None)
    if get_data is None:
        return None
    try:
        return bytes(get_data(os.path.join(os.path.dirname(spec.origin), name)))
    except OSError:
        return None
