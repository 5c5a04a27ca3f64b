"""The assistant's rules for a request, typed or spoken, with a scripted model and a fake page."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from app.agents import Confirmation, View
from app.domain import FolderId, LexicalError
from app.inputs import NewFolder, NewWord
from app.llm.errors import ProviderError
from app.llm.messages import ModelClient
from app.llm.retry import OnWait
from app.store import Store
from app.ui.assistant_controller import (
    EXPLAIN_NEEDS_PROVIDER,
    EXPLAIN_OFFLINE,
    NEEDS_PROVIDER,
    STILL_ANSWERING,
    AssistantController,
    Refusal,
    Request,
    Started,
)
from app.ui.assistant_view import OFFLINE, SAVE_NEEDS_FOLDER
from tests.llm.scripted import ScriptedModel, call, reply
from tests.store.helpers import make_store


class Host:
    """The page as the controller sees it; records what it was asked to do."""

    def __init__(self, store: Store, model: ModelClient | None = None) -> None:
        self.store = store
        self.model = model or ScriptedModel()
        self.online = True
        self.configured = True
        self.read_only: str | None = None
        self.folder: FolderId | None = None
        self.toasts: list[str] = []
        self.locations: list[str] = []
        self.studied: list[FolderId] = []
        self.settings_opened = 0
        self.confirmations: list[Confirmation] = []
        self.answers: list[bool] = []  # what the user answers each confirmation with
        self.asked = asyncio.Event()  # set once a confirmation is shown
        self.controller: AssistantController | None = None
        self.refreshed = 0
        self.panel_renders = 0
        self.turn_renders: list[bool] = []
        self.key_missing = False

    def client(self, on_wait: OnWait) -> ModelClient:
        if self.key_missing:
            raise ProviderError("auth", "Paste your key in AI settings.")
        return self.model

    def view(self) -> View:
        return View(open_folder=self.folder, utc_offset_minutes=60)

    def open_folder(self) -> FolderId | None:
        return self.folder

    def show_confirmation(self, confirmation: Confirmation) -> None:
        self.confirmations.append(confirmation)
        self.asked.set()
        assert self.controller is not None
        if self.answers:
            answer = self.answers.pop(0)
            asyncio.get_running_loop().call_soon(self.controller.answer, answer)

    def hide_confirmation(self) -> None:
        pass

    def open_settings(self) -> None:
        self.settings_opened += 1

    def toast(self, message: str, *, undo: bool = False) -> None:
        self.toasts.append(message)

    def go(self, location: str) -> None:
        self.locations.append(location)

    def study_hands_free(self, folder: FolderId) -> None:
        self.studied.append(folder)

    def collection_changed(self) -> None:
        self.refreshed += 1

    def render_panel(self) -> None:
        self.panel_renders += 1

    def render_turn(self, *, now: bool) -> None:
        self.turn_renders.append(now)


def setup(*turns: Any) -> tuple[AssistantController, Host, Store]:
    store = make_store()
    host = Host(store, ScriptedModel(*turns))
    controller = AssistantController(host)
    host.controller = controller
    return controller, host, store


def run(work: Coroutine[Any, Any, None]) -> None:
    asyncio.run(work)


def test_a_typed_request_runs_one_turn_and_refreshes_the_page() -> None:
    controller, host, store = setup(
        reply("", call("CREATE_FOLDER", name="Cardiology")), "Made **Cardiology**."
    )
    run(controller.ask("Create a folder Cardiology"))
    [turn] = controller.state.turns
    assert (turn.agent, turn.status, turn.text) == ("architect", "ok", "Made **Cardiology**.")
    assert [f.name for f in store.folders()] == ["Cardiology"]
    assert host.refreshed >= 2  # after the step, and after the turn
    assert host.turn_renders[-1] is True  # the last redraw is not deferred
    assert controller.cancel is None
    assert not controller.state.running


def test_the_request_is_routed_once_and_the_turn_uses_that_choice() -> None:
    controller, _host, _store = setup("An aorta is the main artery.")
    prepared = controller.prepare("Create a folder for aorta")
    assert isinstance(prepared, Request)
    assert prepared.routed.agent == "architect"
    scholar = type(prepared.routed)("scholar", "Scholar: chosen by a test", {})
    run(controller.run(Request(prepared.text, scholar)))
    [turn] = controller.state.turns
    assert (turn.agent, turn.reason) == ("scholar", "Scholar: chosen by a test")


@pytest.mark.parametrize("text", ["", "   \n"])
def test_an_empty_request_sends_nothing_and_says_nothing(text: str) -> None:
    controller, host, _store = setup()
    assert controller.prepare(text) is None
    run(controller.ask(text))
    assert controller.state.turns == []
    assert host.toasts == []


def test_offline_or_without_a_provider_the_request_is_refused_with_what_to_do() -> None:
    controller, host, _store = setup()
    host.online = False
    assert controller.prepare("What is an aorta?") == Refusal(OFFLINE)
    host.online, host.configured = True, False
    run(controller.ask("What is an aorta?"))
    assert host.settings_opened == 1
    assert controller.state.turns == []


def test_a_read_only_tab_refuses_the_architect_but_lets_the_scholar_answer() -> None:
    controller, host, store = setup("It is the main artery.")
    host.read_only = "Another tab is editing; this one only reads."
    run(controller.ask("Delete folder Biology"))
    assert host.toasts == ["Another tab is editing; this one only reads."]
    assert controller.state.turns == []
    run(controller.ask("What does aorta mean?"))
    assert controller.state.turns[0].status == "ok"
    assert store.folders() == []


def test_a_second_request_while_one_runs_is_refused() -> None:
    controller, _host, _store = setup()
    controller.state.start("first")
    assert controller.prepare("second") == Refusal(STILL_ANSWERING)


def test_a_missing_key_fails_the_turn_with_the_providers_sentence() -> None:
    controller, host, _store = setup()
    host.key_missing = True
    run(controller.ask("What is an aorta?"))
    [turn] = controller.state.turns
    assert (turn.status, turn.error) == ("failed", "Paste your key in AI settings.")


def test_a_destructive_step_waits_for_the_answer_and_no_keeps_everything() -> None:
    controller, host, store = setup(
        reply("", call("DELETE_ITEM", kind="folder", name="Biology")), "Kept it."
    )
    store.create_folder(NewFolder(name="Biology"))
    host.answers = [False]
    run(controller.ask("Tidy up my folders"))
    assert host.confirmations[0].changes == ['Delete folder "Biology" (empty)']
    assert [f.name for f in store.folders()] == ["Biology"]
    assert not controller.confirming


def test_yes_confirms_the_step() -> None:
    controller, host, store = setup(
        reply("", call("DELETE_ITEM", kind="folder", name="Biology")), "Deleted."
    )
    store.create_folder(NewFolder(name="Biology"))
    host.answers = [True]
    run(controller.ask("Tidy up my folders"))
    assert store.folders() == []


def test_stop_declines_an_open_confirmation() -> None:
    controller, host, store = setup(reply("", call("DELETE_ITEM", kind="folder", name="Biology")))
    store.create_folder(NewFolder(name="Biology"))

    async def stop_when_asked() -> None:
        task = asyncio.ensure_future(controller.ask("Tidy up my folders"))
        await host.asked.wait()
        assert controller.confirming
        controller.stop()
        await task

    run(stop_when_asked())
    assert [f.name for f in store.folders()] == ["Biology"]
    assert controller.state.turns[0].status == "stopped"


def test_answering_with_nothing_open_does_nothing() -> None:
    controller, _host, _store = setup()
    controller.answer(True)
    assert not controller.confirming


def test_retry_asks_the_same_question_again() -> None:
    controller, _host, _store = setup(
        ProviderError("server", "The provider had a problem."), "It is the main artery."
    )
    run(controller.ask("What is an aorta?"))
    assert controller.state.turns[0].can_retry
    run(controller.retry(0))
    assert [t.question for t in controller.state.turns] == ["What is an aorta?"] * 2
    assert controller.state.turns[1].status == "ok"
    run(controller.retry(7))  # no such turn
    assert len(controller.state.turns) == 2


def test_a_rate_limit_wait_counts_down_in_the_turn() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    controller, host, _store = setup()
    controller = AssistantController(host, sleep=sleep)
    controller.state.start("What is an aorta?")

    async def wait() -> None:
        controller._on_wait(2.5, 2)  # the client's callback
        assert controller._countdown is not None
        await controller._countdown

    run(wait())
    assert slept == [1.0, 1.0, 0.5]
    assert controller.state.turns[0].waiting == ""


def test_asking_the_scholar_about_missed_words_needs_a_provider() -> None:
    controller, host, _store = setup("Mnemonics…")
    host.configured = False
    run(controller.ask_scholar("Help me remember aorta"))
    assert host.toasts == [NEEDS_PROVIDER]
    assert host.settings_opened == 1
    host.configured = True
    run(controller.ask_scholar("Help me remember: delete aorta"))
    assert controller.state.turns[0].agent == "scholar"


def test_saving_an_answer_as_a_note_needs_an_open_writable_folder() -> None:
    controller, host, store = setup("The aorta carries blood from the heart.")
    run(controller.ask("What is an aorta?"))
    controller.save_note(0)
    assert host.toasts[-1] == SAVE_NEEDS_FOLDER
    folder = store.create_folder(NewFolder(name="Heart")).id
    host.folder, host.read_only = folder, "Read only here."
    controller.save_note(0)
    assert host.toasts[-1] == "Read only here."
    host.read_only = None
    controller.save_note(0)
    assert controller.state.turns[0].saved_note
    assert host.toasts[-1].startswith("Saved note")
    assert store.can_undo
    controller.save_note(5)  # no such turn: nothing happens
    assert len(host.toasts) == 3


def test_conversations_reopen_and_delete() -> None:
    controller, host, store = setup("The main artery.")
    run(controller.ask("What is an aorta?"))
    conversation = controller.state.conversation_id
    assert conversation is not None
    assert controller.new_conversation()
    assert controller.state.turns == []
    assert controller.reopen(conversation)
    assert [t.question for t in controller.state.turns] == ["What is an aorta?"]
    controller.delete_conversation(conversation)
    assert host.toasts[-1] == "Deleted the conversation."
    assert controller.state.turns == []
    assert store.conversations.recent() == []
    controller.state.start("Still answering")
    assert not controller.reopen(conversation)
    assert not controller.new_conversation()


def test_recent_edits_go_with_the_next_request() -> None:
    controller, host, store = setup("Noted.")
    folder = store.create_folder(NewFolder(name="Heart")).id
    run(controller.ask("What is this?"))  # starts watching the user's edits
    store.add_word(NewWord(folder_id=folder, term="aorta"))
    model = host.model = ScriptedModel("Yes.")
    run(controller.ask("And now?"))
    assert "aorta" in model.requests[0].system.split("recent", 1)[-1]


def test_observers_hear_each_event_of_a_turn_then_its_end() -> None:
    controller, _host, _store = setup("An aorta is the main artery.")
    heard: list[tuple[bool, str]] = []
    controller.observers.append(
        lambda request, event: heard.append((request.spoken, type(event).__name__))
    )
    run(controller.ask("What is an aorta?", spoken=True))
    assert heard[0] == (True, "Routed")
    assert heard[-2:] == [(True, "Finished"), (True, "NoneType")]
    assert "TextDelta" in {name for _spoken, name in heard}
    assert controller.request is None


def test_asking_to_study_hands_free_opens_the_session_offline_without_a_provider() -> None:
    controller, host, store = setup()
    host.online = host.configured = False
    folder = store.create_folder(NewFolder(name="Cardiología"))
    assert controller.prepare("Start studying cardiologia", spoken=True) == Started()
    assert host.studied == [folder.id]
    assert controller.state.turns == []
    assert host.settings_opened == 0


def test_asking_to_study_a_folder_that_is_not_there_says_which_there_are() -> None:
    controller, host, store = setup()
    store.create_folder(NewFolder(name="Spanish verbs"))
    run(controller.ask("quiz me on spanish"))
    assert host.toasts == ["There is no folder called “spanish”. Did you mean “Spanish verbs”?"]
    assert host.studied == []
    assert controller.state.turns == []


def test_explain_answers_outside_the_conversation_with_the_page_s_view() -> None:
    controller, host, store = setup("Perro is Spanish for dog.")
    folder = store.create_folder(NewFolder(name="Spanish"))
    host.folder = folder.id
    answer = asyncio.run(controller.explain("Explain “perro” for the ear."))
    assert answer == "Perro is Spanish for dog."
    assert controller.state.turns == []  # not a turn of the open conversation
    assert store.conversations.recent() == []  # nor a conversation of its own in the list
    [sent] = host.model.requests  # type: ignore[attr-defined]
    assert 'Open folder: "Spanish"' in sent.system


def test_explain_without_a_provider_offline_or_failing_raises_its_sentence() -> None:
    controller, host, _ = setup(ProviderError("network", "The network is down."))
    host.configured = False
    with pytest.raises(LexicalError) as needs:
        asyncio.run(controller.explain("Explain “perro”."))
    assert needs.value.message == EXPLAIN_NEEDS_PROVIDER
    host.online = False
    with pytest.raises(LexicalError) as offline:
        asyncio.run(controller.explain("Explain “perro”."))
    assert offline.value.message == EXPLAIN_OFFLINE
    host.online = host.configured = True
    with pytest.raises(LexicalError) as failed:
        asyncio.run(controller.explain("Explain “perro”."))
    assert failed.value.message == "The network is down."
