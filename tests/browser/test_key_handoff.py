"""A key kept only in memory crosses one reload in the tab's name (app/browser/key_handoff.py)."""

from __future__ import annotations

import js

from app.browser import key_handoff


def test_a_held_key_is_given_back_once_to_its_token() -> None:
    token = key_handoff.hold("sk-memory-only")
    assert "sk-memory-only" in js.window.name
    assert js.sessionStorage.items == {}
    assert js.localStorage.items == {}
    assert key_handoff.take(token) == "sk-memory-only"
    assert js.window.name == ""
    assert key_handoff.take(token) == ""


def test_another_token_gets_nothing_and_the_key_is_gone_all_the_same() -> None:
    key_handoff.hold("sk-a")
    assert key_handoff.take("not-the-token") == ""
    assert js.window.name == ""


def test_a_name_the_page_did_not_set_is_left_alone() -> None:
    js.window.name = "some other page's name"
    assert key_handoff.take("") == ""
    assert js.window.name == "some other page's name"
