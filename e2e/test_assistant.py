"""The assistant panel driven as a user would, against the aimock provider emulator on loopback.

The provider is configured through the AI settings dialog (key "test-key-123"); the emulator
speaks both wire formats: the OpenAI one (streamed tool calls) for the Architect, Gemini's for
the Scholar. Failure cases use its injected 429, 500 and cut streams. Its request journal
shows where the key went. Only this module lets the page talk to the emulator's origin.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from e2e.accessibility import violations
from e2e.conftest import Guard, ProviderGuard, open_app, reload, screenshot
from e2e.lexical_ui import (
    COMPATIBLE,
    add_word,
    ask_assistant,
    assistant,
    configure_ai,
    create_folder,
    dialog,
    fill_compatible_server,
    heading,
    last_answer,
    open_assistant,
    tree_link,
    word_item,
    words_heading,
)
from tests.llm.aimock import get_json, running_aimock

KEY = "test-key-123"
MODEL = "lexical-chat-1"
HEART = [
    ("aorta", "the main artery leaving the heart"),
    ("atrium", "an upper chamber of the heart"),
    ("ventricle", "a lower chamber of the heart"),
    ("myocardium", "the muscle of the heart wall"),
    ("pericardium", "the sac around the heart"),
    ("tachycardia", "a fast heart rate"),
    ("bradycardia", "a slow heart rate"),
    ("arrhythmia", "an irregular heartbeat"),
    ("systole", "the phase when the heart contracts"),
    ("diastole", "the phase when the heart relaxes"),
]
CARDIOLOGY = "Create a folder called Cardiology and add 10 heart terms"
SCHOLAR_ANSWER = (
    "**Aorta** comes from Greek *aortē*, “that which is hung”.\n\n"
    "- Example: the aorta carries blood from the heart.\n"
    "- Mnemonic: *A* for the *A*rtery that is *A*head of all others."
)
STORY = "Once upon a time a word wandered from Greek into Latin and then into English."


def _answer(
    fixture_match: dict[str, Any], response: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    return {"match": fixture_match, "response": response, **extra}


FIXTURES = [
    _answer(
        {"userMessage": "Cardiology", "hasToolResult": False},
        {
            "toolCalls": [
                {"name": "CREATE_FOLDER", "arguments": {"name": "Cardiology", "emoji": "🫀"}},
                {
                    "name": "BULK_ADD_WORDS",
                    "arguments": {
                        "folder": "Cardiology",
                        "words": [{"term": t, "meanings": [m]} for t, m in HEART],
                    },
                },
                {"name": "NAVIGATE_TO", "arguments": {"kind": "folder", "name": "Cardiology"}},
            ]
        },
        chunkSize=40,
    ),
    _answer(
        {"userMessage": "Cardiology", "hasToolResult": True},
        {"content": "Created **Cardiology** with 10 heart terms, each with a meaning."},
    ),
    _answer({"userMessage": "etymology of aorta"}, {"content": SCHOLAR_ANSWER}, chunkSize=12),
    *(
        _answer(
            {"userMessage": f"Delete the folder {name}", "hasToolResult": False},
            {"toolCalls": [{"name": "DELETE_ITEM", "arguments": {"kind": "folder", "name": name}}]},
        )
        for name in ("Old", "Keep")
    ),
    _answer({"userMessage": "Delete the folder", "hasToolResult": True}, {"content": "Done."}),
    _answer(
        {"userMessage": "explain busy", "sequenceIndex": 0},
        {"error": {"message": "Rate limited", "type": "rate_limit_error"}, "status": 429},
    ),
    _answer({"userMessage": "explain busy", "sequenceIndex": 1}, {"content": "Back again."}),
    _answer(
        {"userMessage": "explain broken"},
        {"error": {"message": "Internal error", "type": "server_error"}, "status": 500},
    ),
    _answer(
        {"userMessage": "explain a story"},
        {"content": STORY},
        chunkSize=8,
        latency=30,
        truncateAfterChunks=3,
    ),
    _answer({"userMessage": "explain slowly"}, {"content": STORY}, chunkSize=4, latency=250),
    _answer({"userMessage": "explain brackets"}, {"content": "[" * 6_000}, chunkSize=500),
    # Only for the model list: the emulator lists the models its fixtures name.
    _answer({"model": MODEL, "userMessage": "never asked"}, {"content": "-"}),
]


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


@pytest.fixture
def guard(base_url: str, mock: str) -> Guard:
    return ProviderGuard(base_url, mock)


@pytest.fixture
def app(context: BrowserContext, base_url: str) -> Page:
    return open_app(context, base_url)


def openai_settings(page: Page, mock: str, key: str = KEY, test: str | None = "It works") -> None:
    configure_ai(page, provider="OpenAI", base_url=f"{mock}/v1", key=key, model=MODEL, test=test)


def gemini_settings(page: Page, mock: str) -> None:
    configure_ai(
        page, provider="Gemini", base_url=f"{mock}/v1beta", key=KEY, model=MODEL, test=None
    )


def journal(mock: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = get_json(f"{mock}/__aimock/journal", KEY)
    return entries


def test_cardiology_is_built_by_the_architect_and_undone_in_one_step(app: Page, mock: str) -> None:
    panel = open_assistant(app)
    expect(panel.get_by_text("No AI provider is set up yet")).to_be_visible()
    openai_settings(app, mock)
    box = panel.get_by_role("textbox", name="Ask the assistant")
    box.fill(CARDIOLOGY)
    expect(panel.locator("#ai-badge")).to_have_text("Architect: 'create', 'folder', 'add'")
    box.press("Enter")
    answer = last_answer(app)
    expect(answer.get_by_text("Created Cardiology with 10 heart terms")).to_be_visible()
    expect(answer.get_by_role("link", name=re.compile("Created folder"))).to_be_visible()
    expect(answer.get_by_role("link", name=re.compile("Added 10 words"))).to_be_visible()
    expect(tree_link(app, "🫀 Cardiology")).to_be_visible()
    expect(heading(app, "🫀 Cardiology")).to_be_visible()  # NAVIGATE_TO opened it
    expect(words_heading(app, 10)).to_be_visible()
    expect(word_item(app, "aorta")).to_contain_text("the main artery leaving the heart")
    screenshot(app, "assistant-architect-light")
    app.get_by_role("button", name=re.compile("^Undo Architect")).click()
    expect(tree_link(app, "🫀 Cardiology")).to_have_count(0)
    assert not violations(app, "assistant panel")


def test_the_key_goes_only_to_the_provider_in_a_header(app: Page, mock: str) -> None:
    openai_settings(app, mock)
    ask_assistant(app, "What is the etymology of aorta? explain")
    expect(last_answer(app)).to_contain_text("Mnemonic")
    entries = [e for e in journal(mock) if e["response"]["status"] == 200]
    assert entries
    for entry in entries:
        assert KEY not in json.dumps(entry)  # the emulator redacts the headers it checks
        assert KEY not in entry["path"]
    assert any(e["headers"].get("authorization") == "[REDACTED]" for e in entries)
    stored = app.evaluate("JSON.stringify(localStorage)")
    assert KEY not in stored  # "Remember the key" was left unticked: memory only


def test_a_hostile_answer_of_brackets_is_shown_and_the_assistant_goes_on(
    app: Page, mock: str
) -> None:
    # 6,000 "[" once overflowed the browser's stack in the Markdown parser: "Thinking…" stayed
    # for ever and the assistant took no further question.
    openai_settings(app, mock)
    ask_assistant(app, "explain brackets")
    expect(last_answer(app)).to_contain_text("[[[[[[[[[[")
    ask_assistant(app, "What is the etymology of aorta? explain")
    expect(last_answer(app)).to_contain_text("Mnemonic")


def test_a_scholar_answer_streams_over_gemini_and_is_saved_to_notes(app: Page, mock: str) -> None:
    create_folder(app, "Anatomy")
    gemini_settings(app, mock)
    panel = open_assistant(app)
    panel.get_by_role("radio", name="Scholar").check()
    ask_assistant(app, "Tell me the etymology of aorta")
    answer = last_answer(app)
    expect(answer.locator("strong", has_text="Aorta")).to_be_visible()  # Markdown, rendered
    expect(answer.get_by_role("listitem").filter(has_text="Mnemonic")).to_be_visible()
    screenshot(app, "assistant-scholar-light")
    answer.get_by_role("button", name="Save to notes").click()
    expect(
        app.get_by_role("heading", level=3, name=re.compile("Tell me the etymology of aorta"))
    ).to_be_visible()
    gemini = [e for e in journal(mock) if "/v1beta/" in e["path"]]
    assert any(e["path"].endswith(":streamGenerateContent?alt=sse") for e in gemini)
    for entry in gemini:
        assert KEY not in json.dumps(entry)
        assert "key=" not in entry["path"]
        assert entry["headers"]["x-goog-api-key"] == "[REDACTED]"
    app.get_by_role("button", name=re.compile("^Undo Add note")).click()
    expect(app.get_by_role("heading", level=3, name=re.compile("etymology"))).to_have_count(0)


def _folder_with_a_word(page: Page, name: str) -> None:
    create_folder(page, name)
    add_word(page, f"{name.lower()}-word", ["kept for the test"])


def test_a_destructive_request_waits_for_confirm_and_cancel_changes_nothing(
    app: Page, mock: str
) -> None:
    _folder_with_a_word(app, "Old")
    app.get_by_role("link", name="Home").first.click()
    _folder_with_a_word(app, "Keep")
    openai_settings(app, mock)
    ask_assistant(app, "Delete the folder Old")
    box = dialog(app)
    expect(
        box.get_by_role("heading", name="The Architect wants to make this change:")
    ).to_be_visible()
    expect(box.get_by_role("list", name="What will change")).to_contain_text("Old")
    screenshot(app, "assistant-confirm-light")
    assert not violations(app, "confirmation dialog")
    box.get_by_role("button", name="Confirm").click()
    expect(tree_link(app, "Old")).to_have_count(0)
    expect(last_answer(app)).to_contain_text("Done.")

    assistant(app).get_by_role("button", name="New conversation").click()
    ask_assistant(app, "Delete the folder Keep")
    expect(box.get_by_role("list", name="What will change")).to_contain_text("Keep")
    box.get_by_role("button", name="Cancel").click()
    expect(box).to_be_hidden()
    expect(last_answer(app)).to_contain_text("Done.")
    expect(tree_link(app, "Keep")).to_be_visible()
    expect(
        app.get_by_role("button", name=re.compile("^Undo Architect: Delete the folder Old"))
    ).to_be_visible()


def compatible_settings(page: Page, mock: str, key: str = KEY, test: str = "It works") -> None:
    configure_ai(
        page,
        provider=COMPATIBLE,
        base_url=f"{mock}/v1",
        key=key,
        model=MODEL,
        test=test,
    )


SEEN = """() => {
  const panel = document.getElementById("assistant");
  window.lexicalSeen = [];
  new MutationObserver(() => {
    if (!window.lexicalSeen.includes(panel.textContent)) window.lexicalSeen.push(panel.textContent);
  }).observe(panel, {subtree: true, childList: true, characterData: true});
}"""


def test_a_rate_limit_counts_down_then_the_answer_comes(app: Page, mock: str) -> None:
    compatible_settings(app, mock)
    open_assistant(app)
    app.evaluate(SEEN)
    ask_assistant(app, "Please explain busy")
    expect(last_answer(app)).to_contain_text("Back again.")
    seen = app.evaluate("window.lexicalSeen.join('\\n')")
    assert re.search(r"Retrying in \d+ s…", seen)


def test_a_server_error_is_said_plainly_with_retry(app: Page, mock: str) -> None:
    compatible_settings(app, mock)
    ask_assistant(app, "Please explain broken")
    answer = last_answer(app)
    expect(answer.get_by_role("alert")).to_contain_text("had a problem on its side (error 500)")
    expect(answer.get_by_role("button", name="Retry")).to_be_visible()
    screenshot(app, "assistant-error-light")
    assert not violations(app, "assistant error")


def test_a_cut_stream_keeps_the_partial_answer_and_offers_retry(app: Page, mock: str) -> None:
    compatible_settings(app, mock)
    ask_assistant(app, "Please explain a story")
    answer = last_answer(app)
    expect(answer.get_by_role("alert")).to_contain_text("stopped mid-way")
    expect(answer).to_contain_text("Once upo")  # the chunks that arrived before the cut
    expect(answer.get_by_role("button", name="Retry")).to_be_visible()


def test_a_bad_key_is_a_plain_sentence(app: Page, mock: str) -> None:
    compatible_settings(app, mock, key="wrong-key-000", test="did not accept the API key")
    ask_assistant(app, "Please explain busy")
    expect(last_answer(app).get_by_role("alert")).to_contain_text(
        "did not accept the API key. Paste the key again in Settings"
    )
    assert "wrong-key-000" not in assistant(app).inner_text()


def test_settings_dialog_in_both_themes_and_the_key_is_never_shown(app: Page, mock: str) -> None:
    openai_settings(app, mock)
    app.get_by_role("button", name="AI settings").first.click()
    box = dialog(app)
    expect(box.get_by_label("API key")).to_have_value("")
    expect(box.get_by_text("A key is saved (hidden)")).to_be_visible()
    assert KEY not in app.content()
    screenshot(app, "assistant-settings-light")
    assert not violations(app, "AI settings")
    box.get_by_role("button", name="Cancel").click()
    app.locator("#main").focus()
    app.keyboard.press("t")
    app.get_by_role("button", name="AI settings").first.click()
    screenshot(app, "assistant-settings-dark")
    assert not violations(app, "AI settings dark")
    box.get_by_role("button", name="Cancel").click()
    ask_assistant(app, CARDIOLOGY)
    expect(last_answer(app)).to_contain_text("Created Cardiology")
    screenshot(app, "assistant-architect-dark")
    assert not violations(app, "assistant panel dark")


def test_stop_keeps_what_arrived_marked_stopped(app: Page, mock: str) -> None:
    compatible_settings(app, mock)
    panel = ask_assistant(app, "Please explain slowly")
    answer = last_answer(app)
    expect(answer).to_contain_text("Once")
    panel.get_by_role("button", name="Stop").click()
    expect(answer.locator("mark", has_text="Stopped")).to_be_visible()
    expect(answer).to_contain_text("Once")
    expect(answer.get_by_role("button", name="Retry")).to_be_visible()
    expect(panel.get_by_role("button", name="Send")).to_be_visible()


def test_conversations_are_kept_reopened_and_deleted_from_the_keyboard(
    app: Page, mock: str
) -> None:
    gemini_settings(app, mock)
    app.locator("#main").focus()
    app.keyboard.press("a")  # the shortcut opens the panel and puts the cursor in the box
    panel = assistant(app)
    box = panel.get_by_role("textbox", name="Ask the assistant")
    expect(box).to_be_focused()
    box.type("What is the etymology of aorta?")
    box.press("Shift+Enter")  # a new line, not a send
    expect(box).to_have_value("What is the etymology of aorta?\n")
    box.press("Enter")
    expect(last_answer(app)).to_contain_text("Mnemonic")
    panel.get_by_role("button", name="New conversation").click()
    expect(panel.locator(".ai-turn")).to_have_count(0)
    panel.get_by_role("button", name="Conversations").click()
    saved = panel.get_by_role("list", name="Saved conversations")
    saved.get_by_role("button", name=re.compile("^What is the etymology of aorta")).click()
    expect(last_answer(app)).to_contain_text("Mnemonic")
    panel.get_by_role("button", name="Conversations").click()
    saved.get_by_role("button", name=re.compile("^Delete conversation")).click()
    expect(panel.get_by_text("No saved conversations yet.")).to_be_visible()
    expect(panel.locator(".ai-turn")).to_have_count(0)
    box.press("Escape")
    expect(panel).to_be_hidden()


def test_offline_the_panel_says_so_and_the_rest_keeps_working(
    app: Page, context: BrowserContext, mock: str
) -> None:
    openai_settings(app, mock)
    panel = open_assistant(app)
    context.set_offline(True)
    expect(panel.get_by_text("AI is offline")).to_be_visible()
    expect(panel.get_by_role("button", name="Send")).to_be_disabled()
    create_folder(app, "Offline words")
    context.set_offline(False)
    expect(panel.get_by_text("AI is offline")).to_have_count(0)
    expect(panel.get_by_role("button", name="Send")).to_be_enabled()


def test_a_remembered_key_survives_a_reload_and_unticking_forgets_it(app: Page, mock: str) -> None:
    app.get_by_role("button", name="AI settings").first.click()
    box = dialog(app)
    box.get_by_label("Provider").select_option(label="OpenAI")
    box.get_by_text("Address (advanced)").click()
    box.get_by_label("Base URL").fill(f"{mock}/v1")
    box.get_by_label("API key").fill(KEY)
    box.get_by_label("Remember the key on this device").check()
    box.get_by_role("button", name="Save").click()
    reload(app)
    panel = open_assistant(app)
    expect(panel.get_by_role("button", name="Send")).to_be_enabled()
    assert KEY in app.evaluate("JSON.stringify(localStorage)")
    app.get_by_role("button", name="AI settings").first.click()
    box.get_by_label("Remember the key on this device").uncheck()
    box.get_by_role("button", name="Save").click()
    assert KEY not in app.evaluate("JSON.stringify(localStorage)")
    reload(app)
    panel = open_assistant(app)
    expect(panel.get_by_text("No AI provider is set up yet")).to_be_visible()


def test_a_question_asked_before_any_key_is_kept_while_settings_open(app: Page, mock: str) -> None:
    panel = open_assistant(app)
    question = panel.get_by_role("textbox", name="Ask the assistant")
    question.fill("What does aorta come from?")
    question.press("Enter")
    box = dialog(app)
    expect(box.get_by_role("heading", name="AI settings")).to_be_visible()
    box.get_by_role("button", name="Cancel").click()
    expect(box).to_be_hidden()
    expect(question).to_have_value("What does aorta come from?")
    # Once a provider is saved, the same question is there to send.
    openai_settings(app, mock)
    expect(question).to_have_value("What does aorta come from?")
    expect(panel.get_by_role("button", name="Send")).to_be_enabled()


def test_a_compatible_server_is_tested_before_a_model_is_named(app: Page, mock: str) -> None:
    box = fill_compatible_server(app, f"{mock}/v1", KEY)
    expect(box.get_by_label("Model")).to_have_value("")
    box.get_by_role("button", name="Test key").click()
    # The test fetches the server's models to choose from; no half-sentence about a model.
    expect(box.locator("#ai-check")).to_contain_text("It works")
    expect(box.get_by_role("combobox", name="Model")).to_be_visible()
    expect(box.get_by_role("alert")).to_be_hidden()
    box.get_by_role("button", name="Save").click()
    expect(box).to_be_hidden()
