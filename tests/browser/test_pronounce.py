"""Pronounce: P on the selected word, and the word said in its effective language (its own,
else its folder's, else the user's), or a toast saying which voice is missing: at every press
of Pronounce, but only once for the prompts the page says by itself."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

import pytest

from app.browser.pronounce import SpeechGlue
from app.browser.voice_settings import SETTINGS_KEY, load_settings, save_settings
from app.inputs import FolderPatch, NewFolder, NewWord
from app.speech.outcome import IN_TEXT
from app.speech.settings import VoiceSettings
from app.store import Store
from app.ui.controller import Controller
from app.ui.routes import Route
from tests.browser import fakes
from tests.browser.fake_speech import Synthesis, Utterance, voice
from tests.browser.fakes import Element, load_shell
from tests.browser.test_keys import keyboard, press


def test_p_pronounces_the_word_whose_row_has_the_focus() -> None:
    _keys, page, document = keyboard()
    row = Element("li", {"data-word-id": "12"}, Element("button", {"id": "edit-12"}))
    document.getElementById("main").appendChild(row)
    press(document.getElementById("edit-12"), "p")
    assert page.ran == [("pronounce", "12")]


def test_p_pronounces_the_linked_word_and_does_nothing_without_one() -> None:
    _keys, page, document = keyboard()
    press(document.body, "p")
    assert page.ran == []
    folder = page.controller.store.create_folder(NewFolder(name="Spanish"))
    page.controller.navigate(Route(folder.id, 34))
    press(document.body, "P")
    assert page.ran == [("pronounce", "34")]


def test_p_is_a_letter_in_a_text_field() -> None:
    _keys, page, document = keyboard()
    page.controller.navigate(Route(1, 34))
    press(document.getElementById("word-new-term"), "p")
    assert page.ran == []


class Page:
    """What the speech glue uses of app.browser.app.Page; background work runs on request."""

    def __init__(self) -> None:
        self.controller = Controller(Store.open())
        self.commands: dict[str, Any] = {}
        self.work: list[Coroutine[Any, Any, None]] = []
        self.toasts: list[str] = []

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        self.work.append(work)

    def show_toast(self, message: str) -> None:
        self.toasts.append(message)

    def finish_work(self) -> None:
        async def all_of_it() -> None:
            while self.work:
                await self.work.pop(0)

        asyncio.run(all_of_it())


@pytest.fixture
def synth(monkeypatch: pytest.MonkeyPatch) -> Synthesis:
    synth = Synthesis(
        [
            voice("Afrikaans", "af", default=True),
            voice("Deutsch", "de-DE"),
            voice("Español", "es-ES"),
            voice("English", "en-GB"),
        ]
    )
    synth.list_voices()
    monkeypatch.setattr(fakes.window, "speechSynthesis", synth, raising=False)
    monkeypatch.setattr(fakes.window, "SpeechSynthesisUtterance", Utterance, raising=False)
    load_shell()
    return synth


def glue(settings: VoiceSettings | None = None) -> tuple[SpeechGlue, Page]:
    if settings is not None:
        fakes.js.localStorage.setItem(SETTINGS_KEY, settings.model_dump_json())
    page = Page()
    speech = SpeechGlue(page)  # type: ignore[arg-type]
    speech.start(lambda target, kind, handler: target.addEventListener(kind, handler))
    return speech, page


def test_a_word_is_said_in_its_own_its_folders_or_the_users_language(synth: Synthesis) -> None:
    _speech, page = glue(VoiceSettings(speech_lang="en-GB", rate=0.8))
    store = page.controller.store
    plain = store.create_folder(NewFolder(name="Mixed"))
    perro = store.add_word(NewWord(folder_id=plain.id, term="perro", lang="es"))
    dog = store.add_word(NewWord(folder_id=plain.id, term="dog"))
    hund = store.add_word(NewWord(folder_id=plain.id, term="Hund"))
    store.update_folder(plain.id, FolderPatch(lang="de"))  # after "Hund" took no language
    for word in (perro, dog, hund):
        page.commands["pronounce"](str(word.id), None)
    page.finish_work()
    assert dog.lang == ""
    assert hund.lang == ""
    assert [(t, lang, name, rate) for t, lang, name, rate, _p in synth.said()] == [
        ("perro", "es", "Español", 0.8),
        ("dog", "de", "Deutsch", 0.8),  # the folder's language, set after it was added
        ("Hund", "de", "Deutsch", 0.8),
    ]
    assert page.toasts == []


def test_no_voice_for_the_words_language_is_a_toast(synth: Synthesis) -> None:
    _speech, page = glue()
    store = page.controller.store
    folder = store.create_folder(NewFolder(name="Japanese", lang="ja"))
    word = store.add_word(NewWord(folder_id=folder.id, term="ありがとう"))
    page.commands["pronounce"](str(word.id), None)
    page.finish_work()
    assert synth.spoken == []
    assert page.toasts == [
        "Your browser has no Japanese voice. Add one in your system's speech settings, "
        "or let your AI provider speak (AI settings)."
    ]


def test_prompts_nobody_can_say_are_told_once_and_pronounce_every_time(
    synth: Synthesis,
) -> None:
    speech, page = glue()
    for _ in range(3):
        speech.say("ありがとう", "ja")  # Listening's prompt, card after card
    page.finish_work()
    no_voice = "Your browser has no Japanese voice."
    (told,) = page.toasts
    assert told.startswith(f"{IN_TEXT['prompt']} {no_voice}")
    store = page.controller.store
    folder = store.create_folder(NewFolder(name="Japanese", lang="ja"))
    word = store.add_word(NewWord(folder_id=folder.id, term="ありがとう"))
    for _ in range(2):
        page.commands["pronounce"](str(word.id), None)
    page.finish_work()
    assert [toast.startswith(no_voice) for toast in page.toasts] == [False, True, True]
    assert synth.spoken == []


@pytest.mark.parametrize("item_id", [None, "", "999", "not a number"])
def test_a_missing_word_is_a_toast(synth: Synthesis, item_id: str | None) -> None:
    _speech, page = glue()
    page.commands["pronounce"](item_id, None)
    assert page.toasts == ["That word is no longer here."]
    assert page.work == []


def test_voice_settings_survive_blocked_storage_in_the_browsers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fakes.js, "navigator", SimpleNamespace(language="pt-BR"))
    fakes.js.localStorage = fakes.Storage(blocked=True)
    assert load_settings() == VoiceSettings(speech_lang="pt-BR")
    save_settings(VoiceSettings(rate=2.0))  # dropped, never an error
    fakes.js.localStorage = fakes.Storage()
    save_settings(VoiceSettings(speech_lang="de", rate=2.0))
    assert load_settings() == VoiceSettings(speech_lang="de", rate=2.0)
