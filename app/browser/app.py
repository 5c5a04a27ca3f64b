"""The running page: DOM events in, controller updates out, and hash routing.

Events are delegated from the document (a handful of listeners for the whole app): any element
with `data-action` is dispatched to the controller with its `data-id` and, for forms, the form
fields (app/browser/forms.py). `Page` builds the page's parts (toolbar, banner, toast, forms,
drag and drop, shortcuts, import, voice…), routes actions to them or to the controller, and
draws what the controller answers. Everything this module decides is about the browser; what
an action means lives in app.ui.controller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import js
from pyodide.ffi import create_proxy

from app.browser.banner import Banner
from app.browser.closing import DialogCloser
from app.browser.commands import Command
from app.browser.dom import (
    Region,
    by_id,
    closest,
    data,
    found,
    js_object,
    measured,
    repaint,
    replace_children,
)
from app.browser.drag_drop import DragDrop
from app.browser.drawers import DrawerGlue
from app.browser.fitting import FitGlue
from app.browser.forms import Forms, caret, hide_errors, restore_caret
from app.browser.keys import Shortcuts
from app.browser.last_screen import LastScreen, Screen
from app.browser.packages import BASE, STUDY, LazyPackages
from app.browser.read_only import show_locks
from app.browser.search_box import SearchBox
from app.browser.slices import sliced
from app.browser.theme import label_theme_switch, toggle_theme
from app.browser.timers import Timeout
from app.browser.toast import Toast
from app.browser.toolbar import Toolbar
from app.browser.transfer import TransferGlue, save_download
from app.browser.typed_ahead import TypedAhead
from app.store.queries import changes_placement
from app.store.transfer.steps import Progress, Steps
from app.tasks import start_now
from app.ui.controller import OPENS_WITHOUT_PACKAGES, Controller
from app.ui.diff import Fresh, the_form
from app.ui.routes import Route
from app.ui.update import Update

if TYPE_CHECKING:
    from app.browser.assistant import Assistant
    from app.browser.drill import DrillGlue
    from app.browser.hearing import Hearing
    from app.browser.pronounce import SpeechGlue
    from app.browser.study_voice import StudyVoice
    from app.store.changes import Changeset

COUNTS_DELAY_SECONDS = 0.25  # after a grade, the sidebar's counts wait until the card is painted
# An edit's redraw waits for its log entry to be written (2-5 ms, p95 about 10), but never
# longer than this: a few frames, well under what a person notices, and short enough that a
# key pressed right after Enter is rarely typed into the form about to be drawn afresh.
REDRAW_WAIT_SECONDS = 0.05
# Actions that can reschedule cards from their logs once something is studied (decision 036).
RESCHEDULING = frozenset({"undo", "redo", "do-move-words", "do-move-folder"})
# What waits while cards are rescheduled: it would change the options or the cards' folders.
WAITS_FOR_WORK = RESCHEDULING | {
    "save-study-options",
    "study-use-parameters",
    "study-options-inherit",
}
REVEAL_FRAMES = 12  # enough to settle a row among rows of any height; bounded all the same


class Page:
    """Owns the DOM regions and applies controller updates to them."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self.tree = by_id("tree")
        self.main = by_id("main")
        # Redraws patch these regions: an edit replaces one row, not the whole folder.
        self.tree_region = Region(self.tree)
        self.main_region = Region(self.main, keep=TypedAhead)
        self.dialog = by_id("dialog")
        self.toast = Toast(by_id("toast"))
        self._counts_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[None]] = set()  # keeps background tasks alive
        # Loaded after the first screen; what needs them waits for them (decision 028).
        self.packages = LazyPackages(BASE, "Part of Lexical could not load")
        self.study_runtime = LazyPackages(STUDY, "Studying could not start")
        self.drag_drop = DragDrop(self._dropped)
        self._proxies: list[Any] = []
        self.closer = DialogCloser(self.dialog)
        # Actions owned by browser parts (the assistant, closing dialogs), run instead of the
        # controller.
        self.commands: dict[str, Command] = self.closer.commands()
        self.search = SearchBox(controller, lambda query: self.run("study", None, {"query": query}))
        self.shortcuts = Shortcuts(self)
        self.drawers = DrawerGlue()
        self.transfer = TransferGlue(self)
        self.fitting = FitGlue(self)
        self.banner = Banner(by_id("banner"), self.commands)
        self.toolbar = Toolbar(controller, self.banner)
        self.forms = Forms(self)
        self._speech: SpeechGlue | None = None  # built after the first screen (`speech`)
        self._hearing: Hearing | None = None  # built when something first listens
        self.study_voice: StudyVoice | None = None  # loaded with the study screen
        self.assistant: Assistant | None = None  # attached after the first screen (session.py)
        self.drill: DrillGlue | None = None  # the hands-free drill, loaded with it too
        self.last_screen = LastScreen(self._screen)  # painted at the next start (warm.js)
        # The save queue's when_written (session.py): an edit's redraw waits for its log entry.
        self.when_written: Callable[[Callable[[], None]], None] | None = None
        self._after_save: list[tuple[Update, Fresh | None]] = []
        self._redraw_wait: Timeout | None = None
        self._working = 0  # long work running (`_finish`)

    # --- wiring -------------------------------------------------------------------------------

    def listen(self, target: Any, event: str, handler: Any, *, capture: bool = False) -> None:
        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        target.addEventListener(event, proxy, capture)

    def attach_speech(self) -> None:
        """Build the page's voice (the speaker, the voice settings, Pronounce): right after the
        first screen (session.py), or when a screen drawn before it needs it (studying
        aloud). Its modules and settings cost 20-40 ms that the first screen does not need."""
        if self._speech is None:
            from app.browser.pronounce import SpeechGlue  # noqa: PLC0415 (see above)

            self._speech = SpeechGlue(self)
            self._speech.start(self.listen)

    @property
    def speech(self) -> SpeechGlue:
        self.attach_speech()
        assert self._speech is not None
        return self._speech

    @property
    def hearing(self) -> Hearing:
        """The one recognition ladder the assistant, Speaking mode and the drill listen on."""
        if self._hearing is None:
            from app.browser.hearing import Hearing  # noqa: PLC0415 (not on the first screen)

            self._hearing = Hearing(
                lambda: self.speech.voice.settings.on_device_only, lambda: self.assistant
            )
        return self._hearing

    def start(self) -> None:
        doc = js.document
        self.listen(doc, "click", self._on_click)
        self.forms.start(self.listen)
        self.listen(doc, "input", self.shortcuts.on_input)
        self.listen(doc, "change", self.transfer.on_change)
        self.listen(doc, "keydown", self.shortcuts.on_keydown)
        self.drag_drop.start(self.listen)
        self.listen(js.window, "hashchange", lambda _e: self.route())
        self.listen(js.window, "beforeunload", self._on_beforeunload)
        self.search.start(self.listen)
        self.drawers.start(self.listen)
        self.last_screen.start(self.listen)
        for element_id in ("search", "new-root-folder", "transfer-button", "study-button"):
            by_id(element_id).disabled = False
        label_theme_switch()
        self.route()
        self._redraw_counts_soon()

    # --- applying updates ---------------------------------------------------------------------

    def route(self) -> None:
        route = Route.parse(js.location.hash)
        # The study and stats screens read the study options, a pydantic model.
        needed = [self.packages, self.study_runtime] if route.view == "study" else [self.packages]
        if route.view and self._waits(self.route, *needed):  # then to wherever the page is
            return
        self.apply(self.controller.navigate(route))

    def run(
        self, action: str, item_id: str | None = None, data: dict[str, str] | None = None
    ) -> None:
        if action == "toggle-theme":
            toggle_theme()
            return
        # An action in the first moment after the screen appears waits for the packages,
        # unless it only opens a dialog (its submit waits instead).
        waits = action not in OPENS_WITHOUT_PACKAGES
        if waits and self._waits(lambda: self.run(action, item_id, data), self.packages):
            return
        if action in self.commands:
            self.commands[action](item_id, data)
            return
        if self._working and action in WAITS_FOR_WORK:
            self.toast.show("Rescheduling your cards: this can be done in a moment.")
            return
        # Studying, and anything that changes study options, which reschedules cards from
        # their logs (decision 036): undoing or redoing a step may, once something is studied.
        # Moving words or folders may too (follow_moves): then the page redraws what it did.
        needs_scheduler = (
            (action.startswith("study") and action != "study-options")
            or action == "save-study-options"
            or (action in RESCHEDULING and self.controller.store.study.studied())
        )
        if needs_scheduler and self._waits(
            lambda: self.run(action, item_id, data), self.study_runtime
        ):
            return
        store = self.controller.store
        written = store.version
        update = self.controller.dispatch(action, item_id, data)
        # The form that asked for it comes back as new (emptied after "Add word"); other forms
        # keep what was typed into them.
        fresh = the_form(action, item_id)
        if store.version != written and self.when_written is not None:
            self._apply_when_written(update, fresh)
        else:
            self.apply(update, fresh)

    def _apply_when_written(self, update: Update, fresh: Fresh) -> None:
        """Redraw after an edit once its log entry is written (a few milliseconds), or after
        REDRAW_WAIT_SECONDS if storage is slower (decision 024). A redraw in the handler made
        Chromium paint a frame before it delivered IndexedDB's commit, which put a whole frame
        of drawing between every edit and "Saved"; this way the page shows an edit as it is
        saved, and nothing asks for a frame before the commit but the status line."""
        self._after_save.append((update, fresh))
        if len(self._after_save) > 1:
            return
        self._redraw_wait = Timeout(REDRAW_WAIT_SECONDS, self._apply_waiting)
        assert self.when_written is not None
        self.when_written(self._apply_waiting)

    def _apply_waiting(self) -> None:
        if self._redraw_wait is not None:
            self._redraw_wait.cancel()
            self._redraw_wait = None
        waiting, self._after_save = self._after_save, []
        for update, fresh in waiting:
            self._apply_now(update, fresh)

    def _waits(self, then: Callable[[], None], *needed: LazyPackages) -> bool:
        """False if `needed` are loaded; otherwise True, and `then` runs once they are."""
        if all(packages.ready for packages in needed):
            return False

        async def load_then() -> None:
            if await self.loaded(*needed):
                then()

        self.spawn(load_then())
        return True

    async def loaded(self, *needed: LazyPackages) -> bool:
        """Load `needed` (the toolbar says it is busy meanwhile); False once the user has been
        told that they could not be loaded."""
        if all(packages.ready for packages in needed):
            return True
        with self.toolbar.busy():
            for packages in needed:
                try:
                    await packages.load()
                except Exception as exc:
                    reason = f"{packages.failure} ({exc})."
                    self.show_toast(f"{reason} Reload the page to try again.")
                    return False
        return True

    def apply(self, update: Update, fresh: Fresh | None = None) -> None:
        self._apply_waiting()  # an edit's redraw still waiting comes first, in order
        self._apply_now(update, fresh)

    def _apply_now(self, update: Update, fresh: Fresh | None) -> None:
        kept = caret(js.document.activeElement)
        if update.close_dialog and self.dialog.open:
            self.dialog.close()
        if update.dialog is not None:
            replace_children(self.dialog, update.dialog)
            if not self.dialog.open:
                self.dialog.showModal()
        if update.patch is not None:
            selector, node = update.patch
            target = self.dialog.querySelector(selector)
            if found(target):
                replace_children(target, node)
        if update.replace_url is not None:
            js.history.replaceState(None, "", update.replace_url)
        if update.navigate is not None and update.navigate != (js.location.hash or "#/"):
            js.location.hash = update.navigate  # hashchange renders the new place
        else:
            self._render(update, fresh)
        self._announce(update)
        if update.counts:
            self._redraw_counts_soon()
        self.toolbar.refresh()
        show_locks(self.controller.read_only is not None)
        if update.focus:
            target = js.document.querySelector(update.focus)
            if found(target):
                target.focus()
                restore_caret(target, kept)
        self._spawn_after(update)
        self._study_drawn()
        self.last_screen.drawn()

    def _spawn_after(self, update: Update) -> None:
        """What an update leaves to run once it is drawn."""
        if update.reveal:
            self.spawn(self._reveal(update.reveal))
        if update.then is not None:
            self.spawn(self._finish(update.then))

    async def _finish(self, work: Steps[Update]) -> None:
        """Long work an action left (rescheduling many cards), a slice at a time with its
        progress in the toast, while the actions that would change what it works on wait
        (`run`); then the update it ends with."""

        def show(step: Progress) -> None:
            self.toast.show(f"{step.stage}: {step.done:,} of {step.total:,} cards…")

        if not await self.loaded(self.packages, self.study_runtime):  # the replays' scheduler
            return
        self._working += 1
        try:
            with self.toolbar.busy():
                result = await sliced(work, show)
        finally:
            self._working -= 1
        if result is not None:
            self.apply(result)

    def _screen(self) -> Screen:
        route = self.controller.state.route
        if route.view == "study":  # a card of a session: stale the moment it is graded
            return route.to_hash(), None, None
        return route.to_hash(), self.tree_region.shown, self.main_region.shown

    def _study_drawn(self) -> None:
        """Listening and Speaking: the voice side of studying, loaded with the study screen
        (recognition brings the voice machine and the provider settings along)."""
        if self.study_voice is None:
            if self.controller.state.route.view != "study":
                return
            from app.browser.drill import DrillGlue  # noqa: PLC0415
            from app.browser.study_voice import StudyVoice  # noqa: PLC0415

            self.study_voice = StudyVoice(self)
            self.study_voice.start(self.listen)
            self.drill = DrillGlue(self)
            self.drill.start(self.listen)
        self.study_voice.drawn()
        if self.drill is not None:
            self.drill.drawn()

    def spawn(self, work: Coroutine[Any, Any, None], *, now: bool = False) -> None:
        """Run `work` in the background, kept alive until it ends; `now` runs it up to its
        first wait before returning (app/tasks.py)."""
        task = start_now(work) if now else asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _draw_charts(self) -> None:
        from app.browser.charts import draw_charts  # noqa: PLC0415 (the stats page only)

        self.spawn(draw_charts(self.main))

    def _redraw_counts_soon(self) -> None:
        if self._counts_task is not None:
            self._counts_task.cancel()
        self._counts_task = asyncio.ensure_future(self._redraw_counts())

    async def _redraw_counts(self) -> None:
        await asyncio.sleep(COUNTS_DELAY_SECONDS)
        if not await self.loaded(self.packages):  # the study options are a pydantic model
            return
        self.controller.due.paused = False
        with measured("due-counts"):
            self._render(Update(tree=True))
            # Only the due line of the main panel: redrawing it all would reset a form
            # someone is typing in.
            line = by_id("study-due")
            if found(line):
                line.textContent = self.controller.due_here()
        self.toolbar.refresh()
        self.last_screen.drawn()

    def _announce(self, update: Update) -> None:
        """Downloads, errors and toasts: what an update tells the user besides redrawing."""
        if update.download is not None:
            save_download(update.download)
        if update.error:
            self.forms.show_error(update.error)
        if update.toast:
            self.show_toast(update.toast, undo=update.offer_undo)

    def _render(self, update: Update, fresh: Fresh | None = None) -> None:
        tree, main = self.controller.render(tree=update.tree, main=update.main)
        for region, view in ((self.tree_region, tree), (self.main_region, main)):
            if view is not None:
                region.show(view, fresh)
                hide_errors(region.element)
        if main is not None and self.controller.state.route.view == "stats":
            self._draw_charts()

    async def _reveal(self, selector: str) -> None:
        """Scroll a linked row into view so that it stays there. Rows not drawn yet only have
        an estimated height (content-visibility), and drawing the ones around the target would
        move it: for one frame every row of its list is drawn, so each gets its real height
        (which the browser then remembers), and the row is scrolled to again until it stays."""
        target = js.document.querySelector(selector)
        if not found(target):
            return
        rows = target.parentElement
        rows.setAttribute("data-revealing", "true")
        placed: float | None = None
        for _ in range(REVEAL_FRAMES):
            if not target.isConnected:
                break
            if placed is not None and abs(target.getBoundingClientRect().top - placed) < 1:
                break
            taller = target.getBoundingClientRect().height > self.main.clientHeight
            target.scrollIntoView(js_object(block="start" if taller else "center"))
            placed = target.getBoundingClientRect().top
            await repaint()
        rows.removeAttribute("data-revealing")

    def show_toast(self, message: str, *, undo: bool = False) -> None:
        self.toast.show(message, undo=undo and self.controller.store.can_undo)

    # --- event handlers -----------------------------------------------------------------------

    def _on_click(self, event: Any) -> None:
        target = closest(event, "[data-action]")
        if not found(target) or target.tagName == "FORM":
            return
        action = data(target, "action")
        if action == "open-hit":
            self.search.open(target)
            return
        event.preventDefault()
        self.forms.asking = target.closest("form")  # where an error about this click is shown
        # A button may carry one value besides its id (e.g. the study mode it switches to).
        value = data(target, "value")
        self.run(str(action), data(target, "id"), None if value is None else {"value": value})

    def _dropped(self, kind: str, item_id: str, folder_id: str) -> None:
        def drop() -> None:
            self.forms.asking = None  # no form asked: a refusal is said in a toast
            self.apply(self.controller.drop(kind, item_id, folder_id))

        needed = [self.packages]
        if self.controller.store.study.studied():  # a move reschedules (follow_moves)
            needed.append(self.study_runtime)
        if not self._waits(drop, *needed):
            drop()

    def replay_stale(self) -> None:
        """In the tab that writes: due dates stored with the fuzz before decision 045's (a
        collection from before schema 9) are replayed once, every card, in slices."""
        store = self.controller.store
        if store.schedules_stale:
            from app.ui.study_actions import stale_replayed  # noqa: PLC0415 (first use)

            self.apply(stale_replayed(store, "Due dates brought up to date"))

    def follow_moves(self, changeset: Changeset) -> None:
        """Cards follow their folder's scheduling when words or folders move, and when a move
        is undone or redone (decision 036), however the move came (a dialog, a drop, the
        Architect). The scheduler is loaded before a move from the page, so this runs within
        it; otherwise it runs once the scheduler is."""
        store = self.controller.store
        if not changes_placement(changeset.changes) or not store.study.studied():
            return

        def reschedule() -> int:
            from app.studying.reschedule import rescheduled_after_moves  # noqa: PLC0415

            return rescheduled_after_moves(store, changeset.changes)

        def later() -> None:  # the move has been drawn: its cards' due dates are drawn again
            if reschedule():
                self.apply(Update(main=True))

        if not self._waits(later, self.packages, self.study_runtime):
            reschedule()

    def _on_beforeunload(self, event: Any) -> None:
        if not self.toolbar.all_saved:
            event.preventDefault()
