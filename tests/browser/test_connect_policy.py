"""The browser side of where the page may connect (decision 022): what this load allows, the
saved server kept for the next loads, and one reload that allows a new server."""

from __future__ import annotations

import json

import js

from app.browser import connect_policy
from app.browser.settings_store import SettingsStore
from app.llm.connect import CONNECT_KEY
from app.llm.settings import ProviderSettings

LOADED = "'self' http://localhost:* http://127.0.0.1:* https://gw.example"


def test_it_reads_what_static_connect_js_allowed_this_load() -> None:
    js.document.documentElement.dataset.connectSrc = LOADED
    assert connect_policy.reaches("https://gw.example/v1")
    assert connect_policy.reaches("http://localhost:11434/v1")
    assert not connect_policy.reaches("https://api.openai.com/v1")


def test_before_connect_js_ran_nothing_is_reached() -> None:
    assert not connect_policy.reaches("http://localhost:11434/v1")


def test_saving_settings_keeps_their_server_and_only_it_for_the_next_loads() -> None:
    js.localStorage.setItem(CONNECT_KEY, json.dumps(["https://old.example"]))
    SettingsStore().save(ProviderSettings(provider="openai"))
    assert json.loads(js.localStorage.getItem(CONNECT_KEY)) == ["https://api.openai.com"]


def test_a_new_server_is_allowed_for_one_reload() -> None:
    connect_policy.reload_allowing("http://192.168.1.5:11434/v1")
    assert json.loads(js.sessionStorage.getItem(connect_policy.ONCE_KEY)) == [
        "http://192.168.1.5:11434"
    ]
    assert js.location.reloads == 1
