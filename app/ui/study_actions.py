"""What the study actions do: start, answer, grade, undo, switch mode and end a session, and
edit study options. The session engine (and py-fsrs under it), its view and the options dialog
are imported on first use, so the first screen never pays for them; the browser loads the
scheduler's wheel before the first call.

While a session's mode is hands-free, a `Drill` (app/drill/machine.py) runs over it: kept here
so every redraw shows it, driven by the browser (app/browser/drill.py), which also hears Undo.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from app.domain import FolderId, InvalidInput, LexicalError
from app.store import Store
from app.store.transfer.steps import Steps
from app.study.model import MODES, Mode, Rating
from app.text.nodes import El
from app.ui.routes import Route
from app.ui.update import Update, changed

if TYPE_CHECKING:
    from app.drill.commands import Command
    from app.drill.machine import Drill
    from app.drill.where import Listening
    from app.study.options import StudyOptions
    from app.studying.session import StudySession

Data = Mapping[str, str]
Handler = Callable[[int | None, Data], Update]
STUDY_SCREEN = Route(view="study").to_hash()
SEARCH_SCOPE_MAX = 500  # words a "study these results" session may name


def _mode(value: str | None) -> Mode:
    for mode in MODES:
        if mode == value:
            return mode
    raise InvalidInput("Choose flashcards, typing, choice, listening, speaking or hands-free.")


class StudyActions:
    def __init__(
        self,
        store: Callable[[], Store],
        clock: Callable[[], int],
        utc_offset: Callable[[], int],
    ) -> None:
        self._store = store
        self._clock = clock
        self._utc_offset = utc_offset
        self.session: StudySession | None = None
        self.last_mode: Mode = "flashcard"
        self.drill_lang = "en"  # the language the drill talks and listens for commands in
        # Who obeys a command for a running drill (the browser's adapter): Ctrl+Z and the
        # toolbar's Undo reach the drill through it.
        self.drill_command: Callable[[Command], None] | None = None
        # How the drill can listen here (the browser says; None until it has).
        self.drill_listening: Listening | None = None
        self.resumed = False  # the open session was picked up after a reload
        self._drill: Drill | None = None

    def actions(self) -> dict[str, Handler]:
        return {
            "study": self._start,
            "study-reveal": lambda _i, _d: self._step(lambda s: s.reveal()),
            "study-answer": lambda _i, d: self._step(lambda s: s.answer(d.get("text", ""))),
            "study-choose": lambda i, _d: self._step(
                lambda s: s.choose(i if i is not None else -1)
            ),
            # The recogniser's hearings of one answer, best first, a line each.
            "study-spoken": lambda _i, d: self._step(
                lambda s: s.answer_spoken(d.get("heard", "").splitlines())
            ),
            "study-confirm": lambda _i, d: self._step(
                lambda s: s.confirm_spoken(said_it=d.get("value") == "yes")
            ),
            "study-show-prompt": lambda _i, _d: self._step(lambda s: s.show_prompt()),
            "study-grade": self._grade,
            "study-undo": self._undo,
            "study-mode": lambda _i, d: self._step(lambda s: s.set_mode(_mode(d.get("value")))),
            "study-end": self._end,
            "study-options": self._options,
            "save-study-options": self._save_options,
            "study-options-inherit": self._inherit_options,
            "study-use-parameters": self._use_parameters,
        }

    # --- the screen ---------------------------------------------------------------------------

    def resume(self) -> bool:
        """Pick up the session a reload interrupted; False when none is open. A tab that
        took over writing has a new store: the session is read again from it."""
        if self.session is not None and self.session.store is not self._store():
            self.session = None
        if self.session is None:
            from app.studying.session import StudySession  # noqa: PLC0415 (loads py-fsrs)

            self.session = StudySession.resume(self._store(), self._clock, self._utc_offset)
            self.resumed = True
        return self.session is not None

    @property
    def drill(self) -> Drill | None:
        """The hands-free drill over the open session, while its mode is hands-free."""
        session = self.session
        if session is None or session.mode != "hands-free":
            self._drill = None
            return None
        if self._drill is None or self._drill.session is not session:
            from app.drill.machine import Drill  # noqa: PLC0415 (with the engine, see above)

            self._drill = Drill(session, self.drill_lang)
        return self._drill

    def render(self) -> El:
        from app.ui.study_view import render_study  # noqa: PLC0415 (with the engine, see above)

        if not self.resume() or self.session is None:
            raise LexicalError("No study session is open.")
        return render_study(self.session, self.title(), self._drill_screen())

    def set_drill_aside(self) -> None:
        """The page stopped the drill (the screen left, Escape, the tab closing): the next
        drill over the session begins with Resume."""
        self._drill = None
        self.resumed = True

    def _drill_screen(self) -> El | None:
        drill, session = self.drill, self.session
        if drill is None or session is None:
            return None
        from app.ui.drill_view import render_drill  # noqa: PLC0415

        turn = session.turn
        forward = turn is not None and turn.card.direction == "forward"
        return render_drill(
            drill.view(),
            prompt_lang=(turn.card.lang or None) if forward and turn else None,
            resumed=self.resumed,
            listening=self.drill_listening,
            summary=session.summary,
            excluded=session.excluded,
        )

    def title(self) -> str:
        session = self.session
        if session is None:
            return ""
        scope = session.row.scope
        if scope.get("kind") == "folder":
            try:
                return self._store().folder(FolderId(int(scope.get("folder", 0)))).name
            except LexicalError:
                return "a folder that is gone"
        label = scope.get("label")
        return str(label) if label else "your whole collection"

    def back(self) -> str:
        """Where ending the session goes: the folder it studied, else home."""
        scope = self.session.row.scope if self.session else {}
        folder = scope.get("folder")
        return Route(int(folder)).to_hash() if isinstance(folder, int) else Route().to_hash()

    # --- actions ------------------------------------------------------------------------------

    def _start(self, folder_id: int | None, data: Data) -> Update:
        from app.studying.session import StudySession  # noqa: PLC0415 (loads py-fsrs)

        scope: dict[str, Any]
        if data.get("query"):
            query = data["query"][:200]
            hits = self._store().search(query, limit=SEARCH_SCOPE_MAX)
            ids = [hit.id for hit in hits if hit.kind == "word"]
            if not ids:
                raise LexicalError(f"No words match “{query}”, so there is nothing to study.")
            scope = {"kind": "words", "words": ids, "label": f"the words matching “{query}”"}
        elif folder_id is not None:
            self._store().folder(FolderId(folder_id))  # a clear error when it has gone
            scope = {"kind": "folder", "folder": folder_id}
        else:
            scope = {"kind": "all"}
        # A button's own value (the Hands-free button) or a form's field picks the mode.
        chosen = data.get("mode") or data.get("value")
        mode = _mode(chosen) if chosen else self.last_mode
        self.session = StudySession.start(self._store(), scope, mode, self._clock, self._utc_offset)
        self.resumed = False
        return Update(navigate=STUDY_SCREEN, focus="#study-title", tree=True)

    def _step(self, event: Callable[[StudySession], object]) -> Update:
        session = self._open()
        event(session)
        self.last_mode = session.mode
        return Update(main=True, focus=self._focus(session))

    def _grade(self, rating: int | None, _data: Data) -> Update:
        session = self._open()
        session.grade(Rating(rating) if rating in (1, 2, 3, 4) else None)
        # The sidebar's counts follow a moment later (the browser defers that redraw), so
        # the next card is painted first.
        return Update(main=True, focus=self._focus(session), counts=True)

    def _undo(self, _item: int | None, _data: Data) -> Update:
        session = self._open()
        drill = self.drill
        if drill is not None and self.drill_command is not None and drill.state.phase != "ready":
            from app.drill.commands import Command  # noqa: PLC0415

            self.drill_command(Command.UNDO)  # the drill says what it undid
            return Update()
        if not session.undo():
            return Update(toast="No grade to undo in this session.")
        term = session.turn.card.term if session.turn else ""
        return Update(
            main=True, toast=f"Undid the grade of {term}.", focus=self._focus(session), counts=True
        )

    def _end(self, _item: int | None, _data: Data) -> Update:
        session = self.session
        part_way = session is not None and session.turn is not None
        if session is not None and session.summary is None and session.row.finished_at is None:
            session.finish()
        if part_way and session is not None and session.summary and session.summary.cards:
            # Ended part-way: what was studied first (its Done comes back here and leaves).
            return Update(tree=True, main=True, focus="#summary-title")
        back = self.back()
        self.session = None
        return Update(tree=True, main=True, navigate=back)

    def _open(self) -> StudySession:
        if not self.resume():
            raise LexicalError("This study session has ended. Start another from a folder.")
        assert self.session is not None
        return self.session

    @staticmethod
    def _focus(session: StudySession) -> str:
        turn = session.turn
        if turn is None:
            return "#summary-title"
        if session.phase.value == "answered":
            return ".grades .grade.primary"
        if session.phase.value == "confirming":
            return "#study-yes"
        return {
            "typing": "#study-typed",
            "listening": "#study-typed",
            "speaking": "#study-say",
            "choice": ".study-choices button",
        }.get(turn.mode, "#study-show")

    # --- options ------------------------------------------------------------------------------

    def _options(self, folder_id: int | None, _data: Data) -> Update:
        from app.ui import study_dialogs  # noqa: PLC0415 (not part of the first screen)

        store = self._store()
        fid = FolderId(folder_id) if folder_id is not None else None
        options, own = store.study.options_for(fid)
        name = store.folder(fid).name if fid is not None else None
        dialog = study_dialogs.options_dialog(
            fid,
            name,
            options,
            own=own,
            day_start_hour=store.study.day_start_hour(),
            fit_items=store.study.training_items(fid),
        )
        return Update(dialog=dialog, focus="#study-retention")

    def _inherit_options(self, folder_id: int | None, _data: Data) -> Update:
        if folder_id is None:
            raise InvalidInput("The whole collection has no parent to take options from.")
        fid = FolderId(folder_id)
        before = self._store().study.options_for(fid)[0]
        self._store().study.set_options(fid, None)
        return self._rescheduled(fid, before, "This folder now uses its parent's study options")

    def _use_parameters(self, folder_id: int | None, data: Data) -> Update:
        """Put fitted parameters to use (or, with none given, FSRS's defaults)."""
        from app.studying.fitting import using_parameters  # noqa: PLC0415 (the scheduler)

        text = data.get("parameters", "").strip()
        try:
            weights = tuple(float(v) for v in text.split(",")) if text else None
        except ValueError as exc:
            raise InvalidInput("These parameters are not numbers; fit them again.") from exc
        fid = FolderId(folder_id) if folder_id is not None else None
        try:
            work = using_parameters(self._store(), fid, weights)
        except ValueError as exc:  # pydantic's ValidationError is one
            raise InvalidInput("These parameters are out of range; fit them again.") from exc
        which = "your own parameters" if weights else "FSRS's default parameters"
        return rescheduled(work, f"Now scheduling with {which}", close_dialog=True)

    def _rescheduled(self, folder_id: FolderId | None, before: StudyOptions, said: str) -> Update:
        """The update after the folder's options changed from `before`: its cards are
        rescheduled from their logs (decision 036) if the options now schedule otherwise,
        and the toast says `said` and how many changed."""
        from app.studying.reschedule import rescheduling, schedules_differ  # noqa: PLC0415

        store = self._store()
        if not schedules_differ(before, store.study.options_for(folder_id)[0]):
            return changed(close_dialog=True, toast=f"{said}.")
        return rescheduled(rescheduling(store, folder_id), said, close_dialog=True)

    def _save_options(self, folder_id: int | None, data: Data) -> Update:
        # Validated with pydantic, which loads after the first screen (decision 025).
        from pydantic import ValidationError  # noqa: PLC0415

        from app.study.options import StudyOptions  # noqa: PLC0415

        store = self._store()
        fid = FolderId(folder_id) if folder_id is not None else None
        current, _ = store.study.options_for(fid)
        try:
            options = StudyOptions(
                retention=float(data.get("retention", "0.9")),
                new_per_day=int(data.get("new_per_day", "20")),
                reviews_per_day=int(data.get("reviews_per_day", "9999")),
                directions=data.get("directions", "forward"),
                accents_optional=data.get("accents_optional") == "on",
                articles_optional=data.get("articles_optional") == "on",
                parameters=current.parameters,  # not on the form: kept as fitted
            )
        except ValueError as exc:
            if isinstance(exc, ValidationError):
                from app.ui.study_dialogs import options_message  # noqa: PLC0415

                raise InvalidInput(options_message(exc)) from exc
            raise InvalidInput("Enter numbers in the number fields.") from exc
        store.study.set_options(fid, options)
        if fid is None and data.get("day_start_hour", "").isdigit():
            store.study.set_day_start_hour(int(data["day_start_hour"]))
        return self._rescheduled(fid, current, "Saved the study options")


def rescheduled(work: Steps[int], said: str, end: str = ".", **update: Any) -> Update:
    """An update that shows the change at once, then reschedules cards with `work` (in the
    page's slices: Update.then) and says `said`, how many cards changed, and `end`."""

    def then() -> Steps[Update]:
        count = yield from work
        cards = "" if not count else ", 1 card" if count == 1 else f", {count:,} cards"
        return changed(toast=f"{said}{cards and cards + ' rescheduled'}{end}")

    return changed(then=then(), **update)


def stale_replayed(store: Store, said: str, **update: Any) -> Update:
    """`rescheduled` with every card replayed once (`Store.schedules_stale`: due dates of the
    fuzz before decision 045), after a start from an older collection or an older file
    imported. The page loads the scheduler before it drives the work."""

    def work() -> Steps[int]:
        from app.studying.reschedule import rescheduling_stale  # noqa: PLC0415 (py-fsrs)

        return (yield from rescheduling_stale(store))

    return rescheduled(work(), said, **update)
