"""Tool results as the model reads them: labelled, bounded JSON objects.

Everything that comes from the user's collection sits under `collection_data`, which the system
prompts define as content to work with, never instructions to follow. Inside JSON a stored
string cannot break out of its field, so a word whose meaning says "ignore previous
instructions" stays a string inside `collection_data`. Results are cut to a size limit by
halving their longest lists, and say that they were cut.
"""

from __future__ import annotations

import json
from typing import Any

from app.tools.registry import Outcome
from app.tools.resolve import Ambiguous

DATA = "collection_data"
CUT = "Only part of the result is shown; ask for less (a smaller limit or a narrower folder)."


def done(outcome: Outcome) -> dict[str, Any]:
    result: dict[str, Any] = {"ok": True, "step": outcome.step}
    if outcome.data:
        result[DATA] = outcome.data
    return result


def failed(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


def ambiguous(exc: Ambiguous) -> dict[str, Any]:
    return {
        "ok": False,
        "error": f"{exc.message} Ask the user which one they mean; do not guess.",
        "needs_choice": True,
        DATA: {"candidates": exc.candidates},
    }


def declined(change: str) -> dict[str, Any]:
    return {
        "ok": False,
        "declined": True,
        "error": f"The user declined: {change}. It was not done. Do not try again; ask what "
        "they would like instead.",
    }


def size(content: dict[str, Any]) -> int:
    return len(json.dumps(content, ensure_ascii=False))


def bounded(content: dict[str, Any], limit: int) -> dict[str, Any]:
    """`content` itself when it fits in `limit` characters, else a copy with shorter lists."""
    if size(content) <= limit:
        return content
    data = json.loads(json.dumps(content.get(DATA, {})))
    cut = {**content, DATA: data, "truncated": CUT}
    while size(cut) > limit:
        longest = _longest_list(data)
        if longest is None or len(longest) <= 1:
            text = json.dumps(data, ensure_ascii=False)[: max(0, limit // 2)]
            return {**content, DATA: {"partial_json": text}, "truncated": CUT}
        del longest[len(longest) // 2 :]
    return cut


def _longest_list(node: Any) -> list[Any] | None:
    best: list[Any] | None = node if isinstance(node, list) else None
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    for child in children:
        found = _longest_list(child)
        if found is not None and (best is None or len(found) > len(best)):
            best = found
    return best
