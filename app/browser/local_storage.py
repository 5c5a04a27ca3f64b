"""Small values kept in the browser's localStorage (settings, remembered choices), read and
written so that blocked storage (private mode, a policy) only means they are not kept: reads
find nothing and writes are dropped, never an error."""

from __future__ import annotations

import contextlib

import js

from app.ui.mapping_memory import MappingMemory

MAPPINGS_KEY = "lexical-import-mappings"


def get(name: str) -> str | None:
    try:
        value = js.localStorage.getItem(name)
    except Exception:
        return None
    return value if isinstance(value, str) else None


def put(name: str, value: str | None) -> None:
    """Store `value` under `name`, or remove it (None)."""
    with contextlib.suppress(Exception):
        if value is None:
            js.localStorage.removeItem(name)
        else:
            js.localStorage.setItem(name, value)


def mapping_memory() -> MappingMemory:
    """The import field mappings the user chose, kept on this device."""
    return MappingMemory(lambda: get(MAPPINGS_KEY), lambda text: put(MAPPINGS_KEY, text))
