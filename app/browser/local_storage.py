"""Small values kept in the browser's localStorage (settings, remembered choices), or for one
tab in its sessionStorage, read and written so that blocked storage (private mode, a policy)
only means they are not kept: reads find nothing and writes are dropped, never an error."""

from __future__ import annotations

import contextlib
from typing import Any

import js

from app.ui.mapping_memory import MappingMemory

MAPPINGS_KEY = "lexical-import-mappings"


def _area(session: bool) -> Any:
    return js.sessionStorage if session else js.localStorage


def get(name: str, *, session: bool = False) -> str | None:
    try:
        value = _area(session).getItem(name)
    except Exception:
        return None
    return value if isinstance(value, str) else None


def put(name: str, value: str | None, *, session: bool = False) -> None:
    """Store `value` under `name`, or remove it (None); `session`: for this tab only."""
    with contextlib.suppress(Exception):
        if value is None:
            _area(session).removeItem(name)
        else:
            _area(session).setItem(name, value)


def take(name: str, *, session: bool = False) -> str | None:
    """The value under `name`, removed as it is read (for what is meant to be used once)."""
    value = get(name, session=session)
    put(name, None, session=session)
    return value


def mapping_memory() -> MappingMemory:
    """The import field mappings the user chose, kept on this device."""
    return MappingMemory(lambda: get(MAPPINGS_KEY), lambda text: put(MAPPINGS_KEY, text))
