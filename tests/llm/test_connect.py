"""Which addresses the page may connect to (decision 022): the origin of a provider address,
and whether the page's connect-src sources allow it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.llm.connect import allows, origin_list, origin_of, parsed_origins

PAGE = ("'self'", "http://localhost:*", "http://127.0.0.1:*")


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        (
            "https://generativelanguage.googleapis.com/v1beta",
            "https://generativelanguage.googleapis.com",
        ),
        ("https://API.OpenAI.com/v1/", "https://api.openai.com"),
        ("https://api.openai.com:443/v1", "https://api.openai.com"),
        ("https://gw.example:8443/openai/v1", "https://gw.example:8443"),
        ("http://192.168.1.5:11434/v1", "http://192.168.1.5:11434"),
        ("http://localhost/v1", "http://localhost"),
    ],
)
def test_the_origin_is_scheme_host_and_port_only(url: str, origin: str) -> None:
    assert origin_of(url) == origin


@pytest.mark.parametrize(
    "url",
    [
        "",
        "ftp://x.example",
        "https://",
        "javascript:alert(1)",
        "https://a b.example",
        "https://x.example;script-src *",
        # A CSP source cannot name an IPv6 address, so none can be an allowed origin.
        "http://[::1]:8080/v1",
        "https://[2001:db8::1]/v1",
    ],
)
def test_what_is_not_an_http_address_has_no_origin(url: str) -> None:
    assert origin_of(url) is None


def test_loopback_servers_are_allowed_on_any_port_and_nothing_else_by_default() -> None:
    assert allows(PAGE, "http://localhost:11434/v1")
    assert allows(PAGE, "http://127.0.0.1:8080/v1")
    assert not allows(PAGE, "http://[::1]:1234/v1")  # the settings offer localhost instead
    assert not allows(PAGE, "https://api.openai.com/v1")
    assert not allows(PAGE, "http://192.168.1.5:11434/v1")
    assert not allows(PAGE, "https://localhost:11434/v1")  # the scheme counts


def test_a_saved_origin_is_allowed_with_its_own_port_only() -> None:
    sources = (*PAGE, "https://gw.example:8443")
    assert allows(sources, "https://gw.example:8443/openai/v1")
    assert not allows(sources, "https://gw.example/openai/v1")
    assert not allows(sources, "https://evil.gw.example:8443/v1")


def test_the_stored_list_round_trips_and_forgives_damage() -> None:
    text = origin_list(["https://api.openai.com"])
    assert parsed_origins(text) == ("https://api.openai.com",)
    assert parsed_origins(None) == ()
    assert parsed_origins("not json") == ()
    assert parsed_origins(json.dumps({"a": 1})) == ()
    # A hostile entry (a second CSP directive, a wildcard) is dropped, the rest kept.
    hostile = json.dumps(["https://ok.example", "https://x.example; script-src *", "*", 5])
    assert parsed_origins(hostile) == ("https://ok.example",)


@given(st.text(max_size=60))
def test_any_text_gives_an_origin_without_spaces_or_semicolons_or_none(url: str) -> None:
    origin = origin_of(url)
    assert origin is None or not any(c in origin for c in " ;,'\"\t\n\r")
