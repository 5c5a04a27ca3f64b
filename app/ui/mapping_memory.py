"""The field mappings the user chose on import, remembered per layout (an Anki note type, a
CSV header), so the next deck of the same kind is mapped the same way.

They are one JSON object kept by the page where it keeps settings (`load`/`save`); what cannot
be read is forgotten rather than trusted, and only the most recent layouts are kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the import machinery loads when a file is chosen
    from app.store.transfer.records import TableMapping

KEPT = 50


class MappingMemory:
    def __init__(
        self,
        load: Callable[[], str | None] = lambda: None,
        save: Callable[[str], None] = lambda _text: None,
    ) -> None:
        self._load = load
        self._save = save

    def _entries(self) -> dict[str, Any]:
        try:
            entries = json.loads(self._load() or "{}")
        except ValueError:
            return {}
        return entries if isinstance(entries, dict) else {}

    def recall(self, key: str) -> TableMapping | None:
        from app.store.transfer.records import ROLES, TableMapping  # noqa: PLC0415

        entry = self._entries().get(key)
        if not isinstance(entry, dict):
            return None
        roles, header = entry.get("roles"), entry.get("header")
        if not isinstance(roles, list) or not all(r in ROLES for r in roles):
            return None
        return TableMapping(tuple(roles), header is True)

    def remember(self, key: str, mapping: TableMapping) -> None:
        entries = self._entries()
        entries.pop(key, None)  # moved to the end: the most recent are kept
        entries[key] = {"roles": list(mapping.roles), "header": mapping.header}
        kept = dict(list(entries.items())[-KEPT:])
        self._save(json.dumps(kept, ensure_ascii=False))
