"""Small settings in localStorage; blocked storage means they last for the tab, not an error."""

from __future__ import annotations

import js

from app.browser.local_storage import get, mapping_memory, put
from app.store.transfer.records import TableMapping
from tests.browser.fakes import Storage


def test_values_are_kept_and_removed() -> None:
    put("lexical-theme", "dark")
    assert get("lexical-theme") == "dark"
    put("lexical-theme", None)
    assert get("lexical-theme") is None
    assert get("never-set") is None  # JS null, not the string "null"


def test_blocked_storage_is_quiet() -> None:
    js.localStorage = Storage(blocked=True)
    put("lexical-theme", "dark")  # no exception reaches the page
    assert get("lexical-theme") is None


def test_import_mappings_are_remembered_on_this_device() -> None:
    mapping_memory().remember("Basic", TableMapping(("term", "meanings"), header=True))
    assert mapping_memory().recall("Basic") == TableMapping(("term", "meanings"), header=True)


def test_import_mappings_are_not_kept_and_not_an_error_when_storage_is_blocked() -> None:
    js.localStorage = Storage(blocked=True)
    mapping_memory().remember("Basic", TableMapping(("term", "meanings")))
    assert mapping_memory().recall("Basic") is None
