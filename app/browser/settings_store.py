"""Where the AI settings live in the browser: localStorage, and the key in memory by default.

Non-secret settings (provider, model, address, caps) are JSON in localStorage. The key is kept
in this object's memory for the tab; only when the user ticks "Remember the key on this
device" is it written to localStorage too, under its own name, and unticking removes it. It
is never in SQLite, so no backup or export can contain it. The day's request count for the
spending guard is in localStorage, so the cap holds across reloads. Saving also lets the page
reach the chosen server from the next load on, and no other (app/browser/connect_policy.py).
"""

from __future__ import annotations

import json

from pydantic import SecretStr, ValidationError

from app.browser.connect_policy import remember
from app.browser.local_storage import get as _get
from app.browser.local_storage import put as _set
from app.llm.settings import ProviderSettings

SETTINGS_KEY = "lexical-ai-settings"
API_KEY = "lexical-ai-key"
COUNTER_KEY = "lexical-ai-requests"


class SettingsStore:
    def __init__(self) -> None:
        self._key = _get(API_KEY) or ""
        self.saved = _get(SETTINGS_KEY) is not None
        self.settings = self._load()

    def _load(self) -> ProviderSettings:
        text = _get(SETTINGS_KEY)
        try:
            settings = ProviderSettings.model_validate_json(text) if text else ProviderSettings()
        except ValidationError:
            settings = ProviderSettings()  # damaged or from an older version: start over
        return settings.model_copy(update={"api_key": SecretStr(self._key)})

    @property
    def has_key(self) -> bool:
        return bool(self._key)

    @property
    def key(self) -> str:
        return self._key

    @property
    def configured(self) -> bool:
        """Saved once, with a key where the provider needs one."""
        return self.saved and (self.has_key or self.settings.provider == "openai_compatible")

    def save(self, settings: ProviderSettings) -> None:
        self._key = settings.api_key.get_secret_value()
        self.settings = settings
        self.saved = True
        _set(SETTINGS_KEY, settings.model_dump_json())  # api_key is excluded from dumps
        _set(API_KEY, self._key if settings.remember_key and self._key else None)
        remember(settings.url)


class LocalCounter:
    """The spending guard's request count for the day, kept across reloads."""

    def read(self) -> tuple[str, int] | None:
        text = _get(COUNTER_KEY)
        try:
            day, count = json.loads(text) if text else (None, None)
        except (ValueError, TypeError):
            return None
        return (day, count) if isinstance(day, str) and isinstance(count, int) else None

    def write(self, day: str, count: int) -> None:
        _set(COUNTER_KEY, json.dumps([day, count]))
