"""The tool loop's edges: repair tries, unknown tools, limits, ambiguity, and failures part-way
that must leave nothing half-done."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.agents import memory
from app.agents.events import Event, Failed, Finished, StepDone
from app.agents.loop import Limits
from app.agents.results import CUT
from app.agents.turn import ROLLED_BACK, run_turn
from app.domain import FolderId
from app.inputs import NewFolder, NewWord
from app.llm.errors import ProviderError
from app.llm.messages import ModelRequest, ModelResponse
from app.store import Store
from tests.agents.helpers import Dialog, last_results, turn
from tests.llm.scripted import ScriptedModel, call, reply
from tests.store.helpers import make_store


@pytest.fixture
def store() -> Store:
    store = make_store()
    store.create_folder(NewFolder(name="Heart"))
    return store


def _error(request: ModelRequest) -> str:
    return str(last_results(request)[0].content["error"])


def test_bad_arguments_get_one_repair_try(store: Store) -> None:
    model = ScriptedModel(
        reply("", call("ADD_WORD", term="aorta")),
        lambda request: reply("", call("ADD_WORD", folder="Heart", term="aorta")),
        "Added aorta.",
    )
    _, events = turn(store, model, "Add aorta to Heart")
    assert _error(model.requests[1]) == (
        "Invalid arguments: folder: missing (required). Fix them and call ADD_WORD again."
    )
    assert events.steps() == ['Added "aorta" to Heart']
    assert store.words(FolderId(1))[0].term == "aorta"


def test_a_second_failure_is_a_clear_error_and_the_tool_is_closed(store: Store) -> None:
    model = ScriptedModel(
        reply("", call("ADD_WORD", term="aorta")),
        reply("", call("ADD_WORD", term="aorta", folder="Heart", colour="red")),
        reply("", call("ADD_WORD", term="aorta", folder="Heart")),
        "I could not add the word: my arguments were wrong.",
    )
    result, events = turn(store, model, "Add aorta to Heart")
    assert "Do not call ADD_WORD again in this turn" in _error(model.requests[2])
    assert _error(model.requests[3]) == "Do not call ADD_WORD again now."
    assert events.steps() == ["Could not use ADD_WORD: colour: unknown argument"]
    assert store.words(FolderId(1)) == []
    assert result.ok


def test_an_unknown_tool_is_answered_not_run(store: Store) -> None:
    model = ScriptedModel(reply("", call("DROP_DATABASE")), "Sorry, I cannot do that.")
    result, _ = turn(store, model, "Add everything")
    assert _error(model.requests[1]).startswith("There is no tool 'DROP_DATABASE'. Tools: ")
    assert result.answer == "Sorry, I cannot do that."


def test_a_shared_name_makes_the_agent_ask_which(store: Store) -> None:
    for parent in ("Spanish", "French"):
        folder = store.create_folder(NewFolder(name=parent)).id
        store.create_folder(NewFolder(name="Basics", parent_id=folder))
    model = ScriptedModel(
        reply("", call("ADD_WORD", folder="Basics", term="hola")),
        lambda request: reply(
            "Which one: "
            + " or ".join(last_results(request)[0].content["collection_data"]["candidates"])
            + "?"
        ),
    )
    first, events = turn(store, model, "Add hola to Basics")
    assert first.answer == "Which one: Spanish/Basics or French/Basics?"
    assert last_results(model.requests[1])[0].content["needs_choice"] is True
    assert events.steps() == ['Asked which one: 2 folders are named "Basics".']
    [asked] = [e for e in events if isinstance(e, StepDone)]
    assert asked.choices == ("Spanish/Basics", "French/Basics")  # a spoken reply can pick one
    assert store.find_words("hola") == []
    follow_up = ScriptedModel(
        reply("", call("ADD_WORD", folder="Spanish/Basics", term="hola")), "Added."
    )
    turn(store, follow_up, "Add it to the Spanish one", conversation_id=first.conversation_id)
    assert [w.folder_id for w in store.find_words("hola")] == [store.find_folders("basics")[0].id]


def _always_calling(request: ModelRequest) -> ModelResponse:
    if request.tool_choice == "none":
        return reply("I stopped going round in circles.")
    return reply("", call("GET_FOLDER_STRUCTURE"))


def test_tool_only_turns_are_limited_then_an_answer_is_forced(store: Store) -> None:
    model = ScriptedModel(*[_always_calling] * 5)
    _, events = turn(store, model, "Organise my folders", limits=Limits(max_tool_only_turns=4))
    assert [r.tool_choice for r in model.requests] == ["auto"] * 4 + ["none"]
    assert "You have used all the steps" in model.requests[-1].system
    end = events.last()
    assert isinstance(end, Finished)
    assert end.limited
    assert end.answer == "I stopped going round in circles."


def test_model_calls_are_limited_even_when_it_talks(store: Store) -> None:
    chatty = [lambda r: reply("Looking…", call("GET_FOLDER_STRUCTURE"))] * 2
    model = ScriptedModel(*chatty, reply("Ignoring you", call("GET_FOLDER_STRUCTURE")))
    result, events = turn(store, model, "Organise my folders", limits=Limits(max_model_calls=3))
    assert model.requests[-1].tool_choice == "none"
    assert result.answer == "Ignoring you"  # tool calls made despite "none" are dropped
    assert events.steps() == ["Looked at the folders of the collection"] * 2
    [*_, last] = memory.load(store, result.conversation_id, 100)[0]  # type: ignore[arg-type]
    assert last.tool_calls == ()


def test_results_are_bounded_and_say_so(store: Store) -> None:
    rows = [
        NewWord(folder_id=FolderId(1), term=f"word {i}", meanings=["x" * 250]) for i in range(200)
    ]
    for new in rows:
        store.add_word(new)
    model = ScriptedModel(
        reply("", call("LIST_WORDS", folder="Heart", limit=200)), "That is a lot of words."
    )
    turn(store, model, "What words are in Heart?", limits=Limits(max_turn_result_chars=5_000))
    [listing] = last_results(model.requests[1])
    assert listing.content["truncated"] == CUT
    assert 0 < len(listing.content["collection_data"]["words"]) < 200
    assert len(json.dumps(listing.content)) <= Limits().max_result_chars
    assert model.requests[1].tool_choice == "none"  # the turn's results budget is spent


def test_a_provider_error_part_way_rolls_the_turn_back(store: Store) -> None:
    server = ProviderError("server", "The provider had a problem.", status=500)
    model = ScriptedModel(reply("Creating…", call("CREATE_FOLDER", name="Lungs")), server)
    result, events = turn(store, model, "Create a folder Lungs")
    assert [f.name for f in store.folders()] == ["Heart"]
    assert store.undo_label == 'Create folder "Heart"'
    end = events.last()
    assert isinstance(end, Failed)
    assert (end.kind, end.rolled_back, end.partial) == ("server", True, "Creating…")
    assert end.message == f"The provider had a problem. {ROLLED_BACK}"
    assert result.failure == end
    entries = memory.transcript(store, result.conversation_id)  # type: ignore[arg-type]
    assert [(e.role, e.text, e.status) for e in entries] == [
        ("user", "Create a folder Lungs", "ok"),
        ("assistant", "Creating…", "failed"),
    ]
    [usage] = store.conversations.usage()
    assert (usage.outcome, usage.tools) == ("server", ["CREATE_FOLDER"])


def test_a_cut_stream_keeps_the_partial_text(store: Store) -> None:
    cut = ProviderError("stream_cut", "The answer was cut off.", partial="Cardiology is the")
    _, events = turn(store, ScriptedModel(cut), "What is cardiology?")
    end = events.last()
    assert isinstance(end, Failed)
    assert (end.kind, end.partial, end.rolled_back) == ("stream_cut", "Cardiology is the", False)
    assert end.message == "The answer was cut off."


class _StopAfter:
    """A Stop button pressed once `words` words have streamed."""

    def __init__(self, words: int) -> None:
        self.words = words

    @property
    def cancelled(self) -> bool:
        self.words -= 1
        return self.words < 0


def test_stop_keeps_the_partial_answer_and_undoes_the_changes(store: Store) -> None:
    model = ScriptedModel(
        reply("", call("CREATE_FOLDER", name="Lungs")), "I created the folder Lungs for you."
    )
    result, events = turn(store, model, "Create a folder Lungs", cancel=_StopAfter(4))
    end = events.last()
    assert isinstance(end, Failed)
    assert (end.kind, end.partial) == ("stopped", "I created ")
    assert [f.name for f in store.folders()] == ["Heart"]
    entries = memory.transcript(store, result.conversation_id)  # type: ignore[arg-type]
    assert entries[-1].status == "stopped"


def test_a_read_only_workspace_refuses_the_architect_clearly() -> None:
    reader = Store.from_snapshot(make_store().snapshot(), read_only=True)
    result, _ = turn(reader, ScriptedModel(), "Create a folder Lungs")
    assert result.failure is not None
    assert result.failure.kind == "read_only"
    assert "read-only" in result.failure.message
    answered, _ = turn(reader, ScriptedModel("It is the study of the heart."), "Explain cardiology")
    assert answered.ok
    assert answered.conversation_id is None


def test_a_turn_refuses_to_start_inside_another(store: Store) -> None:
    with store.group("Another turn"):
        result, _ = turn(store, ScriptedModel(), "Create a folder Lungs")
    assert result.failure is not None
    assert result.failure.kind == "busy"


def test_a_bug_part_way_undoes_the_turn_and_is_raised(store: Store) -> None:
    def broken(request: ModelRequest) -> ModelResponse:
        raise RuntimeError("bug in a client")

    model = ScriptedModel(reply("", call("CREATE_FOLDER", name="Lungs")), broken)
    events: list[Event] = []
    with pytest.raises(RuntimeError, match="bug in a client"):
        asyncio.run(
            run_turn(
                store, model, "Create a folder Lungs", confirm=Dialog(), on_event=events.append
            )
        )
    assert [f.name for f in store.folders()] == ["Heart"]
    assert isinstance(events[-1], Failed)
    assert events[-1].kind == "internal"


@pytest.mark.parametrize(
    "imitation",
    [
        'functions.SEARCH_WORDS: {"query": "aorta"}',
        'SEARCH_WORDS({"query": "aorta"})',
        '```json\n{"name": "SEARCH_WORDS", "arguments": {"query": "aorta"}}\n```',
    ],
)
def test_a_tool_call_written_as_text_is_repaired_once_not_shown_as_the_answer(
    store: Store, imitation: str
) -> None:
    model = ScriptedModel(
        imitation,
        lambda request: reply("", call("SEARCH_WORDS", query="aorta")),
        "Nothing called aorta yet.",
    )
    result, _events = turn(store, model, "find aorta")
    assert result.answer == "Nothing called aorta yet."
    repair = model.requests[1].messages[-1]
    assert repair.role == "user"
    assert "tool" in repair.text
    assert "SEARCH_WORDS" in repair.text
    saved = memory.load(store, result.conversation_id, 100)[0]  # type: ignore[arg-type]
    assert imitation not in [m.text for m in saved]  # the slip is not kept in the history


def test_an_imitated_call_after_the_repair_try_fails_with_a_sentence(store: Store) -> None:
    """Issue 25: a small local model's second written call was shown as a finished answer."""
    imitation = 'functions.DELETE_ITEM: {"kind": "folder", "name": "Heart"}'
    model = ScriptedModel(imitation, imitation)
    result, events = turn(store, model, "delete the heart folder")
    assert result.failure is not None
    assert result.failure.kind == "bad_response"
    assert result.failure.message == (
        "The model wrote a call of DELETE_ITEM as text instead of making it, so nothing was "
        "done. Retry, or choose a model that can use tools in AI settings."
    )
    assert isinstance(events[-1], Failed)
    assert len(model.requests) == 2
    assert [f.name for f in store.folders()] == ["Heart"]


def test_an_empty_reply_fails_with_a_sentence(store: Store) -> None:
    result, _events = turn(store, ScriptedModel("   "), "what is the aorta?")
    assert result.failure is not None
    assert result.failure.kind == "bad_response"
    assert result.failure.message == (
        "The model answered with nothing. Retry, or choose another model in AI settings."
    )


def test_an_empty_reply_after_tools_ran_lists_what_was_done(store: Store) -> None:
    model = ScriptedModel(reply("", call("CREATE_FOLDER", name="Lungs")), "")
    result, _events = turn(store, model, "Create a folder Lungs")
    assert result.ok
    assert result.answer.startswith("Done:")


def test_ordinary_answers_that_mention_tools_are_answers(store: Store) -> None:
    model = ScriptedModel("SEARCH_WORDS is how I look things up: {it is fast}.")
    result, _events = turn(store, model, "how do you search?")
    assert result.answer.startswith("SEARCH_WORDS is how")
    assert len(model.requests) == 1
