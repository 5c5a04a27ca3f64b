"""The speech recognition ladder: which way the user's voice becomes text, and where it goes.

Best first: the browser's recogniser on this device (nothing leaves it), the browser's online
speech service, the user's provider on their key (a recording sent for transcription), and
typing, which always works. "On this device only" stops at the first rung. After the browser's
service failed in a way the provider can stand in for (app.voice.problems `fallback`), the
browser's rungs are skipped. The chosen rung comes with the sentence the settings show about
where the audio goes, and whether to offer downloading on-device recognition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from app.llm.settings import ProviderSettings, is_local_host

Path = Literal["on-device", "browser-service", "provider", "typing"]
# `SpeechRecognition.available({langs, processLocally: true})`, or "unsupported" without it.
OnDevice = Literal["available", "downloadable", "downloading", "unavailable", "unsupported"]

ON_DEVICE = "Your voice is recognised on this device; it never leaves it."
SERVICE = (
    "Your voice is sent to your browser's speech service (Google for Chrome, Apple for Safari) "
    "to be recognised."
)
OFFLINE = (
    "You are offline, and recognising speech here needs the network. Type your message, or "
    "talk again when you are back online."
)
SERVICE_FAILED = (
    "Your browser's speech service is not working here. Choose a provider for transcription "
    "in AI settings, or type your message."
)
NO_RECOGNITION = (
    "This browser has no speech recognition. Choose a provider for transcription in AI "
    "settings, use Chrome, Edge or Safari, or type your message."
)
ONLY_DOWNLOAD = (
    "Download speech recognition for your language to talk with \u201cOn this device only\u201d "
    "on, or type your message."
)
ONLY_DOWNLOADING = (
    "Speech recognition for your language is still downloading to this device. Type your "
    "message for now, and talk once it is ready."
)
ONLY_UNAVAILABLE = (
    "This browser cannot recognise speech on this device, and \u201cOn this device only\u201d "
    "is on. Type your message, or turn that off in Voice settings."
)
ONLY_FAILED = (
    "Speech recognition on this device is not working, and \u201cOn this device only\u201d "
    "keeps your voice from going anywhere else. Type your message, or turn that off in Voice "
    "settings."
)


@dataclass(frozen=True, slots=True)
class Transcriber:
    """The user's provider, able to transcribe: its name for sentences, and whether it is on
    this machine or network (then it needs no internet)."""

    label: str
    local: bool


@dataclass(frozen=True, slots=True)
class Means:
    """What there is to listen with right now."""

    recognition: bool  # the browser has SpeechRecognition at all
    on_device: OnDevice  # whether it can recognise the user's language on this device
    on_device_only: bool  # the user's setting: no audio leaves the device
    provider: Transcriber | None  # None: no provider set up to transcribe
    online: bool
    service_failed: bool = False  # the browser's recogniser failed with a fallback problem


@dataclass(frozen=True, slots=True)
class Rung:
    """The way chosen, the sentence of where the audio goes (or why only typing is left),
    and whether an "install on-device recognition" button makes sense."""

    path: Path
    sentence: str
    can_install: bool = False


def on_this_network(settings: ProviderSettings) -> bool:
    """The provider is on this machine or the local network, so it needs no internet."""
    return is_local_host(urlsplit(settings.url).hostname or "")


def transcriber(settings: ProviderSettings, *, configured: bool) -> Transcriber | None:
    """The provider as a transcriber, when it is set up and has a speech-to-text model
    (OpenAI and Gemini always do; a compatible server only when one is named)."""
    if not configured or not settings.transcription_model_name:
        return None
    return Transcriber(settings.label, on_this_network(settings))


def choose(means: Means) -> Rung:
    """The most private way to listen that works, or typing and why."""
    usable = means.recognition and not means.service_failed
    can_install = means.recognition and means.on_device == "downloadable"
    if usable and means.on_device == "available":
        return Rung("on-device", ON_DEVICE)
    if means.on_device_only:
        return Rung("typing", _only_why(means), can_install)
    if usable and means.online:
        return Rung("browser-service", SERVICE, can_install)
    provider = means.provider
    if provider is not None and (means.online or provider.local):
        sentence = f"Your voice is recorded and sent to {provider.label} with your key to be "
        return Rung("provider", sentence + "transcribed.", can_install)
    return Rung("typing", _typing_why(means, usable), can_install)


def _only_why(means: Means) -> str:
    if not means.recognition:
        return ONLY_UNAVAILABLE
    if means.service_failed:
        return ONLY_FAILED
    match means.on_device:
        case "downloadable":
            return ONLY_DOWNLOAD
        case "downloading":
            return ONLY_DOWNLOADING
        case _:
            return ONLY_UNAVAILABLE


def _typing_why(means: Means, usable: bool) -> str:
    if not means.online and (usable or means.provider is not None):
        return OFFLINE
    return SERVICE_FAILED if means.recognition else NO_RECOGNITION
