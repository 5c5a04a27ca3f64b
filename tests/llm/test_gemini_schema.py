"""Pydantic's JSON schemas become Gemini's Schema subset, or fail loudly where they cannot."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from app.llm.gemini_schema import UnsupportedSchemaError, function_parameters
from tests.llm.conformance import assert_gemini_request
from tests.llm.samples import AddWords, NoArguments


def declared(model: type[BaseModel]) -> dict[str, Any]:
    parameters = function_parameters(model.model_json_schema())
    assert parameters is not None
    assert_gemini_request(
        {"tools": [{"functionDeclarations": [{"name": "T", "parameters": parameters}]}]}
    )
    return parameters


def test_references_are_inlined_and_null_options_become_nullable() -> None:
    schema = declared(AddWords)
    meanings = schema["properties"]["meanings"]["items"]
    assert meanings["type"] == "OBJECT"
    assert meanings["required"] == ["text"]
    assert meanings["properties"]["example"] == {
        "description": "An example sentence",
        "type": "STRING",
        "nullable": True,
    }
    assert schema["properties"]["language"] == {
        "pattern": "^[a-z]{2}$",
        "type": "STRING",
        "nullable": True,
    }
    assert schema["properties"]["words"] == {
        "minItems": 1,
        "maxItems": 50,
        "type": "ARRAY",
        "items": {"type": "STRING"},
    }


def test_keys_gemini_does_not_take_are_gone_everywhere() -> None:
    text = repr(declared(AddWords))
    for key in ("$ref", "$defs", "title", "default", "additionalProperties", "anyOf", "'null'"):
        assert key not in text


class Kind(BaseModel):
    kind: Literal["folder"] = "folder"
    size: Literal[1, 2]
    when: str = Field(json_schema_extra={"format": "date-time"})
    link: str = Field(json_schema_extra={"format": "uri"})
    ratio: float | int
    tags: list[str] | None = None


def test_literals_become_string_enums_and_unknown_formats_are_dropped() -> None:
    properties = declared(Kind)["properties"]
    assert properties["kind"] == {"type": "STRING", "enum": ["folder"]}
    assert properties["size"] == {"type": "STRING", "enum": ["1", "2"]}
    assert properties["when"] == {"type": "STRING", "format": "date-time"}
    assert properties["link"] == {"type": "STRING"}
    assert properties["ratio"] == {"anyOf": [{"type": "NUMBER"}, {"type": "INTEGER"}]}
    assert properties["tags"] == {"type": "ARRAY", "items": {"type": "STRING"}, "nullable": True}


def test_a_type_list_with_null_keeps_the_rest_of_the_node() -> None:
    schema = {
        "type": "object",
        "properties": {"xs": {"type": ["array", "null"], "items": {"type": "integer"}}},
    }
    assert function_parameters(schema) == {
        "type": "OBJECT",
        "properties": {"xs": {"type": "ARRAY", "items": {"type": "INTEGER"}, "nullable": True}},
    }


def test_all_of_is_merged_and_required_names_must_exist() -> None:
    schema = {
        "type": "object",
        "$defs": {"Id": {"type": "integer", "minimum": 1}},
        "properties": {"id": {"allOf": [{"$ref": "#/$defs/Id"}], "description": "The id"}},
        "required": ["id", "ghost"],
    }
    assert function_parameters(schema) == {
        "type": "OBJECT",
        "properties": {"id": {"description": "The id", "minimum": 1, "type": "INTEGER"}},
        "required": ["id"],
    }


def test_a_tool_without_arguments_declares_no_parameters() -> None:
    assert function_parameters(NoArguments.model_json_schema()) is None


class Tree(BaseModel):
    name: str
    children: list[Tree] = []


class Loose(BaseModel):
    extra: dict[str, str]


@pytest.mark.parametrize("model", [Tree, Loose])
def test_what_gemini_cannot_express_fails_when_the_tool_is_declared(model: type[BaseModel]) -> None:
    with pytest.raises(UnsupportedSchemaError):
        function_parameters(model.model_json_schema())


def test_parameters_must_be_an_object() -> None:
    with pytest.raises(UnsupportedSchemaError):
        function_parameters({"type": "string"})
