"""The "AI settings" dialog in the page: open it, switch provider, Test key, Save.

The form itself is app/ui/settings_view.py; this module reads its fields, calls the provider
through the fetch transport for Test key (which also fills the model list), and saves
through `SettingsStore`. A typed key is read from the password field only when needed and
is never written back into the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.browser.dom import by_id, form_fields, found, replace_children
from app.browser.fetch import FetchTransport
from app.browser.page_parts import Toasts
from app.browser.settings_store import SettingsStore
from app.domain import InvalidInput
from app.llm.settings import Provider, test_key
from app.ui.settings_view import (
    PROVIDERS,
    SettingsForm,
    model_field,
    settings_dialog,
    settings_from_fields,
)

TESTING = "Asking the provider…"


class SettingsPage(Toasts, Protocol):
    """What the AI settings dialog needs of the page (app.py's Page)."""

    dialog: Any


class SettingsDialog:
    def __init__(
        self, page: SettingsPage, store: SettingsStore, on_saved: Callable[[], None]
    ) -> None:
        self.page = page
        self.store = store
        self.on_saved = on_saved
        self.transport = FetchTransport()

    @property
    def is_open(self) -> bool:
        return bool(self.page.dialog.open) and found(by_id("ai-settings-form"))

    def open(self) -> None:
        self._show(SettingsForm.of(self.store.settings, has_key=self.store.has_key))

    def _show(self, form: SettingsForm) -> None:
        dialog = self.page.dialog
        replace_children(dialog, settings_dialog(form))
        if not dialog.open:
            dialog.showModal()
        by_id("ai-provider").focus()

    def _fields(self) -> dict[str, str]:
        return form_fields(by_id("ai-settings-form"))

    def switch_provider(self) -> None:
        fields = self._fields()
        chosen: Provider = next(
            (p for p, _label in PROVIDERS if p == fields.get("provider")), "gemini"
        )
        form = SettingsForm.from_fields(fields, has_key=self.store.has_key)
        self._show(form.switched_to(chosen))

    def _error(self, message: str) -> None:
        slot = by_id("ai-settings-error")
        slot.textContent = message
        slot.hidden = not message

    async def test(self) -> None:
        fields = self._fields()
        try:
            settings = settings_from_fields(fields, self.store.key, testing=True)
        except InvalidInput as exc:
            self._error(exc.message)
            return
        self._error("")
        self._say(TESTING, ok=True)
        check = await test_key(settings, self.transport)
        if not self.is_open:
            return
        if check.models:
            form = SettingsForm.from_fields(fields, has_key=self.store.has_key)
            models = tuple(check.models)
            model = form.model if form.model in models else models[0]
            replace_children(
                by_id("ai-model-slot"),
                model_field(SettingsForm(model=model, models=models)),
            )
        self._say(check.sentence, ok=check.ok)

    def _say(self, sentence: str, *, ok: bool) -> None:
        slot = by_id("ai-check")
        slot.textContent = sentence
        slot.dataset.ok = "true" if ok else "false"

    def save(self) -> None:
        try:
            settings = settings_from_fields(self._fields(), self.store.key)
        except InvalidInput as exc:
            self._error(exc.message)
            return
        self.store.save(settings)
        self.page.dialog.close()
        self.on_saved()
        self.page.show_toast(f"AI settings saved: {settings.label}, {settings.model_name}.")
