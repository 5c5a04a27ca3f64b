"""The Voice dialog: what it offers for the speech language, and its fields back to settings."""

from __future__ import annotations

import pytest

from app.domain import InvalidInput, Word
from app.speech.settings import VoiceSettings
from app.speech.voices import Voice
from app.text.nodes import El, find_all, text_content
from app.ui import word_view
from app.ui.voice_settings_view import (
    BAD_LANG,
    VoiceForm,
    settings_from_fields,
    slider_text,
    voice_choice,
    voice_dialog,
)

VOICES = [
    Voice("Afrikaans", "af", default=True),
    Voice("Spanish (Spain)", "es_ES"),
    Voice("Spanish (Latin America)", "es-419"),
    Voice("English (America)", "en-US"),
]


def options(node: El, select_id: str) -> list[tuple[str, str, bool]]:
    select = find_all(node, lambda e: e.attrs.get("id") == select_id)[0]
    return [
        (o.attrs["value"], text_content(o), "selected" in o.attrs)
        for o in find_all(select, lambda e: e.tag == "option")
    ]


def by_id(node: El, element_id: str) -> El:
    return find_all(node, lambda e: e.attrs.get("id") == element_id)[0]


def test_the_voice_list_is_that_languages_voices_after_automatic() -> None:
    settings = VoiceSettings(speech_lang="es-MX").with_voice("es", "Spanish (Latin America)")
    dialog = voice_dialog(VoiceForm.of(settings, VOICES))
    assert options(dialog, "voice-name") == [
        ("", "Automatic", False),
        ("Spanish (Latin America)", "Spanish (Latin America)", True),
        ("Spanish (Spain)", "Spanish (Spain)", False),
    ]
    datalist = by_id(dialog, "voice-langs")
    assert [o.attrs["value"] for o in datalist.children if isinstance(o, El)] == [
        "af",
        "en-US",
        "es-419",
        "es-ES",
    ]
    assert by_id(dialog, "voice-lang").attrs["value"] == "es-MX"


def test_a_language_without_voices_says_so_and_keeps_automatic() -> None:
    choice = voice_choice(VoiceForm.of(VoiceSettings(speech_lang="ja"), VOICES))
    assert options(choice, "voice-name") == [("", "Automatic", True)]
    assert "Your browser has no Japanese voice." in text_content(choice)


def test_a_chosen_voice_no_longer_listed_is_still_shown_selected() -> None:
    settings = VoiceSettings(speech_lang="es").with_voice("es", "Gone")
    assert ("Gone", "Gone", True) in options(
        voice_choice(VoiceForm.of(settings, VOICES)), "voice-name"
    )


def test_sliders_and_the_checkbox_show_the_settings() -> None:
    settings = VoiceSettings(rate=1.5, pitch=0.5, on_device_only=True)
    dialog = voice_dialog(VoiceForm.of(settings, VOICES))
    assert by_id(dialog, "voice-rate").attrs["value"] == "1.5"
    assert text_content(by_id(dialog, "voice-rate-value")) == "1.5×"
    assert by_id(dialog, "voice-pitch").attrs["value"] == "0.5"
    assert "checked" in by_id(dialog, "voice-device").attrs
    assert "leaves this device" in text_content(by_id(dialog, "voice-device-hint"))


def fields(**changes: str) -> dict[str, str]:
    return {"speech_lang": "es-mx", "voice": "", "rate": "1.2", "pitch": "0.8", **changes}


def test_fields_become_settings_keeping_other_languages_voices() -> None:
    current = VoiceSettings(speech_lang="en").with_voice("de", "Anna")
    chosen = settings_from_fields(fields(voice="Paulina", on_device_only="on"), current)
    assert chosen == VoiceSettings(
        speech_lang="es-MX",
        voices={"de": "Anna", "es": "Paulina"},
        rate=1.2,
        pitch=0.8,
        on_device_only=True,
    )
    automatic = settings_from_fields(fields(), chosen)
    assert automatic.voices == {"de": "Anna"}
    assert not automatic.on_device_only


@pytest.mark.parametrize("lang", ["", "   ", "spanish please", "<script>", "es-" + "x" * 300])
def test_a_bad_language_is_one_sentence(lang: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        settings_from_fields(fields(speech_lang=lang), VoiceSettings())
    assert caught.value.message == BAD_LANG


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"rate": "9"}, "Speed must be a number from 0.5 to 2."),
        ({"rate": "fast"}, "Speed must be a number from 0.5 to 2."),
        ({"rate": "nan"}, "Speed must be a number from 0.5 to 2."),
        ({"pitch": "-1"}, "Pitch must be a number from 0 to 2."),
    ],
)
def test_hostile_slider_values_are_refused(changes: dict[str, str], says: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        settings_from_fields(fields(**changes), VoiceSettings())
    assert caught.value.message == says


def test_slider_text() -> None:
    assert slider_text("rate", "1.25") == "1.2×"
    assert slider_text("pitch", "2") == "2.0"
    assert slider_text("rate", "nan?") == ""


def test_every_word_row_has_a_pronounce_button_naming_the_term() -> None:
    word = Word(
        **{
            "id": 7,
            "folder_id": 1,
            "term": "¿perro?",
            "meanings": [],
            "notes": "",
            "color": "none",
            "lang": "es",
            "created_at": 1,
            "updated_at": 1,
        }
    )
    row = word_view._word_row(word, highlighted=False)
    [button] = find_all(row, lambda e: e.attrs.get("data-action") == "pronounce")
    assert button.attrs["aria-label"] == "Pronounce ¿perro?"
    assert button.attrs["data-id"] == "7"


def test_the_dialog_says_how_the_assistant_listens_and_offers_the_download() -> None:
    from app.voice.ladder import SERVICE, Rung  # noqa: PLC0415 (the AI layer loads later)

    settings = VoiceSettings(speech_lang="en-US")
    plain = voice_dialog(VoiceForm.of(settings, VOICES))
    assert not find_all(plain, lambda e: e.attrs.get("id") == "voice-listening")
    told = voice_dialog(VoiceForm.of(settings, VOICES, Rung("browser-service", SERVICE, True)))
    section = by_id(told, "voice-listening")
    assert SERVICE in text_content(section)
    [button] = find_all(section, lambda e: e.tag == "button")
    assert button.attrs["data-action"] == "voice-install"
    done = voice_dialog(VoiceForm.of(settings, VOICES, Rung("on-device", "Here.", False)))
    assert not find_all(by_id(done, "voice-listening"), lambda e: e.tag == "button")
