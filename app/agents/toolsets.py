"""Which tools a request is offered: the groups its words ask for, plus the look-up tools.

Every tool offered costs prompt tokens, and a small local model may have only 4,096 of them for
everything. So the request's action words, read as the router reads them (folded, quoted words
left out, 'deleting' as 'delete'), pick tool groups; the look-up tools come with every group
so the agent can find what the request names and show what it made. A request that names no
group ("yes", "the second one", "do the same for Biology") is offered every tool, and so is a
tool that no group lists. Offering is only about tokens: a model that calls one of its agent's
tools that was not offered (a deletion the request did not ask for, say) is served as always,
with the same checks and the same confirmation dialog.
"""

from __future__ import annotations

from app.agents.router import base_form, words
from app.tools.registry import Registry

LOOKUP = ("GET_FOLDER_STRUCTURE", "SEARCH_FOLDERS", "SEARCH_WORDS", "NAVIGATE_TO")

# Nouns like "folder" or "word" pick nothing: "delete the Biology folder" needs no building.
# A word's meanings, notes and examples are changed with the "change" group.
_CHANGE = "UPDATE_FOLDER_METADATA", "UPDATE_WORD_METADATA", "RENAME_ITEM", "GET_WORD"
_GROUPS: dict[tuple[str, ...], str] = {
    ("CREATE_FOLDER", "ADD_WORD", "BULK_ADD_WORDS"): (
        "create make build new add populate fill put insert"
    ),
    _CHANGE: (
        "edit update change set fix correct colour color emoji language lang tag mark label "
        "meaning definition translation synonym note example sentence usage"
    ),
    ("GET_WORD", "LIST_WORDS"): "meaning mean define definition translation synonym list",
    ("CREATE_NOTE", "UPDATE_NOTE", "GET_NOTES"): "note append write summary summarise summarize",
    ("RENAME_ITEM",): "rename retitle title",
    ("MOVE_ITEM",): "move put sort organise organize reorganise reorganize group nest merge split",
    ("DELETE_ITEM",): "delete remove erase drop trash clear",
    ("STUDY_STATS", "CHANGE_STUDY_PROGRESS"): (
        "study progress review due forget reset reschedule retention streak card learn miss hard"
    ),
}
_KEYWORDS: dict[str, set[str]] = {}
for _tools, _words in _GROUPS.items():
    for _word in _words.split():
        _KEYWORDS.setdefault(_word, set()).update(_tools)
_GROUPED = frozenset(name for group in _GROUPS for name in group)


def offered(tools: Registry, text: str) -> Registry:
    """The part of `tools` that the request `text` can need."""
    wanted: set[str] = set()
    for token in words(text):
        keyword = base_form(token, _KEYWORDS)
        if keyword is not None:
            wanted |= _KEYWORDS[keyword]
    if not wanted:
        return tools
    wanted.update(LOOKUP)
    return tools.where(lambda tool: tool.name in wanted or tool.name not in _GROUPED)
