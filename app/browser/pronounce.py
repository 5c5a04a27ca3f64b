"""The page's voice: the speaker, the voice settings, and "Pronounce" on every word.

A Pronounce button (or P on the selected word) says the word's term in its language: the
word's own tag, else its folder's default, else the user's speech language. When nobody can
say it (the browser has no working voice for it and no provider stands in), the toast says
so and what to do, at every press; for what the page says by itself (study prompts, the
drill) it is said once (`tell_off`), and study goes on in text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from app.browser.dom import by_id
from app.browser.speaker import Listen, Speaker
from app.browser.voice_settings import VoiceDialog, VoiceDialogPage
from app.domain import LexicalError, WordId
from app.speech.outcome import InText, SpeechError, SpeechOff
from app.speech.voices import word_lang

if TYPE_CHECKING:
    from app.browser.commands import Command
    from app.ui.controller import Controller


class SpeechPage(VoiceDialogPage, Protocol):
    """What the page's voice needs of the page (app.py's Page, which builds it)."""

    controller: Controller
    commands: dict[str, Command]


class SpeechGlue:
    def __init__(self, page: SpeechPage) -> None:
        self.page = page
        self.speaker = Speaker(lambda: self.voice.settings)
        self.voice = VoiceDialog(page, self.speaker)
        page.commands.update(self.voice.commands())
        page.commands["pronounce"] = lambda item_id, _data: self.pronounce(item_id)

    def start(self, listen: Listen) -> None:
        self.speaker.start(listen)
        by_id("voice-button").disabled = False

    def pronounce(self, item_id: str | None) -> None:
        store = self.page.controller.store
        try:
            word = store.word(WordId(int(item_id or "")))
        except (LexicalError, ValueError):
            self.page.show_toast("That word is no longer here.")
            return
        lang = word_lang(
            word.lang, store.default_lang(word.folder_id), self.voice.settings.speech_lang
        )
        self.say(word.term, lang, asked=True)

    def say(self, text: str, lang: str, *, asked: bool = False) -> None:
        """Say `text` in `lang` now, cutting off whatever was being said (a word, a prompt).
        `asked`: the user asked for this very word, so a failure is told every time."""
        self.page.spawn(self._say(text, lang, asked=asked))

    async def _say(self, text: str, lang: str, *, asked: bool) -> None:
        self.speaker.cancel()  # a new word is said at once, not after the one before
        try:
            await self.speaker.say(text, lang)
        except SpeechError as exc:
            if isinstance(exc, SpeechOff) and not asked:  # a prompt: study goes on in text
                self.tell_off(exc, "prompt")
            else:
                self.page.show_toast(exc.message)

    def tell_off(self, off: SpeechOff, where: InText) -> None:
        """Show that speech is off for `where` (and why) the first time only: what would have
        been said is on the screen anyway, and a toast per sentence would bury it."""
        if notice := self.speaker.notice(off, where):
            self.page.show_toast(notice)
