"""The "Voice" dialog: speech language, the voice for it, speed, pitch and "on this device
only", and turning its fields back into voice settings.

Pure Python over app.speech, unit-tested under CPython; app/browser/voice_settings.py shows
it, redraws the voice list when the language changes, and plays "Try it".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.domain import InvalidInput, check_lang
from app.speech.settings import VoiceSettings
from app.speech.voices import Voice, languages, no_voice_message, voices_for
from app.text.nodes import El, h
from app.ui.widgets import action, form_error

if TYPE_CHECKING:
    from app.voice.ladder import Rung  # the AI layer loads after the first screen

ON_DEVICE_HINT = (
    "Nothing you say and nothing said to you leaves this device: speech the browser would "
    "send to an online service, and your AI provider's voices, are not used."
)
LANG_HINT = (
    "The language you talk to the assistant in, such as en-GB or es-MX. "
    "Words are always spoken in their own language."
)
BAD_LANG = "Speech language must be a language tag such as en, es-MX or zh-Hant-TW."
AUTOMATIC = "Automatic"
INSTALL = "Download speech recognition to this device"


@dataclass(frozen=True)
class VoiceForm:
    """What the dialog shows; `voices` are the names of those speaking `speech_lang`."""

    speech_lang: str
    voice: str = ""  # "" is automatic
    rate: float = 1.0
    pitch: float = 1.0
    on_device_only: bool = False
    languages: tuple[str, ...] = ()
    voices: tuple[str, ...] = ()
    listening: str = ""  # how the assistant hears the user, and where the audio goes
    can_install: bool = False  # on-device recognition can be downloaded for the language

    @classmethod
    def of(
        cls, settings: VoiceSettings, listed: Sequence[Voice], listening: Rung | None = None
    ) -> VoiceForm:
        lang = settings.speech_lang
        return cls(
            speech_lang=lang,
            voice=settings.preferred_voice(lang),
            rate=settings.rate,
            pitch=settings.pitch,
            on_device_only=settings.on_device_only,
            languages=tuple(languages(listed)),
            voices=tuple(v.name for v in voices_for(listed, lang)),
            listening=listening.sentence if listening is not None else "",
            can_install=listening is not None and listening.can_install,
        )


def voice_dialog(form: VoiceForm) -> El:
    return h(
        "div",
        {"class": "voice-settings"},
        h("h2", {"id": "dialog-title"}, "Voice"),
        h(
            "form",
            {
                "id": "voice-settings-form",
                "data-action": "save-voice",
                "aria-label": "Voice settings",
            },
            h(
                "div",
                {"class": "form-grid"},
                h("label", {"for": "voice-lang"}, "Speech language"),
                _language_field(form),
                h("label", {"for": "voice-name"}, "Voice"),
                h("div", {"id": "voice-name-slot"}, voice_choice(form)),
                h("label", {"for": "voice-rate"}, "Speed"),
                _slider("rate", form.rate, 0.5, 2.0, f"{form.rate:.1f}×"),
                h("label", {"for": "voice-pitch"}, "Pitch"),
                _slider("pitch", form.pitch, 0.0, 2.0, f"{form.pitch:.1f}"),
            ),
            h(
                "div",
                {"class": "voice-device"},
                h(
                    "input",
                    {
                        "id": "voice-device",
                        "name": "on_device_only",
                        "type": "checkbox",
                        "checked": form.on_device_only,
                        "aria-describedby": "voice-device-hint",
                    },
                ),
                h("label", {"for": "voice-device"}, "On this device only"),
                h("p", {"id": "voice-device-hint", "class": "hint"}, ON_DEVICE_HINT),
            ),
            _listening(form),
            form_error(),
            h(
                "div",
                {"class": "form-actions"},
                action("Try it", "voice-try"),
                action("Cancel", "close-dialog"),
                h("button", {"type": "submit", "class": "primary"}, "Save"),
            ),
        ),
    )


def _listening(form: VoiceForm) -> El | None:
    """Which way the assistant hears you (app.voice.ladder), and the download that would keep
    your voice on this device."""
    if not form.listening:
        return None
    return h(
        "div",
        {"class": "voice-listening", "id": "voice-listening"},
        h("h3", None, "Listening"),
        h("p", None, form.listening),
        form.can_install and action(INSTALL, "voice-install"),
    )


def _language_field(form: VoiceForm) -> El:
    return h(
        "div",
        None,
        h(
            "input",
            {
                "id": "voice-lang",
                "name": "speech_lang",
                "value": form.speech_lang,
                "list": "voice-langs",
                "maxlength": 35,
                "autocomplete": "off",
                "spellcheck": "false",
                "required": True,
                "data-input-action": "voice-lang",
                "aria-describedby": "voice-lang-hint",
            },
        ),
        h("datalist", {"id": "voice-langs"}, (h("option", {"value": t}) for t in form.languages)),
        h("small", {"id": "voice-lang-hint", "class": "hint"}, LANG_HINT),
    )


def voice_choice(form: VoiceForm) -> El:
    """The voices for the form's language, "Automatic" first; says so when there are none."""
    names = list(form.voices)
    if form.voice and form.voice not in names:
        names.insert(0, form.voice)  # chosen before, not listed now: keep it, not lose it
    options = [h("option", {"value": "", "selected": not form.voice}, AUTOMATIC)]
    options += [h("option", {"value": n, "selected": n == form.voice}, n) for n in names]
    hint = None if form.voices else no_voice_message(form.speech_lang)
    return h(
        "div",
        None,
        h(
            "select",
            {
                "id": "voice-name",
                "name": "voice",
                "aria-describedby": "voice-name-hint" if hint else None,
            },
            options,
        ),
        h("small", {"id": "voice-name-hint", "class": "hint"}, hint) if hint else None,
    )


def _slider(name: str, value: float, low: float, high: float, shown: str) -> El:
    return h(
        "div",
        {"class": "voice-slider"},
        h(
            "input",
            {
                "id": f"voice-{name}",
                "name": name,
                "type": "range",
                "min": f"{low:g}",
                "max": f"{high:g}",
                "step": "0.1",
                "value": f"{value:g}",
                "data-input-action": "voice-slider",
            },
        ),
        h("span", {"id": f"voice-{name}-value", "class": "meta-line"}, shown),
    )


def slider_text(name: str, value: str) -> str:
    """What the number beside a slider says as it moves."""
    try:
        number = float(value)
    except ValueError:
        return ""
    return f"{number:.1f}×" if name == "rate" else f"{number:.1f}"


def settings_from_fields(fields: Mapping[str, str], current: VoiceSettings) -> VoiceSettings:
    """The dialog's fields over `current` (other languages' voices are kept). Raises
    InvalidInput with a sentence saying what to fix."""
    try:
        lang = check_lang(fields.get("speech_lang", ""))
    except ValueError:
        lang = ""
    if not lang:
        raise InvalidInput(BAD_LANG)
    updated = current.model_copy(
        update={
            "speech_lang": lang,
            "rate": _number(fields.get("rate", "1"), "Speed", 0.5, 2.0),
            "pitch": _number(fields.get("pitch", "1"), "Pitch", 0.0, 2.0),
            "on_device_only": "on_device_only" in fields,
        }
    )
    return updated.with_voice(lang, fields.get("voice", ""))


def _number(text: str, label: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # NaN is in no range
        raise InvalidInput(f"{label} must be a number from {low:g} to {high:g}.")
    return value
