"""Which agent answers: a keyword score over the request, instant and offline.

Write verbs ("create", "move", "tag", ...) and collection nouns ("folder") point to the Architect;
question and teaching words ("what", "explain", "etymology", ...) to the Scholar. The higher score
wins; a tie or no keyword at all goes to the Scholar, who cannot change anything. Words in quotes
are what the request is about, not what it asks for ("what does 'delete' mean?"), so they do not
count. A keyword counts once however often it comes back, and when the request's first line
names any keyword, that line alone decides: the lines after it are usually a pasted list
("Create a folder called Biology with these words: …") whose definitions are full of "meaning"
and "example". A request that opens with a verb (after "please", "can you"…) asks for that:
"Add the word X with the meaning Y" and "Change the meaning of X" go to the Architect, whatever
nouns follow, and "Explain how folders work" to the Scholar. The reason names the words that
decided, for the badge in the panel.
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass
from typing import Literal

from app.text.fold import fold

Agent = Literal["architect", "scholar"]
Override = Literal["auto", "architect", "scholar"]

_ARCHITECT_VERBS = (
    "create add make build delete remove erase move rename organise organize reorganise "
    "reorganize import sort put tag colour color group merge split insert append edit update "
    "change set nest populate fill label mark drop"
)
_ARCHITECT_NOUNS = "folder folders subfolder subfolders"
_SCHOLAR_WORDS = (
    "explain define definition meaning mean etymology origin example mnemonic teach quiz "
    "pronounce pronunciation difference synonym antonym describe tell translate usage"
)
# Verbs a Scholar request opens with ("Explain …", "Tell me …"); the rest of its words are nouns.
_SCHOLAR_VERBS = frozenset(
    ["explain", "define", "teach", "quiz", "pronounce", "describe", "tell", "translate"]
)
# What may come before the verb of a request.
_OPENERS = frozenset(
    [
        "please",
        "kindly",
        "now",
        "ok",
        "okay",
        "so",
        "then",
        "also",
        "and",
        "just",
        "can",
        "could",
        "would",
        "will",
        "you",
    ]
)
# Question words also open relative clauses ("move the words which ..."), so they weigh less.
_QUESTION_WORDS = "what why how who when which"
STRONG = 2  # a verb says what to do
WEAK = 1  # a noun or a question word only hints at it

_WEIGHTS: dict[str, tuple[Agent, int]] = {
    **{w: ("architect", STRONG) for w in _ARCHITECT_VERBS.split()},
    **{w: ("architect", WEAK) for w in _ARCHITECT_NOUNS.split()},
    **{w: ("scholar", STRONG) for w in _SCHOLAR_WORDS.split()},
    **{w: ("scholar", WEAK) for w in _QUESTION_WORDS.split()},
}
# A quote ends at its closing mark, or at the next opening one: an unclosed quote is then
# looked past once, not from every opening mark to the end of the message.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^“”]*”|‘[^‘’]*’|«[^«»]*»|„[^„“”]*[“”]|(?<!\w)'[^']+'(?!\w)")
_WORD = re.compile(r"\w+")
_SUFFIXES = ("ing", "es", "ed", "s", "d")


@dataclass(frozen=True)
class Route:
    agent: Agent
    reason: str  # e.g. "Architect: 'create', 'folder'"
    scores: dict[Agent, int]


def words(text: str) -> list[str]:
    """The words a request asks with: folded, without the quoted words it is about."""
    return _WORD.findall(_QUOTED.sub(" ", fold(text)))


def base_form(token: str, vocabulary: Container[str]) -> str | None:
    """The entry of `vocabulary` that `token` is a form of ('adding' -> 'add'), if any."""
    if token in vocabulary:
        return token
    for suffix in _SUFFIXES:
        stem = token.removesuffix(suffix)
        if stem == token or len(stem) < 2:
            continue
        candidates = [stem, stem + "e"]  # adds -> add, moving -> move
        if suffix in ("ing", "ed") and stem[-1] == stem[-2]:
            candidates.append(stem[:-1])  # putting -> put
        for candidate in candidates:
            if candidate in vocabulary:
                return candidate
    return None


def _label(agent: Agent) -> str:
    return agent.capitalize()


def route(text: str, override: Override = "auto") -> Route:
    """Pick the agent for `text`; an explicit `override` always wins."""
    first_line = text.strip().split("\n", 1)[0]
    scores, found = _scored(first_line)
    if not any(scores.values()):
        scores, found = _scored(text)
    if override != "auto":
        return Route(override, f"{_label(override)}: chosen by you", scores)
    winner: Agent = "architect" if scores["architect"] > scores["scholar"] else "scholar"
    asked = _opening_verb(first_line)
    tied = scores["architect"] == scores["scholar"]
    if asked is not None and (tied or _WEIGHTS[asked][0] != winner):
        winner = _WEIGHTS[asked][0]
        others = ", ".join(
            f"'{w}'" for w in found["scholar" if winner == "architect" else "architect"]
        )
        return Route(
            winner, f"{_label(winner)}: '{asked}' opens the request (over {others})", scores
        )
    return Route(winner, _reason(winner, scores, found), scores)


def _opening_verb(line: str) -> str | None:
    """The verb a request opens with, after any polite openers: a write verb of the
    Architect's or a teaching verb of the Scholar's."""
    for token in words(line):
        if token in _OPENERS:
            continue
        verb = base_form(token, _WEIGHTS)
        if verb is None:
            return None
        agent, weight = _WEIGHTS[verb]
        is_verb = weight == STRONG and (agent == "architect" or verb in _SCHOLAR_VERBS)
        return verb if is_verb else None
    return None


def _scored(text: str) -> tuple[dict[Agent, int], dict[Agent, list[str]]]:
    scores: dict[Agent, int] = {"architect": 0, "scholar": 0}
    found: dict[Agent, list[str]] = {"architect": [], "scholar": []}
    for token in words(text):
        keyword = base_form(token, _WEIGHTS)
        if keyword is None:
            continue
        agent, weight = _WEIGHTS[keyword]
        if keyword not in found[agent]:
            scores[agent] += weight
            found[agent].append(keyword)
    return scores, found


def _reason(winner: Agent, scores: dict[Agent, int], found: dict[Agent, list[str]]) -> str:
    def quoted(words: list[str]) -> str:
        return ", ".join(f"'{w}'" for w in words)

    if not any(scores.values()):
        return "Scholar: no action words, so answering without changing anything"
    if scores["architect"] == scores["scholar"]:
        both = f"{quoted(found['architect'])} vs {quoted(found['scholar'])}"
        return f"Scholar: ambiguous ({both}), so answering without changing anything"
    return f"{_label(winner)}: {quoted(found[winner])}"
