"""Who says something aloud: the browser when it can (it has speech, that speech works on this
page, and it has a voice for the language), else the user's provider (on their key, so only
when they have one that speaks and have not chosen "On this device only"), else nobody, with
the sentence that says why and what to do instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.llm.settings import ProviderSettings
from app.speech.outcome import BROKEN, NO_VOICES, UNSUPPORTED
from app.speech.voices import no_voice_message, or_provider

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


def cannot_speak(
    lang: str,
    *,
    supported: bool,
    broken: bool,
    any_voice: bool,
    has_voice: bool,
    on_device_only: bool,
) -> str:
    """Why the browser cannot say something in `lang`, or "" when it can: it has speech
    (`supported`), that speech works here (not `broken`, app.speech.engine), it lists voices
    (`any_voice`) and one of them speaks `lang` (`has_voice`)."""
    tail = or_provider(on_device_only=on_device_only)
    if not supported:
        return UNSUPPORTED + tail
    if broken:
        return BROKEN + tail
    if not any_voice:
        return NO_VOICES + tail
    if not has_voice:
        return no_voice_message(lang, on_device_only=on_device_only)
    return ""


def speech_route(cannot: str, *, provider: bool, on_device_only: bool) -> SpeechRoute:
    """Who says something: `cannot` is why the browser cannot ("" when it can, as
    `cannot_speak` says, or the sentence of its failure), `provider` whether the user's provider
    can speak (`provider_speaks`)."""
    if not cannot:
        return SpeechRoute("browser")
    if provider and not on_device_only:
        return SpeechRoute("provider")
    return SpeechRoute("none", cannot)
