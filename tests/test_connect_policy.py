"""The page's CSP lets the assistant reach providers and loopback servers, and nothing else
was loosened for it (decision 010)."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = (Path(__file__).resolve().parent.parent / "index.html").read_text()


def rules() -> dict[str, list[str]]:
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', PAGE)
    assert policy
    pairs = (rule.strip().split(" ", 1) for rule in policy.group(1).split(";"))
    return {name: value.split() for name, value in pairs}


def test_connect_src_is_self_the_providers_any_https_and_loopback_http() -> None:
    assert rules()["connect-src"] == [
        "'self'",
        "https://generativelanguage.googleapis.com",
        "https://api.openai.com",
        "https:",
        "http://localhost:*",
        "http://127.0.0.1:*",
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
    assert not any(source == "http:" for sources in policy.values() for source in sources)


def test_speech_made_by_a_provider_can_play_from_a_blob_and_nothing_else_from_afar() -> None:
    assert rules()["media-src"] == ["'self'", "blob:"]
