"""Translate a tool's JSON schema (as pydantic writes it) into the OpenAPI subset Gemini takes.

Gemini's `functionDeclarations[].parameters` is a `Schema`, not JSON Schema: no `$ref`/`$defs`,
no `additionalProperties`, `title` or `const`, `type` is one of its enum names, enum values are
strings, `properties`/`required` only on objects, no object without properties, and a null
option is `nullable: true` rather than a `null` type. So: references are inlined, `allOf` is
merged, `anyOf`/`oneOf`/type lists lose their null branch to `nullable`, `const` becomes a
one-value enum, and keys Gemini does not know are dropped. What cannot be said in that subset
(a recursive model, a free-form object) raises `UnsupportedSchemaError`, so a tool that Gemini
could not call fails in tests, not in front of a user.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_TYPES = {
    "string": "STRING",
    "integer": "INTEGER",
    "number": "NUMBER",
    "boolean": "BOOLEAN",
    "array": "ARRAY",
    "object": "OBJECT",
}
_FORMATS = {
    "STRING": {"enum", "date-time"},
    "INTEGER": {"int32", "int64"},
    "NUMBER": {"float", "double"},
}
_COPIED = (
    "description",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
)


class UnsupportedSchemaError(ValueError):
    """The schema says something Gemini's Schema subset cannot."""


def function_parameters(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """`parameters` for one function declaration, or None for a tool without parameters
    (Gemini rejects an object schema with no properties)."""
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}
    top, _ = _resolve(schema, defs, ())
    if top.get("type", "object") != "object":
        raise UnsupportedSchemaError("a tool's parameters must be an object")
    if not top.get("properties"):
        return None
    return _convert(top, defs, ())


def _resolve(
    node: Mapping[str, Any], defs: Mapping[str, Any], seen: tuple[str, ...]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Inline `$ref` and `allOf`; sibling keys (a field's description) win over the target."""
    merged = dict(node)
    ref = merged.pop("$ref", None)
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            raise UnsupportedSchemaError(f"{name} refers to itself; Gemini cannot express that")
        if name not in defs:
            raise UnsupportedSchemaError(f"unknown reference {ref}")
        target, seen = _resolve(defs[name], defs, (*seen, name))
        merged = {**target, **merged}
    for part in merged.pop("allOf", []):
        resolved, seen = _resolve(part, defs, seen)
        merged = {**resolved, **merged}
    return merged, seen


def _without_null(node: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """The non-null alternatives of a node and whether null was one of them."""
    options = node.pop("anyOf", None) or node.pop("oneOf", None)
    if options is None and isinstance(node.get("type"), list):
        types = node.pop("type")
        options = [{**node, "type": t} for t in types]
    if options is None:
        nullable = node.get("type") == "null"
        return ([] if nullable else [node]), nullable
    kept = [o for o in options if o.get("type") != "null"]
    return kept, len(kept) < len(options)


def _convert(
    node: Mapping[str, Any], defs: Mapping[str, Any], seen: tuple[str, ...]
) -> dict[str, Any]:
    resolved, seen = _resolve(node, defs, seen)
    options, nullable = _without_null(resolved)
    if len(options) == 1 and options[0] is not resolved:
        outer = {k: v for k, v in resolved.items() if k in _COPIED}
        out = _convert({**options[0], **outer}, defs, seen)
    elif len(options) > 1:
        out = {k: resolved[k] for k in _COPIED if k in resolved}
        out["anyOf"] = [_convert(o, defs, seen) for o in options]
    elif options:
        out = _plain(resolved, defs, seen)
    else:
        raise UnsupportedSchemaError("a value that can only be null")
    if nullable:
        out["nullable"] = True
    return out


def _enum(resolved: Mapping[str, Any]) -> list[str] | None:
    values = [resolved["const"]] if "const" in resolved else resolved.get("enum")
    if values is None:
        return None
    return [v if isinstance(v, str) else json.dumps(v) for v in values]


def _plain(
    resolved: dict[str, Any], defs: Mapping[str, Any], seen: tuple[str, ...]
) -> dict[str, Any]:
    """One node with a single type (or none given)."""
    out = {k: resolved[k] for k in _COPIED if k in resolved}
    enum = _enum(resolved)
    kind = "STRING" if enum is not None else _gemini_type(resolved)
    if kind is not None:
        out["type"] = kind
    if enum is not None:
        out["enum"] = enum
    if resolved.get("format") in _FORMATS.get(kind or "", set()):
        out["format"] = resolved["format"]
    if kind == "ARRAY" and "items" in resolved:
        out["items"] = _convert(resolved["items"], defs, seen)
    if kind == "OBJECT":
        out.update(_object(resolved, defs, seen))
    return out


def _gemini_type(resolved: Mapping[str, Any]) -> str | None:
    given = resolved.get("type")
    if given is None and "properties" in resolved:
        given = "object"
    if given is None:
        return None
    if given not in _TYPES:
        raise UnsupportedSchemaError(f"type {given!r}")
    return _TYPES[str(given)]


def _object(
    resolved: Mapping[str, Any], defs: Mapping[str, Any], seen: tuple[str, ...]
) -> dict[str, Any]:
    properties = resolved.get("properties") or {}
    if not properties:
        raise UnsupportedSchemaError("a free-form object (dict); give it named fields instead")
    out: dict[str, Any] = {
        "properties": {name: _convert(sub, defs, seen) for name, sub in properties.items()},
    }
    required = [name for name in resolved.get("required", []) if name in properties]
    if required:
        out["required"] = required
    return out
