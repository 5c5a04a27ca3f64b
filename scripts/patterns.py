"""Every regular expression the app uses, with how it is used, for the ReDoS checks (issue 25):
`scripts/check_patterns.py` (part of `make lint`) has recheck judge each one, and
tests/test_patterns.py feeds each one adversarial text of 100 KB.

Patterns are found in the source of every module of `app/`: the calls of `re`'s functions,
whose pattern is a literal or is built from the module's own names, and the methods called on
patterns the module holds. How a pattern is used decides what is judged: `fullmatch` anchors
both ends, `match` the start, the others (`search`, `sub`, `findall`…) try every position, which
is where most slow patterns are slow. A pattern made inside a function from its arguments has
to be listed in `MADE` with the calls that make the ones the app makes; anything else the
collector cannot read is an error, so no pattern goes unchecked.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
# Modules that import the browser's `js` and hold no patterns (checked: their source is read).
BROWSER = ("app/browser/", "app/main.py")

How = Literal["fullmatch", "match", "search"]
FUNCTIONS: dict[str, tuple[How, int]] = {  # re's functions: how, and where `flags` goes
    "compile": ("search", 1),
    "search": ("search", 2),
    "match": ("match", 2),
    "fullmatch": ("fullmatch", 2),
    "sub": ("search", 4),
    "subn": ("search", 4),
    "split": ("search", 3),
    "findall": ("search", 2),
    "finditer": ("search", 2),
}
METHODS: dict[str, How] = {
    "search": "search",
    "match": "match",
    "fullmatch": "fullmatch",
    "sub": "search",
    "subn": "search",
    "split": "search",
    "findall": "search",
    "finditer": "search",
}


@dataclass(frozen=True, slots=True)
class Use:
    """One pattern as one place uses it."""

    where: str  # path:line
    pattern: str  # bytes patterns read as Latin-1
    flags: int
    how: How


def _made_by_grading() -> Iterator[re.Pattern[str]]:
    from app.study.grading import _ARTICLES, _article_pattern  # noqa: PLC0415

    for lang in _ARTICLES:
        yield _article_pattern(lang)


def _made_by_word_voices() -> Iterator[re.Pattern[str]]:
    from app.voice.word_voices import _alternatives  # noqa: PLC0415

    yield re.compile(_alternatives(["perro", "el perro", "c++", "a.b", "日本語", "x" * 200]))


def _made_by_safety() -> Iterator[re.Pattern[str]]:
    target = re.escape("folder (old) *notes*".casefold())
    yield re.compile(rf"(?<!\w){target}(?!\w)")


# Patterns a module holds in a table and uses through a loop, and how.
HELD: dict[str, How] = {"app/drill/start.py:_ASKS": "fullmatch"}
# Patterns built inside a function from its arguments, and how to make the ones the app makes.
MADE: dict[str, Callable[[], Iterator[re.Pattern[str]]]] = {
    "app/study/grading.py:_article_pattern": _made_by_grading,
    "app/voice/word_voices.py:WordVoices.__init__": _made_by_word_voices,
    "app/agents/safety.py:names": _made_by_safety,
}


class UnreadablePatternError(Exception):
    """A use of `re` whose pattern the collector cannot know: list it in MADE."""


def app_patterns() -> list[Use]:
    """Every use of a pattern in the app, deduplicated by pattern, flags and use."""
    seen: dict[tuple[str, int, How], Use] = {}
    for path in sorted(APP.rglob("*.py")):
        for use in _uses(path):
            seen.setdefault((use.pattern, use.flags, use.how), use)
    return list(seen.values())


def _uses(path: Path) -> Iterator[Use]:
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _module_names(relative)
    used: set[int] = set()  # patterns whose methods this module calls
    for function, call in _calls(tree):
        where = f"{relative}:{call.lineno}"
        match call.func:
            case ast.Attribute(value=ast.Name(id="re"), attr=attr) if attr in FUNCTIONS:
                how, flags_at = FUNCTIONS[attr]
                made = MADE.get(f"{relative}:{function}")
                if made is not None:
                    yield from (_use(where, p.pattern, p.flags, how) for p in made())
                    continue
                flags = _flags(call, flags_at, names, where)
                for value in _values(call.args[0], names, where):
                    source, used_flags = value, flags
                    if isinstance(value, re.Pattern):
                        source, used_flags = value.pattern, value.flags
                    # A module-level compile is judged where its methods are called.
                    if attr != "compile" or not _assigned_at_module_level(tree, call):
                        yield _use(where, source, used_flags, how)
            case ast.Attribute(value=ast.Name(id=name), attr=attr) if attr in METHODS:
                held = names.get(name)
                if isinstance(held, re.Pattern):
                    used.add(id(held))
                    yield _use(where, held.pattern, held.flags, METHODS[attr])
            case _:
                pass
    # A module-level pattern that is only passed around (in a table, to another module) is
    # judged as `search`, the strictest reading.
    for name, value in names.items():
        how = HELD.get(f"{relative}:{name}", "search")
        for pattern in _held_patterns(value):
            if id(pattern) not in used and _assigned_here(name, tree):
                yield _use(f"{relative}:{name}", pattern.pattern, pattern.flags, how)


def _use(where: str, pattern: str | bytes, flags: int, how: How) -> Use:
    text = pattern.decode("latin-1") if isinstance(pattern, bytes) else pattern
    return Use(where, text, flags & ~re.UNICODE, how)


def _module_names(relative: str) -> dict[str, Any]:
    if relative.startswith(BROWSER):
        return {}
    name = relative.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
    return dict(vars(importlib.import_module(name)))


def _held_patterns(value: Any) -> Iterator[re.Pattern[Any]]:
    if isinstance(value, re.Pattern):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            if isinstance(item, re.Pattern):
                yield item
    elif isinstance(value, tuple | list | frozenset):
        for item in value:
            if isinstance(item, re.Pattern):
                yield item


def _assigned_here(name: str, tree: ast.Module) -> bool:
    """Whether the module gives `name` its value itself (not a name it imported)."""
    for statement in tree.body:
        targets = (
            statement.targets
            if isinstance(statement, ast.Assign)
            else [statement.target]
            if isinstance(statement, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def _calls(tree: ast.Module) -> Iterator[tuple[str, ast.Call]]:
    """Every call, with the function (Class.method) it is in ("" at module level)."""

    def walk(node: ast.AST, inside: str) -> Iterator[tuple[str, ast.Call]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield from walk(child, f"{inside}.{child.name}" if inside else child.name)
                continue
            if isinstance(child, ast.Call):
                yield inside, child
            yield from walk(child, inside)

    yield from walk(tree, "")


def _assigned_at_module_level(tree: ast.Module, call: ast.Call) -> bool:
    return any(
        isinstance(statement, ast.Assign | ast.AnnAssign)
        and any(node is call for node in ast.walk(statement))
        for statement in tree.body
    )


def _values(node: ast.expr, names: dict[str, Any], where: str) -> list[Any]:
    """The values `node` may have: both of a conditional's."""
    if isinstance(node, ast.IfExp):
        return [*_values(node.body, names, where), *_values(node.orelse, names, where)]
    return [_value(node, names, where)]


def _value(node: ast.expr, names: dict[str, Any], where: str) -> Any:
    try:
        return eval(compile(ast.Expression(node), where, "eval"), dict(names))
    except Exception as error:
        unknown = f"{where}: the pattern is not known until it runs; list it in MADE"
        raise UnreadablePatternError(unknown) from error


def _flags(call: ast.Call, at: int, names: dict[str, Any], where: str) -> int:
    for keyword in call.keywords:
        if keyword.arg == "flags":
            return int(_value(keyword.value, {**names, "re": re}, where))
    if len(call.args) > at:
        return int(_value(call.args[at], {**names, "re": re}, where))
    return 0
