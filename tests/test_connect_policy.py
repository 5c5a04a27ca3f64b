"""The page may connect only to this site, this computer and the servers the user saved
(decisions 010 and 022): index.html sets the outer bounds, static/connect.js narrows them
before anything else runs; nothing else in the policy was loosened."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.llm.connect import ORIGIN

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "index.html").read_text()
SCRIPT = ROOT / "static" / "connect.js"
# No IPv6 literal: Chromium's CSP parser refuses one ("invalid source") and every page logged it.
LOOPBACK = ["http://localhost:*", "http://127.0.0.1:*"]


def rules() -> dict[str, list[str]]:
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', PAGE)
    assert policy
    pairs = (rule.strip().split(" ", 1) for rule in policy.group(1).split(";"))
    return {name: value.split() for name, value in pairs}


def test_the_page_own_policy_bounds_connections_to_the_web() -> None:
    # Websockets for the sync server: wss anywhere, ws on this computer only (decision 041);
    # connect.js narrows them to the one paired server.
    assert rules()["connect-src"] == [
        "'self'",
        "https:",
        "http:",
        "wss:",
        "ws://127.0.0.1:*",
        "ws://localhost:*",
    ]


def test_nothing_else_was_widened() -> None:
    policy = rules()
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'none'"]
    others = (s for name, sources in policy.items() if name != "connect-src" for s in sources)
    assert "http:" not in others


def test_speech_made_by_a_provider_can_play_from_a_blob_and_nothing_else_from_afar() -> None:
    assert rules()["media-src"] == ["'self'", "blob:"]


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs))


def test_the_narrowing_script_runs_first_and_before_the_page_is_parsed() -> None:
    parser = _Scripts()
    parser.feed(PAGE)
    first = parser.scripts[0]
    assert first["src"] == "./static/connect.js"
    assert "type" not in first
    assert "defer" not in first
    assert "async" not in first


@pytest.mark.parametrize(
    "source", ["http://[::1]:8080", "http://[::1]:*", "http://[0:0:0:0:0:0:0:1]:80", "[::1]:*"]
)
def test_an_ipv6_literal_is_never_a_source(source: str) -> None:
    """CSP's host-source grammar has letters, digits, dots and hyphens only: Chromium 156
    logs "invalid source" for each of these and ignores it (decision 022)."""
    assert not ORIGIN.match(source)


def test_the_script_and_python_agree_on_what_an_origin_is() -> None:
    found = re.search(r"var ORIGIN = /(.+)/;", SCRIPT.read_text())
    assert found
    assert found.group(1).replace(r"\/", "/") == ORIGIN.pattern


HARNESS = """
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
function storage(items) {
  if (items === "blocked") return { getItem() { throw new Error("SecurityError"); },
                                    removeItem() { throw new Error("SecurityError"); } };
  return { items, getItem(n) { return n in items ? items[n] : null; },
           removeItem(n) { delete items[n]; } };
}
const appended = [];
global.window = { localStorage: storage(input.local), sessionStorage: storage(input.session) };
global.document = {
  createElement() { return {}; },
  head: { appendChild(e) { appended.push(e); } },
  documentElement: { dataset: {} },
};
eval(fs.readFileSync(input.script, "utf8"));
console.log(JSON.stringify({
  metas: appended, dataset: document.documentElement.dataset,
  session: input.session === "blocked" ? null : window.sessionStorage.items,
}));
"""


def run(local: object, session: object) -> dict[str, object]:
    stdin = json.dumps({"script": str(SCRIPT), "local": local, "session": session})
    done = subprocess.run(
        ["node", "-e", HARNESS], input=stdin, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")


@needs_node
def test_with_nothing_saved_only_this_site_and_this_computer() -> None:
    result = run({}, {})
    assert result["metas"] == [
        {
            "httpEquiv": "Content-Security-Policy",
            "content": "connect-src " + " ".join(["'self'", *LOOPBACK]),
        }
    ]
    assert result["dataset"] == {"connectSrc": " ".join(["'self'", *LOOPBACK])}


@needs_node
def test_the_saved_server_and_a_server_allowed_once_are_added() -> None:
    saved = json.dumps(["https://api.openai.com"])
    once = json.dumps(["http://192.168.1.5:11434"])
    result = run({"lexical-connect": saved}, {"lexical-connect-once": once, "other": "x"})
    assert result["dataset"] == {
        "connectSrc": " ".join(
            ["'self'", *LOOPBACK, "https://api.openai.com", "http://192.168.1.5:11434"]
        )
    }
    assert result["session"] == {"other": "x"}  # allowed for this load only


@needs_node
@pytest.mark.parametrize(
    "stored",
    [
        "not json",
        json.dumps({"https://x.example": True}),
        json.dumps(["https://x.example; script-src *", "*", "https:", 5, "javascript:x"]),
        json.dumps(["http://[::1]:8080", "http://[fe80::1]:11434"]),  # saved by older versions
    ],
)
def test_damaged_or_hostile_lists_add_nothing(stored: str) -> None:
    result = run({"lexical-connect": stored}, {})
    assert result["dataset"] == {"connectSrc": " ".join(["'self'", *LOOPBACK])}


@needs_node
def test_blocked_storage_still_narrows() -> None:
    result = run("blocked", "blocked")
    assert result["dataset"] == {"connectSrc": " ".join(["'self'", *LOOPBACK])}
