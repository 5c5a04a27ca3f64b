"""The assistant against a local llama.cpp server, driven as a user would (issue 14), through
the loopback double in e2e/llama_server.py: an address without /v1 is caught by Test key, a
tool call lost by an empty stream still happens, a context overflow is one sentence, and a
call written as text is repaired.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from e2e.conftest import BOOT_TIMEOUT_MS, READY, Guard, ProviderGuard, screenshot
from e2e.lexical_ui import (
    COMPATIBLE,
    ask_assistant,
    assistant,
    configure_ai,
    fill_compatible_server,
    last_answer,
    toast,
    tree,
    tree_link,
)
from e2e.llama_server import MODEL, Call, LlamaServer, running_llama_server

BIOLOGY = "Create a folder called Biology"
WRITTEN_CALL = 'CREATE_FOLDER({"name": "Chemistry", "emoji": "⚗️"})'
SCRIPT = {
    "Biology": [[Call("CREATE_FOLDER", {"name": "Biology", "emoji": "🧬"})]],
    # A small model writes the call as text first; told so once, it makes the call.
    "Chemistry": [WRITTEN_CALL, [Call("CREATE_FOLDER", {"name": "Chemistry", "emoji": "⚗️"})]],
}


@pytest.fixture
def llama() -> Iterator[LlamaServer]:
    with running_llama_server(SCRIPT) as double:
        yield double


@pytest.fixture
def guard(base_url: str, llama: LlamaServer) -> Guard:
    return ProviderGuard(base_url, llama.url)


def local_server(page: Page, llama: LlamaServer) -> None:
    """Settings for the local server at its right address, without a key, tested."""
    configure_ai(
        page,
        provider=COMPATIBLE,
        base_url=f"{llama.url}/v1",
        key="",
        model=MODEL,
        test="It works",
    )


def test_an_address_without_v1_is_caught_by_test_key_and_the_fix_works(
    app: Page, llama: LlamaServer
) -> None:
    box = fill_compatible_server(app, llama.url)
    box.get_by_role("button", name="Test key").click()
    check = box.locator("#ai-check")
    host = llama.url.removeprefix("http://")
    expect(check).to_have_text(
        f"The server at {host} answers at {llama.url}/v1, not at {llama.url}: add /v1 to the "
        "address and test again."
    )
    screenshot(app, "local-server-add-v1")
    assert [r.path for r in llama.received if r.method == "GET"] == ["/models", "/v1/models"]
    box.get_by_label("Base URL").fill(f"{llama.url}/v1")
    box.get_by_role("button", name="Test key").click()
    expect(check).to_contain_text("It works")
    expect(box.get_by_role("combobox", name="Model")).to_have_value(MODEL)


def test_save_offers_v1_for_an_address_without_a_path(app: Page, llama: LlamaServer) -> None:
    """Issue 25: Save kept the address without /v1 and every question got 404."""
    box = fill_compatible_server(app, llama.url)
    box.get_by_label("Model").fill(MODEL)
    box.get_by_role("button", name="Save").click()
    error = box.locator("#ai-settings-error")
    expect(error).to_contain_text(f"{llama.url} has no path, so every question would get 404")
    screenshot(app, "local-server-save-offers-v1")
    box.get_by_role("button", name=f"Use {llama.url}/v1").click()
    app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)  # the one reload allowing it
    expect(toast(app)).to_contain_text("AI settings saved", timeout=BOOT_TIMEOUT_MS)
    app.get_by_role("button", name="AI settings").first.click()
    expect(box.get_by_label("Base URL")).to_have_value(f"{llama.url}/v1")


def test_save_keeps_an_address_without_a_path_when_told_to(app: Page, llama: LlamaServer) -> None:
    box = fill_compatible_server(app, llama.url)
    box.get_by_label("Model").fill(MODEL)
    box.get_by_role("button", name="Save").click()
    box.get_by_role("button", name="Save as typed").click()
    app.wait_for_function(READY, timeout=BOOT_TIMEOUT_MS)
    expect(toast(app)).to_contain_text("AI settings saved", timeout=BOOT_TIMEOUT_MS)
    app.get_by_role("button", name="AI settings").first.click()
    expect(box.get_by_label("Base URL")).to_have_value(llama.url)


def test_a_tool_call_lost_in_an_empty_stream_is_asked_again_and_the_folder_made(
    app: Page, llama: LlamaServer
) -> None:
    local_server(app, llama)
    ask_assistant(app, BIOLOGY)
    answer = last_answer(app)
    expect(answer.get_by_text("Done.")).to_be_visible()
    expect(answer.get_by_role("link", name=re.compile("Created folder"))).to_be_visible()
    expect(tree_link(app, "🧬 Biology")).to_be_visible()
    screenshot(app, "local-server-empty-stream")
    # Streamed first (the empty stream), then the same request unstreamed; the server is
    # remembered, so the request after the tool result goes unstreamed at once.
    streamed, again, after_tool = llama.chats()
    assert (streamed.streamed, again.streamed, after_tool.streamed) == (True, False, False)
    assert {k: v for k, v in streamed.body.items() if not k.startswith("stream")} == again.body
    assert after_tool.body["messages"][-1]["role"] == "tool"


def test_a_context_overflow_is_one_sentence_and_changes_nothing(
    app: Page, llama: LlamaServer
) -> None:
    llama.n_ctx = 4_096  # llama-server started with `-c 4096`
    local_server(app, llama)
    ask_assistant(app, BIOLOGY)
    expect(last_answer(app).get_by_text("Done.")).to_be_visible()  # a short request fits
    asked = len(llama.chats())
    # A long paste: the prompt with the tools no longer fits the server's context.
    words = "\n".join(f"cell{n:03} - a part of the cell that does job {n:03}" for n in range(400))
    ask_assistant(app, f"Create a folder called Cells and add these words:\n{words}")
    alert = last_answer(app).get_by_role("alert")
    expect(alert).to_have_text(
        "This conversation plus the assistant's tools are too long for this model's context "
        "window (4,096 tokens): start a new conversation, or choose a model with a bigger "
        "window in Settings."
    )
    expect(assistant(app).get_by_role("button", name="Send")).to_be_visible()  # turn over
    alert.scroll_into_view_if_needed()
    screenshot(app, "local-server-context-overflow")
    expect(tree(app).get_by_role("link")).to_have_count(1)
    expect(tree_link(app, "🧬 Biology")).to_be_visible()
    assert len(llama.chats()) == asked + 1  # refused once, not retried
    assert llama.received[-1].body["messages"][-1]["content"].endswith("job 399")


def test_a_call_written_as_text_is_repaired_once_and_made(app: Page, llama: LlamaServer) -> None:
    local_server(app, llama)
    ask_assistant(app, "Create a folder called Chemistry")
    answer = last_answer(app)
    expect(tree_link(app, "⚗️ Chemistry")).to_be_visible()
    expect(answer.get_by_text("Done.")).to_be_visible()
    expect(assistant(app)).not_to_contain_text("CREATE_FOLDER(")
    screenshot(app, "local-server-repaired-call")
    written, repaired, _ = [chat for chat in llama.chats() if not chat.streamed]
    assert written.body["messages"][-1]["role"] == "user"
    # The slip goes back once, with a note after it, for the call to be made properly.
    slip, note = repaired.body["messages"][-2:]
    assert slip == {"role": "assistant", "content": WRITTEN_CALL}
    assert note["role"] == "user"
    assert "CREATE_FOLDER" in note["content"]
