"""Voice settings read back from storage: defaults, the browser's language, and damaged or
hostile JSON that loses only what is bad."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app.speech.settings import VoiceSettings, browser_lang, parse_settings


def test_nothing_stored_gives_defaults_in_the_browsers_language() -> None:
    settings = parse_settings(None, "es-mx")
    assert settings == VoiceSettings(speech_lang="es-MX")
    assert (settings.rate, settings.pitch, settings.on_device_only) == (1.0, 1.0, False)


@pytest.mark.parametrize("tag", ["", "not a tag!", "x" * 400])
def test_an_unusable_browser_language_means_english(tag: str) -> None:
    assert browser_lang(tag) == "en"
    assert parse_settings("", tag).speech_lang == "en"


@pytest.mark.parametrize("text", ["{", "null", "[1, 2]", '"text"', "\u0000", "1e999"])
def test_damaged_json_gives_the_defaults(text: str) -> None:
    assert parse_settings(text, "de") == VoiceSettings(speech_lang="de")


def test_a_bad_field_falls_back_alone_and_the_rest_is_kept() -> None:
    stored = {
        "speech_lang": "fr_ca",  # not a usual spelling: falls back to the browser's
        "rate": 9,
        "pitch": 0.5,
        "on_device_only": True,
        "voices": {"es-MX": "Paulina", "de": 7, "": "x", "!!": "y", "fr": "v" * 500},
        "unknown": "ignored",
    }
    settings = parse_settings(json.dumps(stored), "en-GB")
    assert settings == VoiceSettings(
        speech_lang="en-GB", pitch=0.5, on_device_only=True, voices={"es": "Paulina"}
    )


def test_settings_survive_a_round_trip() -> None:
    settings = VoiceSettings(speech_lang="ja", rate=1.5, pitch=0.2, voices={"ja": "Kyoko"})
    assert parse_settings(settings.model_dump_json(), "en") == settings


def test_a_preferred_voice_is_kept_per_language() -> None:
    settings = VoiceSettings().with_voice("es-MX", "Paulina").with_voice("de", "Anna")
    assert settings.preferred_voice("es") == "Paulina"
    assert settings.preferred_voice("es_ES") == "Paulina"
    assert settings.preferred_voice("fr") == ""
    assert settings.with_voice("es", "").voices == {"de": "Anna"}


@pytest.mark.parametrize(
    "fields", [{"rate": 0.4}, {"rate": 2.1}, {"pitch": -0.1}, {"speech_lang": ""}]
)
def test_out_of_range_values_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        VoiceSettings.model_validate(fields)
