"""After startup the AI settings make sure this load may reach the saved server: settings
saved before the page narrowed its connections (decision 022) are healed with one reload."""

from __future__ import annotations

import json
from types import SimpleNamespace

import js

from app.browser.ai_settings import RELOADED_KEY, SettingsDialog
from app.browser.settings_store import SETTINGS_KEY, SettingsStore
from app.llm.connect import CONNECT_KEY
from app.llm.settings import ProviderSettings

LOOPBACK_ONLY = "'self' http://localhost:* http://127.0.0.1:* http://[::1]:*"


def resumed() -> None:
    page = SimpleNamespace(dialog=None, show_toast=print, spawn=lambda _work: None)
    SettingsDialog(page, SettingsStore(), lambda: None).resume()


def test_settings_from_before_the_narrowing_allow_their_server_and_reload_once() -> None:
    js.localStorage.setItem(SETTINGS_KEY, ProviderSettings(provider="openai").model_dump_json())
    js.document.documentElement.dataset.connectSrc = LOOPBACK_ONLY
    resumed()
    assert json.loads(js.localStorage.getItem(CONNECT_KEY)) == ["https://api.openai.com"]
    assert js.location.reloads == 1
    resumed()  # the browser kept nothing (or something else stops it): never a reload loop
    assert js.location.reloads == 1


def test_a_server_this_load_reaches_needs_no_reload() -> None:
    js.localStorage.setItem(SETTINGS_KEY, ProviderSettings(provider="openai").model_dump_json())
    js.document.documentElement.dataset.connectSrc = f"{LOOPBACK_ONLY} https://api.openai.com"
    resumed()
    assert js.location.reloads == 0
    assert RELOADED_KEY not in js.sessionStorage.items


def test_nothing_saved_nothing_to_do() -> None:
    js.document.documentElement.dataset.connectSrc = LOOPBACK_ONLY
    resumed()
    assert js.location.reloads == 0
