"""The browser's fetch transport (app/browser/fetch.py) in real Chromium and Pyodide, talking to
the aimock emulator on loopback: streamed answers from both wire formats, a cut stream, Stop,
a timeout, nothing listening, a refused key, and the emulator's journal.

This checks the adapter itself, below the UI: Pyodide and the app's zip are loaded into a
bare same-origin page, and Python snippets run there through `runPythonAsync`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.llm.aimock import get_json, running_aimock

KEY = "browser-test-key-0123456789"
NOTHING_LISTENS = "http://127.0.0.1:9"  # the discard port: connections are refused
STORY = "Once upon a time a word wandered from Greek into Latin and then into English."
FIXTURES = [
    {"match": {"userMessage": "define aorta"}, "response": {"content": STORY}, "chunkSize": 9},
    {
        "match": {"userMessage": "cut story"},
        "response": {"content": STORY},
        "chunkSize": 8,
        "latency": 30,
        "truncateAfterChunks": 3,
    },
    {
        "match": {"userMessage": "slow story"},
        "response": {"content": STORY},
        "chunkSize": 8,
        "latency": 200,
    },
    {"match": {"userMessage": "very slow"}, "response": {"content": STORY}, "latency": 1500},
    {
        "match": {"userMessage": "busy"},
        "response": {
            "error": {"message": "Rate limited", "type": "rate_limit_error"},
            "status": 429,
        },
    },
]

LOAD = """async (base) => {
  const { loadPyodide } = await import(base + "/static/vendor/pyodide/pyodide.mjs");
  const py = await loadPyodide({ indexURL: base + "/static/vendor/pyodide/" });
  await py.loadPackage(["pydantic"]);
  const zip = await (await fetch(base + "/static/build/app.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip");
  window.lexicalTestPython = py;
}"""

HELPER = """
import json
from app.browser.fetch import FetchTransport
from app.llm.cancel import CancelToken
from app.llm.errors import ProviderError
from app.llm.messages import Message, ModelRequest
from app.llm.settings import ProviderSettings, make_client

async def no_wait(seconds):
    waits.append(seconds)

async def attempt(provider, base, text, key, timeout_s=10.0, stop_at_first=False):
    global waits
    waits = []
    settings = ProviderSettings(provider=provider, model="m", base_url=base, api_key=key)
    # Below the Settings minimum, so that a timeout test stays short.
    settings = settings.model_copy(update={"timeout_s": timeout_s})
    client = make_client(settings, FetchTransport(), sleep=no_wait)
    token = CancelToken()
    shown = []
    def on_text(delta):
        shown.append(delta)
        if stop_at_first:
            token.cancel()
    request = ModelRequest(system="s", messages=(Message(role="user", text=text),))
    try:
        response = await client.complete(request, on_text, token)
        outcome = {"text": response.message.text, "finish": response.finish_reason}
    except ProviderError as error:
        outcome = {"kind": error.kind, "partial": error.partial, "message": error.message,
                   "retry_after": error.retry_after_s}
    return json.dumps({**outcome, "pieces": len(shown), "shown": "".join(shown), "waits": waits})
"""


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_aimock(FIXTURES, tmp_path_factory.mktemp("aimock"), KEY) as url:
        yield url


@pytest.fixture(scope="module")
def python(browser: Browser, base_url: str, mock: str) -> Iterator[Page]:
    """A page with Pyodide and the app loaded; requests may go only to loopback servers."""
    context = browser.new_context()
    outside: list[str] = []

    def route(route: Route) -> None:
        url = route.request.url
        if url.startswith((base_url + "/", mock + "/", NOTHING_LISTENS + "/")):
            route.continue_()
        else:
            outside.append(url)
            route.abort("blockedbyclient")

    context.route("**/*", route)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url + "/static/icon.svg")
    page.evaluate(LOAD, base_url)
    page.evaluate("(code) => window.lexicalTestPython.runPythonAsync(code)", HELPER)
    yield page
    context.close()
    assert outside == []
    assert errors == []


def attempt(
    page: Page, provider: str, base: str, text: str, key: str = KEY, **options: Any
) -> dict[str, Any]:
    extra = "".join(f", {name}={value!r}" for name, value in options.items())
    code = f"await attempt({provider!r}, {base!r}, {text!r}, {key!r}{extra})"
    result = page.evaluate("(code) => window.lexicalTestPython.runPythonAsync(code)", code)
    return dict(json.loads(result))


def base_for(mock: str, provider: str) -> str:
    return f"{mock}/v1beta" if provider == "gemini" else f"{mock}/v1"


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_an_answer_streams_in_pieces_through_fetch(python: Page, mock: str, provider: str) -> None:
    result = attempt(python, provider, base_for(mock, provider), "define aorta")
    assert result["text"] == STORY == result["shown"]
    assert result["pieces"] > 3
    assert result["finish"] == "stop"


def test_a_cut_stream_keeps_what_arrived(python: Page, mock: str) -> None:
    result = attempt(python, "openai", base_for(mock, "openai"), "cut story")
    assert result["kind"] == "stream_cut"
    assert result["partial"] == result["shown"]
    assert 0 < len(result["partial"]) < len(STORY)


def test_stop_aborts_the_fetch_and_keeps_the_first_words(python: Page, mock: str) -> None:
    result = attempt(python, "gemini", base_for(mock, "gemini"), "slow story", stop_at_first=True)
    assert result["kind"] == "stopped"
    assert result["partial"] == result["shown"] != ""


def test_a_silent_server_times_out_and_is_retried(python: Page, mock: str) -> None:
    result = attempt(python, "openai", base_for(mock, "openai"), "very slow", timeout_s=0.5)
    assert result["kind"] == "timeout"
    assert len(result["waits"]) == 2


def test_nothing_listening_is_offline_and_not_retried(python: Page) -> None:
    result = attempt(python, "openai", f"{NOTHING_LISTENS}/v1", "hello")
    assert result["kind"] == "offline"
    assert result["waits"] == []
    assert "Could not reach OpenAI at 127.0.0.1:9" in result["message"]


def test_a_rate_limit_is_retried_with_backoff_when_retry_after_is_hidden(
    python: Page, mock: str
) -> None:
    # The emulator does not expose Retry-After to pages (CORS), as some providers do not.
    result = attempt(python, "openai", base_for(mock, "openai"), "busy")
    assert result["kind"] == "rate_limited"
    assert result["retry_after"] is None
    assert len(result["waits"]) == 2


def test_a_wrong_key_is_refused_and_the_journal_never_saw_the_key_outside_its_header(
    python: Page, mock: str
) -> None:
    wrong = "wrong-browser-key-abcdefghijklmnop"
    result = attempt(python, "gemini", base_for(mock, "gemini"), "define aorta", key=wrong)
    assert result["kind"] == "bad_key"
    assert wrong not in result["message"]
    for entry in get_json(f"{mock}/__aimock/journal", KEY):
        assert KEY not in json.dumps(entry)
        assert wrong not in json.dumps(entry)
        assert "key=" not in entry["path"]
