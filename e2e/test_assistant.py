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
from playwright.sync_api import BrowserContext, Page, Route, expect

from e2e.accessibility import violations
from e2e.conftest import Guard, open_app, screenshot
from e2e.lexical_ui import (
    add_word,
    ask_assistant,
    assistant,
    configure_ai,
    create_folder,
    dialog,
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
    # Only for the model list: the emulator lists the models its fixtures name.
    _answer({"model": MODEL, "userMessage": "never asked"}, {"content": "-"}),
]


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


class ProviderGuard(Guard):
    """The usual guard, plus the emulator: the one outside origin these tests may reach."""

    def __init__(self, origin: str, provider: str) -> None:
        super().__init__(origin)
        self.provider = provider

    def route(self, route: Route) -> None:
        if route.request.url.startswith(self.provider + "/"):
            route.continue_()
        else:
            super().route(route)


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
