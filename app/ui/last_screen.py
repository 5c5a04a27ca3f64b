"""The last screen as data: the sidebar and the main view the user last saw, with the route
they belong to, for static/warm.js to paint as an inert copy while Python starts (decision 023).

The copy is kept in localStorage, so it is capped: each region gets a budget of characters
and keeps its nodes in document order until the budget is spent (the top of the page, which is
what shows first; a folder of thousands of words keeps its first rows). Node format, as JSON:
a text is a string, an element is `[tag, {attributes}, [children]]`. What may be painted is
decided when it is read back (static/warm.js), never trusted from storage.
"""

from __future__ import annotations

import json
from typing import Any

from app.text.nodes import El, Node

FORMAT = 1
LIMIT = 256 * 1024  # UTF-16 code units, as localStorage counts them
TREE_BUDGET = 48_000
MAIN_BUDGET = 160_000
_ELEMENT_COST = 12  # brackets, quotes and commas around an element's tag, attributes and list

Data = str | list[Any]


def last_screen(
    route: str,
    tree: El | None,
    main: El | None,
    *,
    tree_budget: int = TREE_BUDGET,
    main_budget: int = MAIN_BUDGET,
    limit: int = LIMIT,
) -> str:
    """The copy of this screen as JSON of at most `limit` UTF-16 code units."""
    while True:
        copy = {
            "format": FORMAT,
            "route": route,
            "tree": _region(tree, tree_budget),
            "main": _region(main, main_budget),
        }
        text = json.dumps(copy, ensure_ascii=False, separators=(",", ":"))
        if _units(text) <= limit:
            return text
        # Escaping (quotes, control characters, astral characters) made it longer than the
        # budgets counted: keep less.
        tree_budget, main_budget = tree_budget // 2, main_budget // 2


def _region(node: El | None, budget: int) -> Data | None:
    if node is None:
        return None
    taken, _ = _take(node, budget)
    return taken


def _take(node: Node, budget: int) -> tuple[Data, int]:
    """`node` as data, cut to about `budget` characters, and what is left of the budget."""
    if isinstance(node, str):
        return node[: max(0, budget)], budget - len(node) - 2
    attrs = dict(node.attrs)
    budget -= _ELEMENT_COST + len(node.tag) + sum(len(k) + len(v) + 6 for k, v in attrs.items())
    children: list[Data] = []
    for child in node.children:
        if budget <= 0:
            break
        taken, budget = _take(child, budget)
        children.append(taken)
    return [node.tag, attrs, children], budget


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2
