"""Who says something aloud: the browser's own voice for the language, else the user's
provider (on their key, so only when they have one that speaks and have not chosen "On this
device only"), else nobody, with the sentence that says why and what to do instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.llm.settings import ProviderSettings
from app.speech.voices import no_voice_message

Speaker = Literal["browser", "provider", "none"]


@dataclass(frozen=True, slots=True)
class SpeechRoute:
    """Who speaks; `sentence` says why nobody does ("" otherwise)."""

    path: Speaker
    sentence: str = ""


def provider_speaks(settings: ProviderSettings, *, configured: bool) -> bool:
    """The provider is set up and has a speech model (OpenAI and Gemini always do; a
    compatible server only when one is named)."""
    return configured and bool(settings.speech_model_name)


def speech_route(
    lang: str, *, has_voice: bool, provider: bool, on_device_only: bool
) -> SpeechRoute:
    """Who says something in `lang`: `has_voice` is whether the browser has a voice for it,
    `provider` whether the user's provider can speak (`provider_speaks`)."""
    if has_voice:
        return SpeechRoute("browser")
    if provider and not on_device_only:
        return SpeechRoute("provider")
    return SpeechRoute("none", no_voice_message(lang, on_device_only=on_device_only))
