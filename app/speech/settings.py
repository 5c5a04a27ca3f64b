"""The user's voice settings: the language they speak, a preferred voice per language, rate,
pitch and "on this device only" (no cloud recognition and no provider speech).

Kept as JSON in the browser's localStorage (app/browser/voice_settings.py). Reading forgives:
damaged JSON gives the defaults, and a bad or unknown field is dropped on its own while the
others are kept.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from app.domain import check_lang
from app.speech.voices import primary

VOICE_NAME_MAX = 200
FALLBACK_LANG = "en"


class VoiceSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    speech_lang: str = FALLBACK_LANG
    # Primary language subtag ("es") → the name of the voice chosen for it.
    voices: dict[str, str] = Field(default_factory=dict)
    rate: float = Field(default=1.0, ge=0.5, le=2.0)
    pitch: float = Field(default=1.0, ge=0.0, le=2.0)
    on_device_only: bool = False

    @field_validator("speech_lang")
    @classmethod
    def _language(cls, value: str) -> str:
        tag = check_lang(value)
        if not tag:
            raise ValueError("must be a language tag such as en, es-MX or zh-Hant-TW")
        return tag

    @field_validator("voices", mode="before")
    @classmethod
    def _good_entries(cls, value: object) -> object:
        """Keep the entries that make sense, drop the rest (one bad entry loses no other)."""
        if not isinstance(value, dict):
            return value
        return {
            primary(lang): name
            for lang, name in value.items()
            if isinstance(lang, str)
            and primary(lang).isalpha()
            and isinstance(name, str)
            and 0 < len(name) <= VOICE_NAME_MAX
        }

    def preferred_voice(self, lang: str) -> str:
        """The voice name chosen for the language of `lang`, or ""."""
        return self.voices.get(primary(lang), "")

    def with_voice(self, lang: str, name: str) -> VoiceSettings:
        """These settings with `name` as the voice for `lang`'s language ("" = automatic)."""
        voices = {k: v for k, v in self.voices.items() if k != primary(lang)}
        if name:
            voices[primary(lang)] = name
        return self.model_copy(update={"voices": voices})


def browser_lang(tag: str) -> str:
    """The browser's language (`navigator.language`) as a speech language, or English."""
    try:
        return check_lang(tag) or FALLBACK_LANG
    except ValueError:
        return FALLBACK_LANG


def parse_settings(text: str | None, default_lang: str) -> VoiceSettings:
    """Settings from stored JSON; whatever is missing or bad takes its default (the speech
    language defaults to `default_lang`)."""
    try:
        stored: Any = json.loads(text) if text else {}
    except ValueError:
        stored = {}
    kept: dict[str, Any] = {"speech_lang": browser_lang(default_lang)}
    for name in VoiceSettings.model_fields:
        if isinstance(stored, dict) and name in stored:
            try:
                VoiceSettings.model_validate({**kept, name: stored[name]})
            except ValidationError:
                continue
            kept[name] = stored[name]
    return VoiceSettings.model_validate(kept)
