"""The user's provider settings, the client they make, and the "Test key" check.

The key is a `SecretStr` left out of `repr`, `str` and `model_dump`: saving settings or a
backup never writes it; whoever stores it ("remember on this device") asks for it by name.
A base URL must be https, or plain http only for this machine or the local network (an
Ollama or LM Studio server): over http the key and the conversation cross the network
unencrypted, which is acceptable only where they never leave the user's own machine or LAN.
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass, field
from typing import Annotated, Literal
from urllib.parse import SplitResult, urlsplit, urlunsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from app.llm.errors import ProviderError
from app.llm.gemini import GeminiClient
from app.llm.messages import ModelClient
from app.llm.openai import OpenAIClient
from app.llm.retry import OnWait, RetryingClient, Sleep
from app.llm.spending import CounterStore, GuardedClient, MemoryCounter, SpendingGuard
from app.llm.transport import Transport

Provider = Literal["gemini", "openai", "openai_compatible"]
DEFAULT_BASE_URLS: dict[Provider, str] = {
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
    "openai": "https://api.openai.com/v1",
    "openai_compatible": "http://localhost:11434/v1",  # Ollama's default
}
DEFAULT_MODELS: dict[Provider, str] = {
    "gemini": "gemini-2.5-flash",
    "openai": "gpt-4.1-mini",
    "openai_compatible": "",
}
# Voice by the provider, used only where the browser cannot recognise or speak a language.
# Gemini transcribes with any multimodal model; OpenAI's whisper-1 and gpt-4o-transcribe are
# announced for shutdown on 2027-02-26. Compatible servers name their own models, if any.
DEFAULT_TRANSCRIPTION_MODELS: dict[Provider, str] = {
    "gemini": "gemini-2.5-flash",
    "openai": "gpt-4o-mini-transcribe",
    "openai_compatible": "",
}
DEFAULT_SPEECH_MODELS: dict[Provider, str] = {
    "gemini": "gemini-2.5-flash-preview-tts",
    "openai": "gpt-4o-mini-tts",
    "openai_compatible": "",
}
DEFAULT_VOICES: dict[Provider, str] = {
    "gemini": "Kore",
    "openai": "alloy",
    "openai_compatible": "alloy",  # the name OpenAI-compatible speech servers copy
}


def is_local_host(host: str) -> bool:
    """This machine or the local network: loopback, private and link-local addresses,
    `localhost` and mDNS `.local` names."""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def checked_base_url(url: str) -> str:
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise ValueError("Enter a full address such as https://api.example.com/v1.")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("Enter the address without a user name, password, ? or #.")
    if ":" in parts.hostname:  # an IPv6 address (urlsplit drops its brackets)
        raise ValueError(_ipv6_refused(parts))
    if parts.scheme == "http" and not is_local_host(parts.hostname):
        raise ValueError(
            "Use https for servers on the internet; plain http is allowed only for this "
            "computer or your local network, where your key cannot be read on the way."
        )
    return url


def _ipv6_refused(parts: SplitResult) -> str:
    """Why an IPv6 address cannot be used, and what to use instead: the page may connect only
    to servers its policy names, and a CSP source cannot name an IPv6 address (decision 022)."""
    host = parts.hostname or ""
    why = (
        f"This page cannot be allowed to connect to an IPv6 address such as [{host}]: "
        "browsers' security policies have no way to name one."
    )
    try:
        loopback = ipaddress.ip_address(host).is_loopback
        port = parts.port
    except ValueError:
        loopback, port = False, None
    if not loopback:
        return f"{why} Use its name or IPv4 address instead."
    netloc = f"localhost:{port}" if port is not None else "localhost"
    instead = urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    return f"{why} Use {instead} instead: it reaches the same server on this computer."


def with_v1(settings: ProviderSettings) -> str | None:
    """The address with /v1 added, for an OpenAI-compatible server given only its host: the
    usual slip (Ollama, llama.cpp and LM Studio serve the API under /v1, and a path-less
    address gets 404 from every request). None when the address has a path or is not one."""
    if settings.provider != "openai_compatible" or not settings.base_url:
        return None
    parts = urlsplit(settings.base_url)
    return f"{settings.base_url.rstrip('/')}/v1" if parts.path in ("", "/") else None


def missing_v1(url: str, suggested: str) -> str:
    return (
        f"Most OpenAI-compatible servers (Ollama, llama.cpp, LM Studio) answer under /v1, and "
        f"{url} has no path, so every question would get 404. Use {suggested}?"
    )


NEEDS_A_MODEL = (
    "Enter the model name your server runs (for Ollama, e.g. llama3.2), "
    "or press Test key to choose one from its list."
)


# A model or voice name goes into URLs and request bodies: letters, digits and ./:@+- only.
Name = Annotated[str, Field(max_length=200, pattern=r"^[\w./:@+-]*$")]


class ProviderSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Provider = "gemini"
    model: Name = ""
    base_url: str = ""  # empty: the provider's own address
    api_key: SecretStr = Field(default=SecretStr(""), exclude=True, repr=False)
    remember_key: bool = False
    daily_request_cap: int = Field(default=200, ge=1, le=100_000)
    max_output_tokens: int = Field(default=4096, ge=64, le=65_536)
    timeout_s: float = Field(default=60.0, ge=5, le=600)
    # Empty: the provider's default (so settings saved before these existed still load).
    transcription_model: Name = ""
    speech_model: Name = ""
    speech_voice: Name = ""

    @field_validator(
        "model",
        "base_url",
        "transcription_model",
        "speech_model",
        "speech_voice",
        mode="before",
    )
    @classmethod
    def _trimmed(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @field_validator("base_url")
    @classmethod
    def _safe_base_url(cls, value: str) -> str:
        return checked_base_url(value) if value else value

    @model_validator(mode="after")
    def _compatible_needs_a_model(self, info: ValidationInfo) -> ProviderSettings:
        # Test key may go without one: it is how the server's list of models is fetched.
        testing = bool(info.context and info.context.get("testing"))
        if self.provider == "openai_compatible" and not self.model and not testing:
            raise ValueError(NEEDS_A_MODEL)
        return self

    @property
    def url(self) -> str:
        return self.base_url or DEFAULT_BASE_URLS[self.provider]

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODELS[self.provider]

    @property
    def transcription_model_name(self) -> str:
        return self.transcription_model or DEFAULT_TRANSCRIPTION_MODELS[self.provider]

    @property
    def speech_model_name(self) -> str:
        return self.speech_model or DEFAULT_SPEECH_MODELS[self.provider]

    @property
    def speech_voice_name(self) -> str:
        return self.speech_voice or DEFAULT_VOICES[self.provider]

    @property
    def label(self) -> str:
        if self.provider == "gemini":
            return "Gemini"
        if self.provider == "openai":
            return "OpenAI"
        return f"the server at {urlsplit(self.url).netloc}"

    @property
    def opening_label(self) -> str:
        """The label to open a sentence with ("The server at localhost:11434")."""
        return self.label[:1].upper() + self.label[1:]

    def usable_key(self) -> str:
        """The key to send, or a sentence before any request when a hosted provider has none
        (local servers usually need no key)."""
        key = self.api_key.get_secret_value().strip()
        if not key and self.provider != "openai_compatible":
            raise ProviderError(
                "bad_key", f"Paste your {self.label} API key in Settings, then press Test key."
            )
        return key


def _provider_client(settings: ProviderSettings, transport: Transport) -> ModelClient:
    key = settings.usable_key()
    if settings.provider == "gemini":
        return GeminiClient(
            transport,
            model=settings.model_name,
            base_url=settings.url,
            api_key=key,
            timeout_s=settings.timeout_s,
        )
    compatible = settings.provider == "openai_compatible"
    return OpenAIClient(
        transport,
        model=settings.model_name,
        base_url=settings.url,
        api_key=key,
        provider=settings.provider,
        label=settings.label,
        token_param="max_tokens" if compatible else "max_completion_tokens",
        timeout_s=settings.timeout_s,
    )


def make_client(
    settings: ProviderSettings,
    transport: Transport,
    *,
    counter: CounterStore | None = None,
    sleep: Sleep = asyncio.sleep,
    on_wait: OnWait | None = None,
) -> RetryingClient:
    """The client the agents use: spending guard inside, bounded retries outside (so each
    retry counts as a request). Pass a `counter` that persists, or the cap is per session."""
    guard = SpendingGuard(
        daily_requests=settings.daily_request_cap,
        max_output_tokens=settings.max_output_tokens,
        store=counter if counter is not None else MemoryCounter(),
    )
    guarded = GuardedClient(_provider_client(settings, transport), guard)
    return RetryingClient(guarded, sleep=sleep, on_wait=on_wait)


@dataclass(frozen=True)
class KeyCheck:
    ok: bool
    sentence: str
    models: list[str] = field(default_factory=list)


async def _without_v1(settings: ProviderSettings, transport: Transport) -> KeyCheck:
    """A compatible server with no model list where it was asked: most serve the OpenAI API
    under /v1, and an address without it is the usual slip (llama.cpp's server answers 404)."""
    url = settings.url.rstrip("/")
    unlisted = KeyCheck(
        True, f"{settings.opening_label} answered but does not list its models; type the name."
    )
    if url.endswith("/v1"):
        return unlisted
    with_v1 = settings.model_copy(update={"base_url": f"{url}/v1"})
    try:
        models = await _provider_client(with_v1, transport).list_models()
    except ProviderError:
        return unlisted
    return KeyCheck(
        False,
        f"{settings.opening_label} answers at {url}/v1, not at {url}: add /v1 to the address "
        "and test again.",
        models,
    )


async def test_key(settings: ProviderSettings, transport: Transport) -> KeyCheck:
    """One cheap call (list the models) that says in a sentence whether the settings work."""
    try:
        models = await _provider_client(settings, transport).list_models()
    except ProviderError as error:
        if settings.provider == "openai_compatible" and error.status == 404:
            return await _without_v1(settings, transport)
        return KeyCheck(False, error.message)
    if not models:
        return KeyCheck(True, f"The key works, but {settings.label} lists no model that can chat.")
    count = f"{len(models)} model{'s' if len(models) != 1 else ''}"
    sentence = f"It works: {settings.opening_label} offers {count}."
    if settings.model_name and settings.model_name not in models:
        sentence += f" {settings.model_name} is not one of them: choose one from the list."
    return KeyCheck(True, sentence, models)
