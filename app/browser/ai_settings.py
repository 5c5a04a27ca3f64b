"""The "AI settings" dialog in the page: open it, switch provider, Test key, Save.

The form itself is app/ui/settings_view.py; this module reads its fields, calls the provider
through the fetch transport for Test key (which also fills the model list), and saves
through `SettingsStore`. A typed key is read from the password field only when needed and
is never written back into the page. When the form names a server this page may not reach,
Test key and Save reload the page allowing it and are done again after the reload
(app/ui/settings_pending.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from app.browser import connect_policy, key_handoff
from app.browser.dom import by_id, form_fields, found, js_object, replace_children
from app.browser.fetch import FetchTransport
from app.browser.local_storage import put, take
from app.browser.page_parts import Spawns, Toasts
from app.browser.settings_store import SettingsStore
from app.domain import InvalidInput
from app.llm.connect import origin_of
from app.llm.settings import Provider, ProviderSettings, missing_v1, test_key, with_v1
from app.ui.settings_pending import PENDING_KEY, PendingSettings, Then
from app.ui.settings_view import (
    PROVIDERS,
    SettingsForm,
    model_field,
    settings_dialog,
    settings_from_fields,
    v1_offer,
)

TESTING = "Asking the provider…"
RELOADED_KEY = "lexical-connect-reloaded"  # sessionStorage: at most one reload at startup
KEY_TOKEN = "key_token"  # in the waiting form: the token the key waits under
AS_TYPED = "as_typed"  # in the waiting form: Save was told to keep the address as typed
KEY_LOST = (
    "Your key is kept only in this tab's memory and was lost in the reload that lets the "
    "page reach this server. Type it again."
)


class SettingsPage(Spawns, Toasts, Protocol):
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
        self._carried_key = ""  # a key typed before the reload that allowed its server

    @property
    def _key(self) -> str:
        return self._carried_key or self.store.key

    @property
    def is_open(self) -> bool:
        return bool(self.page.dialog.open) and found(by_id("ai-settings-form"))

    def open(self) -> None:
        self._carried_key = ""
        self._show(SettingsForm.of(self.store.settings, has_key=self.store.has_key))

    def resume(self) -> None:
        """After startup: finish a Test key or Save that reloaded the page to reach its
        server, or, when the saved server is one this load may not reach (settings saved by
        an older version), allow it and reload once."""
        pending = PendingSettings.parsed(take(PENDING_KEY, session=True))
        if pending is not None:
            self._resume(pending)
            return
        key_handoff.take("")  # a key left waiting by a reload that lost its form: gone
        if self.store.saved and not connect_policy.reaches(self.store.settings.url):
            connect_policy.remember(self.store.settings.url)
            if take(RELOADED_KEY, session=True) is None:
                put(RELOADED_KEY, "1", session=True)
                connect_policy.reload_allowing(self.store.settings.url)

    def _resume(self, pending: PendingSettings) -> None:
        fields = dict(pending.fields)
        token = fields.pop(KEY_TOKEN, None)
        fields.pop("api_key", None)  # where a version before issue 25 left it
        self._carried_key = key_handoff.take(token or "")
        self._show(SettingsForm.from_fields(fields, has_key=bool(self._key)))
        if token and not self._carried_key:
            self._error(KEY_LOST)
        elif pending.then == "save":
            self.save(as_typed=AS_TYPED in fields)
        else:
            self.page.spawn(self.test())

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

    def use_v1(self, address: str) -> None:
        """Save with the address /v1 was added to."""
        by_id("ai-base-url").value = address
        self.save()

    def _error(self, message: str) -> None:
        slot = by_id("ai-settings-error")
        slot.textContent = message
        slot.hidden = not message

    async def test(self) -> None:
        fields = self._fields()
        try:
            settings = settings_from_fields(fields, self._key, testing=True)
        except InvalidInput as exc:
            self._error(exc.message)
            return
        self._error("")
        if self._reloading_to_reach(settings, fields, "test"):
            return
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

    def _reloading_to_reach(
        self, settings: ProviderSettings, fields: dict[str, str], then: Then
    ) -> bool:
        """Reload allowing the settings' server when this page may not reach it; the form
        waits in this tab for the reload, which does `then` again, and the key in the tab's
        name, never in storage (app/browser/key_handoff.py)."""
        if connect_policy.reaches(settings.url):
            return False
        kept = {name: value for name, value in fields.items() if name != "api_key"}
        key = settings.api_key.get_secret_value()
        if key:
            kept[KEY_TOKEN] = key_handoff.hold(key)
        put(PENDING_KEY, PendingSettings(then, kept).text(), session=True)
        self._say(f"Reloading once to allow connections to {origin_of(settings.url)}…", ok=True)
        connect_policy.reload_allowing(settings.url)
        return True

    def _say(self, sentence: str, *, ok: bool) -> None:
        slot = by_id("ai-check")
        slot.textContent = sentence
        slot.dataset.ok = "true" if ok else "false"

    def save(self, *, as_typed: bool = False) -> None:
        fields = self._fields()
        try:
            settings = settings_from_fields(fields, self._key)
        except InvalidInput as exc:
            self._error(exc.message)
            return
        suggested = None if as_typed else with_v1(settings)
        if suggested is not None:  # issue 25: saved as typed, every question got 404
            slot = by_id("ai-settings-error")
            replace_children(slot, v1_offer(missing_v1(settings.base_url, suggested), suggested))
            slot.hidden = False
            slot.scrollIntoView(js_object(block="nearest"))
            return
        kept = {**fields, AS_TYPED: "1"} if as_typed else fields
        if self._reloading_to_reach(settings, kept, "save"):
            return
        self.store.save(settings)
        self._carried_key = ""
        self.page.dialog.close()
        self.on_saved()
        self.page.show_toast(f"AI settings saved: {settings.label}, {settings.model_name}.")
