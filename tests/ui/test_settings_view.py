"""The AI settings form: fields to settings, the key never rendered, provider switching."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from app.domain import InvalidInput
from app.llm.settings import DEFAULT_BASE_URLS, ProviderSettings
from app.text.nodes import El, find_all, text_content, walk
from app.ui.settings_view import SettingsForm, model_field, settings_dialog, settings_from_fields

SAVED = "sk-saved-0123456789"


def fields(**changes: str) -> dict[str, str]:
    base = {
        "provider": "openai",
        "base_url": DEFAULT_BASE_URLS["openai"],
        "model": "gpt-4.1-mini",
        "api_key": "",
        "daily_request_cap": "200",
        "max_output_tokens": "4096",
    }
    return {**base, **changes}


def test_an_empty_key_field_keeps_the_saved_key_and_a_typed_one_replaces_it() -> None:
    assert settings_from_fields(fields(), SAVED).api_key.get_secret_value() == SAVED
    typed = settings_from_fields(fields(api_key="  sk-new  "), SAVED)
    assert typed.api_key.get_secret_value() == "sk-new"


def test_the_providers_own_address_is_stored_empty_so_it_follows_the_provider() -> None:
    assert settings_from_fields(fields(), SAVED).base_url == ""
    custom = settings_from_fields(fields(base_url="https://gateway.example/v1/"), SAVED)
    assert custom.base_url == "https://gateway.example/v1"


def test_remember_is_the_checkbox_and_caps_are_numbers() -> None:
    settings = settings_from_fields(
        fields(remember_key="on", daily_request_cap="1,000", max_output_tokens="512"), SAVED
    )
    assert settings.remember_key
    assert settings.daily_request_cap == 1000
    assert settings.max_output_tokens == 512
    assert not settings_from_fields(fields(), SAVED).remember_key


def test_a_slow_local_server_can_be_given_longer_to_answer() -> None:
    assert settings_from_fields(fields(), SAVED).timeout_s == 60
    settings = settings_from_fields(fields(timeout_s="300"), SAVED)
    assert settings.timeout_s == 300
    assert SettingsForm.of(settings, has_key=True).timeout_s == "300"
    dialog = settings_dialog(SettingsForm.of(settings, has_key=True))
    [field] = find_all(dialog, lambda el: el.attrs.get("name") == "timeout_s")
    assert field.attrs["value"] == "300"


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"base_url": "http://api.example.com/v1"}, "Use https"),
        ({"daily_request_cap": "0"}, "Daily request cap"),
        ({"daily_request_cap": "lots"}, "Daily request cap"),
        ({"max_output_tokens": "10"}, "Max output tokens"),
        ({"timeout_s": "2"}, "Seconds to wait for an answer"),
        ({"provider": "openai_compatible", "model": "", "base_url": ""}, "model name"),
        ({"model": "gpt 4<script>"}, "Model"),
    ],
)
def test_bad_fields_are_one_clear_sentence(changes: dict[str, str], says: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        settings_from_fields(fields(**changes), SAVED)
    assert says in caught.value.message


def test_a_compatible_server_can_be_tested_before_a_model_is_named_but_not_saved() -> None:
    local = fields(provider="openai_compatible", model="", base_url="")
    assert settings_from_fields(local, SAVED, testing=True).model == ""
    with pytest.raises(InvalidInput) as caught:
        settings_from_fields(local, SAVED)
    assert caught.value.message == (
        "Enter the model name your server runs (for Ollama, e.g. llama3.2), "
        "or press Test key to choose one from its list."
    )


def test_the_dialog_never_contains_the_key() -> None:
    settings = ProviderSettings(provider="openai", api_key=SecretStr(SAVED))
    dialog = settings_dialog(SettingsForm.of(settings, has_key=True))
    everything = [text_content(dialog)] + [
        value for node in walk(dialog) if isinstance(node, El) for value in node.attrs.values()
    ]
    assert not any(SAVED in part for part in everything)
    (key,) = find_all(dialog, lambda el: el.attrs.get("name") == "api_key")
    assert key.attrs["type"] == "password"
    assert key.attrs["value"] == ""
    assert "A key is saved (hidden)" in text_content(dialog)


def test_the_remember_choice_says_where_the_key_is_kept() -> None:
    dialog = settings_dialog(SettingsForm())
    assert "only in this tab's memory" in text_content(dialog)
    (box,) = find_all(dialog, lambda el: el.attrs.get("name") == "remember_key")
    assert "checked" not in box.attrs


def test_switching_provider_brings_its_address_and_model_and_drops_the_list() -> None:
    form = SettingsForm(provider="openai", models=("a", "b"), check="It works")
    switched = form.switched_to("gemini")
    assert switched.base_url == DEFAULT_BASE_URLS["gemini"]
    assert switched.model == "gemini-2.5-flash"
    assert switched.models == ()
    assert not switched.check


def test_the_model_is_a_list_once_the_provider_named_its_models() -> None:
    free = model_field(SettingsForm(model="llama3.2"))
    assert find_all(free, lambda el: el.tag == "input")
    listed = model_field(SettingsForm(model="custom", models=("a", "b")))
    options = [text_content(o) for o in find_all(listed, lambda el: el.tag == "option")]
    assert listed.tag == "select"
    assert options == ["custom", "a", "b"]


def test_a_compatible_server_shows_its_address_openly() -> None:
    compatible = settings_dialog(SettingsForm(provider="openai_compatible"))
    hosted = settings_dialog(SettingsForm(provider="openai"))
    assert not find_all(compatible, lambda el: el.tag == "details")
    assert "Address (advanced)" in text_content(hosted)


@pytest.mark.parametrize(
    ("provider", "href"),
    [
        ("gemini", "https://aistudio.google.com/app/apikey"),
        ("openai", "https://platform.openai.com/api-keys"),
    ],
)
def test_each_provider_says_where_its_keys_are_made(provider: str, href: str) -> None:
    page = settings_dialog(SettingsForm(provider=provider))  # type: ignore[arg-type]
    (source,) = find_all(page, lambda el: el.attrs.get("id") == "ai-key-source")
    (link,) = find_all(source, lambda el: el.tag == "a")
    assert link.attrs["href"] == href
    assert link.attrs["target"] == "_blank"
    assert link.attrs["rel"] == "noopener noreferrer"
    assert text_content(source).endswith(".")


def test_a_compatible_server_is_told_a_local_one_needs_no_key() -> None:
    page = settings_dialog(SettingsForm(provider="openai_compatible"))
    (source,) = find_all(page, lambda el: el.attrs.get("id") == "ai-key-source")
    assert "usually need no key" in text_content(source)
    assert not find_all(source, lambda el: el.tag == "a")


def voice_inputs(dialog: El) -> dict[str, str]:
    names = ("transcription_model", "speech_model", "speech_voice")
    return {
        str(el.attrs["name"]): str(el.attrs["value"])
        for el in find_all(dialog, lambda el: el.attrs.get("name") in names)
    }


def test_a_voice_group_says_when_the_provider_hears_and_speaks() -> None:
    dialog = settings_dialog(SettingsForm.of(ProviderSettings(provider="openai"), has_key=False))
    (group,) = find_all(dialog, lambda el: el.tag == "fieldset")
    (legend,) = find_all(group, lambda el: el.tag == "legend")
    assert text_content(legend) == "Voice"
    assert "only when your browser cannot recognise or speak a language" in text_content(group)
    assert voice_inputs(group) == {
        "transcription_model": "gpt-4o-mini-transcribe",
        "speech_model": "gpt-4o-mini-tts",
        "speech_voice": "alloy",
    }
    labelled = {str(el.attrs["for"]) for el in find_all(group, lambda el: el.tag == "label")}
    ids = {str(el.attrs["id"]) for el in find_all(group, lambda el: el.tag == "input")}
    assert ids <= labelled


def test_voice_fields_are_saved_and_a_default_is_stored_empty_to_follow_the_provider() -> None:
    chosen = settings_from_fields(
        fields(transcription_model="whisper-1", speech_model="tts-1", speech_voice="nova"), SAVED
    )
    assert (chosen.transcription_model, chosen.speech_model, chosen.speech_voice) == (
        "whisper-1",
        "tts-1",
        "nova",
    )
    defaults = settings_from_fields(
        fields(
            transcription_model="gpt-4o-mini-transcribe",
            speech_model="gpt-4o-mini-tts",
            speech_voice="alloy",
        ),
        SAVED,
    )
    assert (defaults.transcription_model, defaults.speech_model, defaults.speech_voice) == (
        "",
        "",
        "",
    )
    assert defaults.transcription_model_name == "gpt-4o-mini-transcribe"
    assert settings_from_fields(fields(), SAVED).speech_voice_name == "alloy"


def test_a_bad_voice_name_is_one_clear_sentence() -> None:
    with pytest.raises(InvalidInput) as caught:
        settings_from_fields(fields(speech_voice="alloy<script>"), SAVED)
    assert caught.value.message.startswith("Speech voice")


def test_switching_provider_brings_its_voice_defaults() -> None:
    form = SettingsForm.of(ProviderSettings(provider="openai", speech_voice="nova"), has_key=False)
    switched = form.switched_to("gemini")
    assert (switched.transcription_model, switched.speech_model, switched.speech_voice) == (
        "gemini-2.5-flash",
        "gemini-2.5-flash-preview-tts",
        "Kore",
    )
    typed = SettingsForm.from_fields(fields(speech_voice="shimmer"), has_key=False)
    assert typed.speech_voice == "shimmer"
