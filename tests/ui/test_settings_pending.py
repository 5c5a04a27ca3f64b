"""The AI settings kept across the reload that allows a new server (decision 022)."""

from __future__ import annotations

import json

import pytest

from app.ui.settings_pending import PendingSettings


def test_the_fields_and_what_to_do_come_back() -> None:
    pending = PendingSettings(
        "test", {"provider": "openai", "api_key": "sk-ü", "remember_key": "on"}
    )
    assert PendingSettings.parsed(pending.text()) == pending


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "{",
        "[]",
        json.dumps({"then": "delete", "fields": {}}),
        json.dumps({"then": "save", "fields": ["a"]}),
        json.dumps({"then": "save"}),
    ],
)
def test_anything_damaged_is_nothing_to_do(text: str | None) -> None:
    assert PendingSettings.parsed(text) is None


def test_fields_that_are_not_text_are_dropped() -> None:
    text = json.dumps({"then": "save", "fields": {"model": "m", "daily_request_cap": 5, "x": None}})
    assert PendingSettings.parsed(text) == PendingSettings("save", {"model": "m"})
