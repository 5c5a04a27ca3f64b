"""Which tools a request is offered: the groups its words ask for plus the look-up tools, and
every tool when the words do not say."""

from __future__ import annotations

import pytest

from app.agents.architect import ARCHITECT
from app.agents.scholar import SCHOLAR
from app.agents.toolsets import LOOKUP, offered
from app.tools import TOOLS
from app.tools.registry import Outcome, Params, Registry, Tool
from app.tools.workspace import Workspace


def names(text: str, tools: Registry = ARCHITECT.tools) -> set[str]:
    return set(offered(tools, text).names)


@pytest.mark.parametrize(
    ("text", "needed"),
    [
        ("Create a folder called Biology", {"CREATE_FOLDER"}),
        ("Make a folder of 10 fruits", {"CREATE_FOLDER", "BULK_ADD_WORDS"}),
        ("Add aorta to Cardiology", {"ADD_WORD", "BULK_ADD_WORDS"}),
        ("Give Biology a red colour and a 🧬", {"UPDATE_FOLDER_METADATA"}),
        ("Change the meaning of aorta", {"UPDATE_WORD_METADATA", "GET_WORD"}),
        ("Add a meaning to aorta", {"UPDATE_WORD_METADATA", "ADD_WORD"}),
        ("Put a sentence using aorta in its notes", {"UPDATE_WORD_METADATA"}),
        ("Delete the Biology folder", {"DELETE_ITEM"}),
        ("Removing aorta, please", {"DELETE_ITEM"}),
        ("Move aorta into Heart", {"MOVE_ITEM"}),
        ("Rename Biology to Life sciences", {"RENAME_ITEM"}),
        ("Change Biology's name to Bio", {"RENAME_ITEM"}),
        ("Append a summary to the note on valves", {"UPDATE_NOTE", "CREATE_NOTE"}),
        ("Reset my progress in Spanish", {"CHANGE_STUDY_PROGRESS", "STUDY_STATS"}),
    ],
)
def test_a_request_gets_the_tools_its_words_ask_for_and_the_lookups(
    text: str, needed: set[str]
) -> None:
    got = names(text)
    assert needed | set(LOOKUP) <= got
    assert len(got) < len(TOOLS)


def test_a_narrow_request_leaves_out_what_it_does_not_ask_for() -> None:
    delete = names("Delete the Biology folder")
    assert delete == {"DELETE_ITEM", *LOOKUP}
    create = names("Create a folder called Biology")
    assert create == {"CREATE_FOLDER", "ADD_WORD", "BULK_ADD_WORDS", *LOOKUP}


@pytest.mark.parametrize(
    "text",
    ["Yes", "the second one", "Do the same for Biology", "ok", "Sí, por favor", "'delete'"],
)
def test_a_request_that_names_no_group_gets_every_tool(text: str) -> None:
    assert names(text) == set(TOOLS.names)


def test_the_scholar_keeps_read_tools_only() -> None:
    assert names("What does aorta mean?", SCHOLAR.tools) == {"GET_WORD", "LIST_WORDS", *LOOKUP}
    assert names("Which words do I keep missing in my study?", SCHOLAR.tools) >= {"STUDY_STATS"}
    assert names("Explain the etymology of aorta", SCHOLAR.tools) == set(SCHOLAR.tools.names)
    assert names("Delete aorta", SCHOLAR.tools) == set(LOOKUP)


class _Nothing(Params):
    pass


def _nothing(ws: Workspace, p: _Nothing) -> Outcome:
    return Outcome(step="nothing")


def test_a_tool_outside_every_group_is_always_offered() -> None:
    extra = Tool("EXTRA", "A tool no group knows about.", _Nothing, "read", _nothing)
    tools = Registry([extra, *(TOOLS.get(n) for n in ("DELETE_ITEM", "MOVE_ITEM"))])  # type: ignore[misc]
    assert set(offered(tools, "Delete aorta").names) == {"EXTRA", "DELETE_ITEM"}


def test_a_subset_shares_the_specs_already_built() -> None:
    full = {s.name: s for s in ARCHITECT.tools.specs()}
    for spec in offered(ARCHITECT.tools, "Delete aorta").specs():
        assert spec is full[spec.name]
