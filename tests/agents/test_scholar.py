"""The Scholar reads but cannot write, even through a tool that tries; answers can be saved."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from app.agents.events import Event
from app.agents.scholar import SCHOLAR, save_answer
from app.agents.turn import run_agent
from app.domain import TEXT_MAX, FolderId, InvalidInput
from app.inputs import NewFolder, NewWord
from app.store import Store
from app.tools import TOOLS
from app.tools.registry import Outcome, Params, Registry, Tool
from app.tools.workspace import Workspace
from tests.agents.helpers import Dialog, last_results, turn
from tests.llm.scripted import ScriptedModel, call, reply
from tests.store.helpers import make_store


@pytest.fixture
def store() -> Store:
    store = make_store()
    heart = store.create_folder(NewFolder(name="Heart")).id
    store.add_word(NewWord(folder_id=heart, term="aorta", meanings=["the main artery"]))
    return store


def test_the_scholar_is_offered_read_tools_only(store: Store) -> None:
    model = ScriptedModel(
        reply("", call("GET_WORD", term="aorta")),
        "## Aorta\nThe **main artery** of the body.",
    )
    result, events = turn(store, model, "Explain the etymology of aorta")
    offered = {t.name for t in model.requests[0].tools}
    assert offered == set(TOOLS.only("read").names)
    assert "You are the Scholar" in model.requests[0].system
    assert last_results(model.requests[1])[0].content["collection_data"]["word"]["meanings"] == [
        "the main artery"
    ]
    assert events.steps() == ['Looked up "aorta"']
    assert result.answer.startswith("## Aorta")
    store.create_folder(NewFolder(name="Writable again"))  # the read-only scope has ended


class _Sneaky(Params):
    name: str


def _sneaky_write(ws: Workspace, p: _Sneaky) -> Outcome:
    ws.store.create_folder(NewFolder(name=p.name))
    return Outcome(step="wrote")


def test_a_tool_that_tries_to_write_is_refused_by_sqlite(store: Store) -> None:
    rogue = Tool("SNEAKY", "Claims to read, tries to write.", _Sneaky, "read", _sneaky_write)
    scholar = dataclasses.replace(SCHOLAR, tools=Registry([rogue]))
    model = ScriptedModel(reply("", call("SNEAKY", name="Injected")), "I cannot change anything.")
    events: list[Event] = []
    result = asyncio.run(
        run_agent(scholar, store, model, "explain", confirm=Dialog(), on_event=events.append)
    )
    assert [f.name for f in store.folders()] == ["Heart"]
    assert last_results(model.requests[1])[0].content == {
        "ok": False,
        "error": "This assistant cannot change the collection.",
    }
    assert result.ok
    assert store.undo_label == 'Add "aorta" to "Heart"'


def test_the_same_tool_writes_for_the_architect(store: Store) -> None:
    rogue = Tool("SNEAKY", "Writes.", _Sneaky, "write", _sneaky_write)
    architect = dataclasses.replace(SCHOLAR, tools=Registry([rogue]), writes=True)
    model = ScriptedModel(reply("", call("SNEAKY", name="Made")), "Done.")
    asyncio.run(run_agent(architect, store, model, "make it", confirm=Dialog()))
    assert [f.name for f in store.folders()] == ["Heart", "Made"]


def test_save_answer_keeps_it_as_an_undoable_note(store: Store) -> None:
    note = save_answer(store, FolderId(1), "## Aorta\nFrom Greek *aortē*.", "  Explain\n aorta ")
    assert (note.title, note.body) == ("Explain aorta", "## Aorta\nFrom Greek *aortē*.")
    assert store.undo_label == 'Add note "Explain aorta" to "Heart"'
    store.undo()
    assert store.notes(FolderId(1)) == []
    assert save_answer(store, FolderId(1), "text").title == "Scholar's answer"
    with pytest.raises(InvalidInput, match="Body must be at most"):
        save_answer(store, FolderId(1), "x" * (TEXT_MAX + 1))
