"""The "AI settings" dialog: what it shows, and turning its fields back into settings.

Pure Python over `app.llm.settings`, so the form is unit-tested under CPython; the browser
layer (app/browser/ai_settings.py) keeps the key and reads the fields. The key field is a
password input that is always rendered empty: once saved, the key never travels back into
the page, and leaving the field empty keeps the saved key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from pydantic import SecretStr, ValidationError

from app.domain import InvalidInput
from app.inputs import user_message
from app.llm.settings import (
    DEFAULT_BASE_URLS,
    DEFAULT_MODELS,
    DEFAULT_SPEECH_MODELS,
    DEFAULT_TRANSCRIPTION_MODELS,
    DEFAULT_VOICES,
    Provider,
    ProviderSettings,
)
from app.text.nodes import El, Node, h
from app.ui.widgets import action

PROVIDERS: tuple[tuple[Provider, str], ...] = (
    ("gemini", "Gemini"),
    ("openai", "OpenAI"),
    ("openai_compatible", "OpenAI-compatible (Ollama, LM Studio, Groq…)"),
)
IN_MEMORY_HINT = (
    "Unchecked: the key stays only in this tab's memory and is forgotten when you close it. "
    "Checked: it is kept in this browser's storage on this device (not in backups)."
)
KEY_HINT_SAVED = "A key is saved (hidden). Leave empty to keep it, or paste a new one."
VOICE_HINT = (
    "The models and voice your provider uses to hear and speak, only when your browser "
    "cannot recognise or speak a language. Each use counts as a request."
)
VOICE_HINT_COMPATIBLE = "Enter your server's names for them, if it can hear and speak."
# (field name, label, each provider's default). No label says "model": the chat model's
# field is found by its label, and these are named by the group's sentence.
VOICE_FIELDS: tuple[tuple[str, str, dict[Provider, str]], ...] = (
    ("transcription_model", "Speech to text", DEFAULT_TRANSCRIPTION_MODELS),
    ("speech_model", "Text to speech", DEFAULT_SPEECH_MODELS),
    ("speech_voice", "Voice", DEFAULT_VOICES),
)


@dataclass(frozen=True)
class SettingsForm:
    """What the dialog shows: raw field values, so a half-typed form survives a re-render."""

    provider: Provider = "gemini"
    base_url: str = DEFAULT_BASE_URLS["gemini"]
    model: str = DEFAULT_MODELS["gemini"]
    models: tuple[str, ...] = ()  # from the provider's models endpoint, when it answered
    remember_key: bool = False
    daily_request_cap: str = "200"
    max_output_tokens: str = "4096"
    timeout_s: str = "60"
    transcription_model: str = DEFAULT_TRANSCRIPTION_MODELS["gemini"]
    speech_model: str = DEFAULT_SPEECH_MODELS["gemini"]
    speech_voice: str = DEFAULT_VOICES["gemini"]
    has_key: bool = False
    check: str = ""  # the Test key sentence
    check_ok: bool = True

    @classmethod
    def of(cls, settings: ProviderSettings, *, has_key: bool) -> SettingsForm:
        return cls(
            provider=settings.provider,
            base_url=settings.url,
            model=settings.model_name,
            remember_key=settings.remember_key,
            daily_request_cap=str(settings.daily_request_cap),
            max_output_tokens=str(settings.max_output_tokens),
            timeout_s=f"{settings.timeout_s:g}",
            transcription_model=settings.transcription_model_name,
            speech_model=settings.speech_model_name,
            speech_voice=settings.speech_voice_name,
            has_key=has_key,
        )

    @classmethod
    def from_fields(cls, data: Mapping[str, str], *, has_key: bool) -> SettingsForm:
        provider = _provider(data.get("provider", ""))
        return cls(
            provider=provider,
            base_url=data.get("base_url", "") or DEFAULT_BASE_URLS[provider],
            model=data.get("model", ""),
            remember_key="remember_key" in data,
            daily_request_cap=data.get("daily_request_cap", ""),
            max_output_tokens=data.get("max_output_tokens", ""),
            timeout_s=data.get("timeout_s", ""),
            transcription_model=data.get("transcription_model", ""),
            speech_model=data.get("speech_model", ""),
            speech_voice=data.get("speech_voice", ""),
            has_key=has_key,
        )

    def switched_to(self, provider: Provider) -> SettingsForm:
        """The form after choosing another provider: its address and model, no model list."""
        return replace(
            self,
            provider=provider,
            base_url=DEFAULT_BASE_URLS[provider],
            model=DEFAULT_MODELS[provider],
            transcription_model=DEFAULT_TRANSCRIPTION_MODELS[provider],
            speech_model=DEFAULT_SPEECH_MODELS[provider],
            speech_voice=DEFAULT_VOICES[provider],
            models=(),
            check="",
        )


def _provider(value: str) -> Provider:
    for provider, _label in PROVIDERS:
        if value == provider:
            return provider
    return "gemini"


def settings_from_fields(
    data: Mapping[str, str], saved_key: str, *, testing: bool = False
) -> ProviderSettings:
    """Validate the dialog's fields; an empty key field keeps `saved_key`. Raises InvalidInput
    with one sentence naming each bad field. For Test key (`testing`) a compatible server
    needs no model yet: the test fetches the list to choose from."""
    provider = _provider(data.get("provider", ""))
    base_url = data.get("base_url", "").strip().rstrip("/")
    typed_key = data.get("api_key", "").strip()
    try:
        fields = {
            "provider": provider,
            "model": data.get("model", ""),
            # The provider's own address is stored as "" so it follows the provider.
            "base_url": "" if base_url == DEFAULT_BASE_URLS[provider] else base_url,
            "api_key": SecretStr(typed_key or saved_key),
            "remember_key": "remember_key" in data,
            "daily_request_cap": _number(data, "daily_request_cap"),
            "max_output_tokens": _number(data, "max_output_tokens"),
            **({"timeout_s": _number(data, "timeout_s")} if data.get("timeout_s") else {}),
            # Like the address, a default is stored as "" so it follows the provider's (whose
            # audio models are retired on announced dates).
            **_voice_fields(data, provider),
        }
        return ProviderSettings.model_validate(fields, context={"testing": testing})
    except ValidationError as exc:
        raise InvalidInput(user_message(exc)) from exc


def _voice_fields(data: Mapping[str, str], provider: Provider) -> dict[str, str]:
    typed = {name: data.get(name, "").strip() for name, _label, _defaults in VOICE_FIELDS}
    return {
        name: "" if typed[name] == defaults[provider] else typed[name]
        for name, _label, defaults in VOICE_FIELDS
    }


def _number(data: Mapping[str, str], name: str) -> int | str:
    value = data.get(name, "").strip().replace(",", "")
    return int(value) if value.isdigit() else value


def settings_dialog(form: SettingsForm) -> El:
    return h(
        "div",
        {"class": "ai-settings"},
        h("h2", {"id": "dialog-title"}, "AI settings"),
        h(
            "form",
            {
                "id": "ai-settings-form",
                "data-action": "ai-save-settings",
                "aria-label": "AI settings",
            },
            h(
                "div",
                {"class": "form-grid"},
                _label("ai-provider", "Provider"),
                _provider_select(form.provider),
                *_address(form),
                _label("ai-model", "Model"),
                h("div", {"id": "ai-model-slot"}, model_field(form)),
                _label("ai-key", "API key"),
                _key_field(form),
            ),
            _remember(form.remember_key),
            _limits(form),
            _voice(form),
            h(
                "p",
                {
                    "id": "ai-check",
                    "class": "ai-check",
                    "role": "status",
                    "data-ok": "true" if form.check_ok else "false",
                },
                form.check,
            ),
            h(
                "p",
                {"id": "ai-settings-error", "class": "form-error", "role": "alert", "hidden": True},
            ),
            h(
                "div",
                {"class": "form-actions"},
                _button("Test key", "test-key"),
                _button("Cancel", "close-settings"),
                h("button", {"type": "submit", "class": "primary"}, "Save"),
            ),
        ),
    )


def _label(for_id: str, text: str) -> El:
    return h("label", {"for": for_id}, text)


def _button(label: str, name: str) -> El:
    return h("button", {"type": "button", "data-action": f"ai-{name}"}, label)


def _provider_select(selected: Provider) -> El:
    return h(
        "select",
        {"id": "ai-provider", "name": "provider", "data-input-action": "ai-provider"},
        (
            h("option", {"value": value, "selected": value == selected}, label)
            for value, label in PROVIDERS
        ),
    )


def _url_input(form: SettingsForm) -> El:
    return h(
        "input",
        {
            "id": "ai-base-url",
            "name": "base_url",
            "type": "url",
            "value": form.base_url,
            "autocomplete": "off",
            "spellcheck": "false",
            "aria-describedby": "ai-base-url-hint",
        },
    )


def _address(form: SettingsForm) -> tuple[Node, ...]:
    hint = h(
        "small",
        {"id": "ai-base-url-hint", "class": "hint"},
        "https for servers on the internet; plain http only for this computer or your "
        "local network. Lexical connects to this server and no other.",
    )
    if form.provider == "openai_compatible":
        return _label("ai-base-url", "Base URL"), h("div", None, _url_input(form), hint)
    # Gemini and OpenAI have one address; changing it (a proxy, a gateway) is advanced.
    return (
        h("span", {"class": "form-grid-gap"}),
        h(
            "details",
            {"class": "ai-advanced"},
            h("summary", None, "Address (advanced)"),
            _label("ai-base-url", "Base URL"),
            _url_input(form),
            hint,
        ),
    )


def model_field(form: SettingsForm) -> El:
    if form.models:
        names = list(form.models)
        if form.model and form.model not in names:
            names.insert(0, form.model)
        return h(
            "select",
            {"id": "ai-model", "name": "model"},
            (h("option", {"value": n, "selected": n == form.model}, n) for n in names),
        )
    return h(
        "div",
        None,
        _text_input("ai-model", "model", form.model, "ai-model-hint"),
        h(
            "small",
            {"id": "ai-model-hint", "class": "hint"},
            "Press Test key to choose from the models your provider offers.",
        ),
    )


# Where each provider's keys are made: (text before the link, link text, address).
KEY_PAGES: dict[Provider, tuple[str, str, str]] = {
    "gemini": ("Get a key at ", "Google AI Studio", "https://aistudio.google.com/app/apikey"),
    "openai": ("Get a key on ", "OpenAI's API keys page", "https://platform.openai.com/api-keys"),
}
LOCAL_NEEDS_NO_KEY = (
    "Local servers such as Ollama or LM Studio usually need no key: leave it empty. "
    "A hosted server gives you one in its account settings."
)


def _key_source(provider: Provider) -> El:
    """Where to get a key, as a link that opens in a new tab (the settings stay as typed)."""
    page = KEY_PAGES.get(provider)
    if page is None:
        return h("p", {"id": "ai-key-source", "class": "hint"}, LOCAL_NEEDS_NO_KEY)
    before, label, href = page
    link = h("a", {"href": href, "target": "_blank", "rel": "noopener noreferrer"}, label)
    return h("p", {"id": "ai-key-source", "class": "hint"}, before, link, ".")


def _key_field(form: SettingsForm) -> El:
    hint = KEY_HINT_SAVED if form.has_key else "Sent only to this provider, in a header."
    return h(
        "div",
        None,
        h(
            "input",
            {
                "id": "ai-key",
                "name": "api_key",
                "type": "password",
                "value": "",  # never echo a saved key into the page
                "autocomplete": "off",
                "spellcheck": "false",
                "aria-describedby": "ai-key-hint",
            },
        ),
        h("small", {"id": "ai-key-hint", "class": "hint"}, hint),
        _key_source(form.provider),
    )


def _remember(checked: bool) -> El:
    return h(
        "div",
        {"class": "ai-remember"},
        h(
            "input",
            {
                "id": "ai-remember",
                "name": "remember_key",
                "type": "checkbox",
                "checked": checked,
                "aria-describedby": "ai-remember-hint",
            },
        ),
        _label("ai-remember", "Remember the key on this device"),
        h("p", {"id": "ai-remember-hint", "class": "hint"}, IN_MEMORY_HINT),
    )


def _limits(form: SettingsForm) -> El:
    return h(
        "div",
        {"class": "form-grid"},
        _label("ai-cap", "Requests per day (at most)"),
        _number_input("ai-cap", "daily_request_cap", form.daily_request_cap, 1, 100_000),
        _label("ai-tokens", "Output tokens per request (at most)"),
        _number_input("ai-tokens", "max_output_tokens", form.max_output_tokens, 64, 65_536),
        # A slow local server on a small machine may take minutes to start answering.
        _label("ai-timeout", "Seconds to wait for an answer"),
        _number_input("ai-timeout", "timeout_s", form.timeout_s, 5, 600),
    )


def _voice(form: SettingsForm) -> El:
    compatible = form.provider == "openai_compatible"
    return h(
        "fieldset",
        {"class": "ai-voice", "aria-describedby": "ai-voice-hint"},
        h("legend", None, "Voice"),
        h(
            "p",
            {"id": "ai-voice-hint", "class": "hint"},
            VOICE_HINT,
            f" {VOICE_HINT_COMPATIBLE}" if compatible else "",
        ),
        h(
            "div",
            {"class": "form-grid"},
            *(
                node
                for name, label, _defaults in VOICE_FIELDS
                for node in (
                    _label(f"ai-{name.replace('_', '-')}", label),
                    _text_input(f"ai-{name.replace('_', '-')}", name, getattr(form, name)),
                )
            ),
        ),
    )


def _text_input(element_id: str, name: str, value: str, hint_id: str | None = None) -> El:
    """A name typed exactly (a model, a voice): no autofill, no spelling marks."""
    return h(
        "input",
        {
            "id": element_id,
            "name": name,
            "value": value,
            "autocomplete": "off",
            "spellcheck": "false",
            "aria-describedby": hint_id,
        },
    )


def _number_input(element_id: str, name: str, value: str, low: int, high: int) -> El:
    return h(
        "input",
        {
            "id": element_id,
            "name": name,
            "type": "number",
            "inputmode": "numeric",
            "min": low,
            "max": high,
            "value": value,
            "required": True,
        },
    )


def v1_offer(sentence: str, suggested: str) -> El:
    """Save's question when a compatible server's address has no path: add /v1, or keep it."""
    return h(
        "span",
        None,
        sentence,
        " ",
        action(f"Use {suggested}", "ai-use-v1", None, **{"data-value": suggested}),
        " ",
        action("Save as typed", "ai-save-as-typed"),
    )
