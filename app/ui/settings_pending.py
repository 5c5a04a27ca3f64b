"""A Test key or Save waiting for the one reload that lets the page reach a newly chosen server.

The page may connect only to the servers the user saved (decision 022), and a page's policy
cannot be widened once it runs. So when the AI settings name a server this page may not
reach, the dialog's fields (the typed key among them, since a key kept only in memory would
not survive) are kept in the tab's sessionStorage, the page reloads allowing that server once,
and the dialog comes back and does what was asked. Reading forgives: anything damaged is None.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Then = Literal["test", "save"]
PENDING_KEY = "lexical-ai-pending"


@dataclass(frozen=True)
class PendingSettings:
    then: Then
    fields: Mapping[str, str]

    def text(self) -> str:
        return json.dumps({"then": self.then, "fields": dict(self.fields)})

    @classmethod
    def parsed(cls, text: str | None) -> PendingSettings | None:
        try:
            data = json.loads(text) if text else None
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        then, fields = data.get("then"), data.get("fields")
        if then not in ("test", "save") or not isinstance(fields, dict):
            return None
        clean = {k: v for k, v in fields.items() if isinstance(k, str) and isinstance(v, str)}
        return cls("test" if then == "test" else "save", clean)
