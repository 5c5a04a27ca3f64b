"""The registry: schemas both providers accept, and argument errors a model can act on."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from app.tools import TOOLS
from app.tools.registry import PORTABLE_KEYS, BadArguments

ISSUE_TOOLS = {
    *("CREATE_FOLDER", "ADD_WORD", "BULK_ADD_WORDS", "DELETE_ITEM", "RENAME_ITEM", "MOVE_ITEM"),
    *("UPDATE_FOLDER_METADATA", "UPDATE_WORD_METADATA", "CREATE_NOTE", "UPDATE_NOTE"),
    *("NAVIGATE_TO", "GET_FOLDER_STRUCTURE", "SEARCH_FOLDERS"),
}


def _keys(schema: Any) -> set[str]:
    """Every schema keyword used anywhere (argument names under "properties" excluded)."""
    if isinstance(schema, list):
        return set().union(*map(_keys, schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        nested = value.values() if key == "properties" else [value]
        for item in nested:
            found |= _keys(item)
    return found


def test_the_registry_has_every_tool_the_issue_names_plus_read_tools() -> None:
    assert set(TOOLS.names) >= ISSUE_TOOLS
    assert {"SEARCH_WORDS", "GET_WORD", "LIST_WORDS"} <= set(TOOLS.only("read").names)
    assert all(re.fullmatch(r"[A-Z_]{1,64}", name) for name in TOOLS.names)


@pytest.mark.parametrize("name", TOOLS.names)
def test_every_schema_is_portable_and_described(name: str) -> None:
    spec = TOOLS.get(name).spec()  # type: ignore[union-attr]
    schema = spec.parameters
    assert len(spec.description) > 20
    assert schema["type"] == "object"
    assert _keys(schema) <= PORTABLE_KEYS
    assert all(p.get("description") for p in schema["properties"].values())
    assert set(schema.get("required", [])) <= set(schema["properties"])
    json.dumps(schema)


def test_nested_models_are_inlined_and_optional_fields_are_plain() -> None:
    bulk = TOOLS.get("BULK_ADD_WORDS").spec().parameters  # type: ignore[union-attr]
    entry = bulk["properties"]["words"]["items"]
    assert entry["properties"]["term"]["type"] == "string"
    assert entry["required"] == ["term"]
    assert bulk["properties"]["words"]["maxItems"] == 200
    update = TOOLS.get("UPDATE_FOLDER_METADATA").spec().parameters  # type: ignore[union-attr]
    assert update["properties"]["color"]["enum"][0] == "none"
    assert update["required"] == ["folder"]


def test_only_keeps_the_kinds_asked_for() -> None:
    reads = TOOLS.only("read")
    assert "DELETE_ITEM" not in reads
    assert "GET_WORD" in reads
    assert all(TOOLS.get(n).kind == "read" for n in reads.names)  # type: ignore[union-attr]
    assert len(TOOLS.only("read", "write", "destructive")) == len(TOOLS)


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        (
            "BULK_ADD_WORDS",
            {"folder": "A", "words": [{"term": "a"}, {"term": "b"}, {"term": "  "}]},
            "words[2].term: must not be empty",
        ),
        ("CREATE_FOLDER", {"name": "A", "colour": "red"}, "colour: unknown argument"),
        ("ADD_WORD", {"term": "a"}, "folder: missing (required)"),
        ("CREATE_FOLDER", {"name": "A", "color": "mauve"}, "color: Input should be 'none'"),
        ("BULK_ADD_WORDS", {"folder": "A", "words": []}, "words: List should have at least 1"),
        ("GET_FOLDER_STRUCTURE", {"depth": 99}, "depth: Input should be less than or equal"),
        ("CREATE_FOLDER", {"name": "a\x00b"}, "name: must be one line"),
    ],
)
def test_bad_arguments_name_each_problem(
    name: str, arguments: dict[str, Any], message: str
) -> None:
    tool = TOOLS.get(name)
    assert tool is not None
    with pytest.raises(BadArguments) as caught:
        tool.parse(arguments)
    assert message in caught.value.problems
    assert caught.value.tool == name
