"""Every regular expression of the app (scripts/patterns.py) fed adversarial text of 100 KB,
as the app uses it (issue 25): the strings that make a backtracking engine slow are runs of the
pattern's own pieces that never complete a match, so each pattern gets its literal runs and
the characters of its classes repeated to 100 KB, alone, in pairs, and with a tail that fails.
Each pattern runs in a forked process that must finish (tests/bounded.py); `make lint` has
recheck judge the same patterns (scripts/check_patterns.py).
"""

from __future__ import annotations

import itertools
import re
from re import _parser  # type: ignore[attr-defined]  # the parser re itself uses
from typing import Any

import pytest

from scripts.patterns import Use, app_patterns
from tests.bounded import finishes

SIZE = 100_000
TAILS = ("", "\x00", "\n", " ")
CATEGORY_SAMPLES = {"DIGIT": "0", "WORD": "a", "SPACE": " ", "LINEBREAK": "\n"}
CLASS_CHARS = 6  # of the characters its classes name (a class of 300 ranges needs no more)
PAIRED = 4  # seeds tried in pairs: the first few (the pattern's longest literal runs)

USES = app_patterns()


def seeds(pattern: str, flags: int) -> list[str]:
    """The pieces of `pattern` to repeat: its literal runs (longest first), then one
    character of each class and category it names, then a letter, a digit and a space."""
    runs: set[str] = set()
    chars: set[str] = set()
    run: list[str] = []

    def flush() -> None:
        if run:
            runs.add("".join(run))
            run.clear()

    def walk(items: Any) -> None:
        for op, arg in items:
            name = str(op)
            if name == "LITERAL":
                run.append(chr(arg))
                continue
            flush()
            if name == "NOT_LITERAL":
                chars.add("a" if arg != ord("a") else "b")
            elif name == "IN":
                chars.update(_class_chars(arg))
            for inner in _inner(name, arg):
                walk(inner)
                flush()

    walk(_parser.parse(pattern, flags))
    flush()
    ordered = sorted(runs, key=lambda r: (-len(r), r))
    classes = sorted(chars - set(ordered))[:CLASS_CHARS]
    return list(dict.fromkeys([*ordered, *classes, *("a", "0", " ")]))


def _class_chars(items: Any) -> set[str]:
    found: set[str] = set()
    for inner, value in items:
        match str(inner):
            case "LITERAL":
                found.add(chr(value))
            case "RANGE":
                found.update((chr(value[0]), chr(value[1])))
            case "CATEGORY":
                found.add(CATEGORY_SAMPLES.get(str(value).split("_")[-1], "a"))
            case _:
                pass
    return found


def _inner(name: str, arg: Any) -> list[Any]:
    """The item lists inside one item of a parsed pattern."""
    match name:
        case "MAX_REPEAT" | "MIN_REPEAT" | "POSSESSIVE_REPEAT":
            return [arg[2]]
        case "SUBPATTERN":
            return [arg[-1]]
        case "BRANCH":
            return list(arg[1])
        case "ASSERT" | "ASSERT_NOT":
            return [arg[1]]
        case "ATOMIC_GROUP":
            return [arg]
        case _:
            return []


def literal_starts(pattern: str, flags: int) -> list[str]:
    """The first character of each literal piece: where an unfinished piece begins."""
    pieces = set(seeds(pattern, flags)) - {"a", "0", " "}
    return sorted({piece[0] for piece in pieces if len(piece) > 1 or piece in pattern})


def adversarial(pattern: str, flags: int) -> list[str]:
    found = seeds(pattern, flags)
    units = [*found, *("".join(pair) for pair in itertools.permutations(found[:PAIRED], 2))]
    # A tail that fails the match: nothing, a character no pattern wants, or the start of one
    # of the pattern's literal pieces left unfinished.
    tails = dict.fromkeys((*TAILS, *literal_starts(pattern, flags)))
    return [(unit * (SIZE // len(unit) + 1))[:SIZE] + tail for unit in units for tail in tails]


def run_all(use: Use) -> int:
    """Every adversarial text through the pattern as the app uses it; how many there were."""
    compiled = re.compile(use.pattern, use.flags)
    apply = getattr(compiled, use.how)
    texts = adversarial(use.pattern, use.flags)
    for text in texts:
        if use.how == "search":
            compiled.sub("", text)  # every position, as sub, findall and split go
        else:
            apply(text)
    return len(texts)


def test_every_use_of_re_in_the_app_is_found() -> None:
    """The collector reads every module: a pattern it cannot know fails it (scripts/patterns)."""
    where = {use.where.split(":")[0] for use in USES}
    assert "app/store/transfer/html_text.py" in where
    assert "app/agents/router.py" in where
    assert len(USES) >= 50


def test_the_seeds_of_a_pattern_are_its_pieces() -> None:
    found = seeds(r"<!--.*?-->|\[sound:[^\]]*\]", 0)
    assert found[:2] == ["[sound:", "<!--"]
    assert {"-->", "]", "a"} <= set(found)


@pytest.mark.parametrize("use", USES, ids=[f"{u.where}-{u.how}" for u in USES])
def test_adversarial_text_of_100_kb_is_read_in_bounded_time(use: Use) -> None:
    assert finishes(run_all, use) > 0
