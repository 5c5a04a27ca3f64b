"""The speech recognition ladder: which way the user's voice becomes text, and where it goes.

Best first: the browser's recogniser on this device (nothing leaves it), the browser's online
speech service, the user's provider (a recording sent for transcription), and typing, which
always works. "On this device only" stops at the first rung. The chosen rung comes with the
sentence the settings show about where the audio goes, and whether to offer downloading
on-device recognition.

The ladder learns from refusals (`learn`, after app.voice.problems says what each error
means): a browser that refuses hints listens without them from then on, and a rung that
cannot work here (no speech service, a recogniser that cannot capture audio, a language it
lacks) is skipped, so the next try takes the next rung. The browser layer keeps the `Memory`
(hints across reloads; failed rungs for the page's life, so a service that comes back is
tried again after a reload) and the drill, Speaking mode and the assistant share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal
from urllib.parse import urlsplit

from app.llm.settings import ProviderSettings, is_local_host
from app.voice.problems import Problem

Path = Literal["on-device", "browser-service", "provider", "typing"]
BROWSER: tuple[Path, ...] = ("on-device", "browser-service")  # the browser's own recogniser
# `SpeechRecognition.available({langs, processLocally: true})`, or "unsupported" without it.
OnDevice = Literal["available", "downloadable", "downloading", "unavailable", "unsupported"]

ON_DEVICE = "Your voice is recognised on this device; it never leaves it."
SERVICE = (
    "Your voice is sent to your browser's speech service (Google for Chrome, Apple for Safari) "
    "to be recognised."
)
# Why only typing is left. Each says what would make listening work; where the user can type
# instead is said by the screen that shows it (the assistant has a text box, study has modes).
OFFLINE = (
    "You are offline, and recognising speech here needs the network. Talk again when you are "
    "back online."
)
SERVICE_FAILED = (
    "Your browser's speech recognition is not working here. Choose a provider for "
    "transcription in AI settings."
)
NO_RECOGNITION = (
    "This browser has no speech recognition. Choose a provider for transcription in AI "
    "settings, or use Chrome, Edge or Safari."
)
ONLY_DOWNLOAD = (
    "Download speech recognition for your language in Voice settings to talk with "
    "\u201cOn this device only\u201d on."
)
ONLY_DOWNLOADING = (
    "Speech recognition for your language is still downloading to this device. Talk once it "
    "is ready."
)
ONLY_UNAVAILABLE = (
    "This browser cannot recognise speech on this device, and \u201cOn this device only\u201d "
    "is on. Turn that off in Voice settings to use another way."
)
ONLY_FAILED = (
    "Speech recognition on this device is not working, and \u201cOn this device only\u201d "
    "keeps your voice from going anywhere else. Turn that off in Voice settings to use another "
    "way."
)


@dataclass(frozen=True, slots=True)
class Transcriber:
    """The user's provider, able to transcribe: its name for sentences, whether it is on
    this machine or network (then it needs no internet), and whether it is sent a key."""

    label: str
    local: bool
    keyed: bool = True


@dataclass(frozen=True, slots=True)
class Means:
    """What there is to listen with right now."""

    recognition: bool  # the browser has SpeechRecognition at all
    on_device: OnDevice  # whether it can recognise the user's language on this device
    on_device_only: bool  # the user's setting: no audio leaves the device
    provider: Transcriber | None  # None: no provider set up to transcribe
    online: bool
    failed: frozenset[Path] = frozenset()  # rungs that refused here (Memory.failed_for)


@dataclass(frozen=True, slots=True)
class Rung:
    """The way chosen, the sentence of where the audio goes (or why only typing is left),
    and whether an "install on-device recognition" button makes sense."""

    path: Path
    sentence: str
    can_install: bool = False


EVERY_LANGUAGE = ""


@dataclass(frozen=True, slots=True)
class Memory:
    """What this browser was found to refuse: hints at all, and rungs (for one language, or
    for every language as `EVERY_LANGUAGE`)."""

    hints: bool = True
    failed: frozenset[tuple[Path, str]] = field(default_factory=frozenset)

    def failed_for(self, lang: str) -> frozenset[Path]:
        return frozenset(path for path, where in self.failed if where in (lang, EVERY_LANGUAGE))


def learn(memory: Memory, found: Problem, path: Path, lang: str, *, hinted: bool) -> Memory:
    """What a refusal teaches about this browser. `path` is the rung that was listening,
    `hinted` whether it was given hints."""
    match found.then:
        case "without-hints":
            return replace(memory, hints=False)
        case "next-rung" if found.code == "language-not-supported":
            if hinted and path == "on-device":
                # Chromium says this for on-device recognition given hints: drop them first.
                return replace(memory, hints=False)
            return _fail(memory, ((path, lang),))
        case "next-rung" if path in BROWSER:
            # The browser's recogniser as a whole: it cannot capture, or has no service.
            wide = BROWSER if found.code != "network" else (path, "browser-service")
            return _fail(memory, tuple((rung, EVERY_LANGUAGE) for rung in wide))
        case _:
            return memory


def _fail(memory: Memory, rungs: tuple[tuple[Path, str], ...]) -> Memory:
    return replace(memory, failed=memory.failed | frozenset(rungs))


def on_this_network(settings: ProviderSettings) -> bool:
    """The provider is on this machine or the local network, so it needs no internet."""
    return is_local_host(urlsplit(settings.url).hostname or "")


def transcriber(settings: ProviderSettings, *, configured: bool) -> Transcriber | None:
    """The provider as a transcriber, when it is set up and has a speech-to-text model
    (OpenAI and Gemini always do; a compatible server only when one is named)."""
    if not configured or not settings.transcription_model_name:
        return None
    keyed = bool(settings.api_key.get_secret_value())
    return Transcriber(settings.label, on_this_network(settings), keyed)


def choose(means: Means) -> Rung:
    """The most private way to listen that works, or typing and why."""
    can_install = means.recognition and means.on_device == "downloadable"
    if _usable(means, "on-device") and means.on_device == "available":
        return Rung("on-device", ON_DEVICE)
    if means.on_device_only:
        return Rung("typing", _only_why(means), can_install)
    if _usable(means, "browser-service") and means.online:
        return Rung("browser-service", SERVICE, can_install)
    provider = means.provider
    if provider is not None and (means.online or provider.local):
        return Rung("provider", _provider_sentence(provider), can_install)
    return Rung("typing", _typing_why(means), can_install)


def _usable(means: Means, path: Path) -> bool:
    return means.recognition and path not in means.failed


def _provider_sentence(provider: Transcriber) -> str:
    key = " with your key" if provider.keyed else ""
    return f"Your voice is recorded and sent to {provider.label}{key} to be transcribed."


def _only_why(means: Means) -> str:
    if not means.recognition:
        return ONLY_UNAVAILABLE
    if "on-device" in means.failed:
        return ONLY_FAILED
    match means.on_device:
        case "downloadable":
            return ONLY_DOWNLOAD
        case "downloading":
            return ONLY_DOWNLOADING
        case _:
            return ONLY_UNAVAILABLE


def _typing_why(means: Means) -> str:
    if not means.online and (_usable(means, "browser-service") or means.provider is not None):
        return OFFLINE
    return SERVICE_FAILED if means.recognition else NO_RECOGNITION
