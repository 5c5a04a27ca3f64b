"""The study options' "Fit to my reviews" (issue 26, decision 037): the folder's training items
go to the optimiser's worker (app/browser/fit.py) while the dialog shows what runs and offers
Cancel; then both parameter sets are compared on the learner's reviews a chunk of words at a
time, so the page keeps answering, and the dialog offers to use the fitted ones."""

from __future__ import annotations

import asyncio
import importlib
import traceback
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import js
from pyodide.ffi import JsException

from app.browser.commands import Command
from app.browser.dom import by_id, found, measured, replace_children
from app.browser.page_parts import Spawns
from app.browser.slices import sliced
from app.browser.study import local_utc_offset
from app.domain import FolderId
from app.store.transfer.steps import Progress, Steps
from app.text.nodes import h

if TYPE_CHECKING:
    from app.browser.packages import LazyPackages
    from app.text.nodes import El
    from app.ui.controller import Controller

T = TypeVar("T")
DEFERRED = ("fsrs", "app.study.scheduler", "app.studying.fitting", "app.browser.fit")
TARGET = "study-fit"  # the status region of app/ui/study_dialogs.py's fit section


class FitCancelledError(Exception):
    """Cancel was pressed during the fit."""


class FitPage(Spawns, Protocol):
    controller: Controller
    packages: LazyPackages
    study_runtime: LazyPackages
    commands: dict[str, Command]

    async def loaded(self, *needed: LazyPackages) -> bool: ...


class FitGlue:
    def __init__(self, page: FitPage) -> None:
        self.page = page
        self._abort: Any = None
        page.commands["study-fit"] = lambda item_id, _data: page.spawn(self._fit(item_id))
        page.commands["study-fit-cancel"] = self.cancel

    def cancel(self, _item_id: str | None, _data: dict[str, str] | None) -> None:
        if self._abort is not None:
            self._abort.abort()

    async def _fit(self, item_id: str | None) -> None:
        if self._abort is not None:  # one fit at a time
            return
        page = self.page
        if not await page.loaded(page.packages, page.study_runtime):
            return
        folder = FolderId(int(item_id)) if item_id and item_id.isdigit() else None
        self._abort = js.AbortController.new()
        # The fit's modules (with py-fsrs) are imported a task each: together a long task.
        for module in DEFERRED:
            with measured(f"import {module}"):
                importlib.import_module(module)
            await asyncio.sleep(0)
        try:
            await self._fitted(folder)
        except FitCancelledError:
            self._show(h("p", None, "The fit was cancelled."))
        except Exception as exc:  # the dialog must not wait for ever on a fit that broke
            traceback.print_exc()
            self._show(h("p", {"role": "alert"}, f"The fit failed: {exc!r}"))
        finally:
            self._abort = None

    async def _fitted(self, folder: FolderId | None) -> None:
        # Not part of the first screen: the options models (pydantic) and the scheduler.
        from app.browser.fit import fit  # noqa: PLC0415
        from app.studying.fitting import compared, fit_inputs  # noqa: PLC0415
        from app.ui.study_dialogs import fit_progress_view, fit_result_view  # noqa: PLC0415

        inputs = await self._stepped(fit_inputs(self.page.controller.store, folder))
        self._show(fit_progress_view(f"Fitting FSRS to {inputs.training.items:,} reviews…"))
        try:
            weights = await fit(inputs.training, self._abort.signal)
        except JsException as exc:
            if getattr(exc, "name", "") == "AbortError":
                raise FitCancelledError from exc
            self._show(h("p", None, f"The fit failed: {exc.message}"))
            return
        now = self.page.controller.store.moment(local_utc_offset())
        self._show(fit_result_view(folder, await self._stepped(compared(inputs, weights, now))))

    async def _stepped(self, steps: Steps[T]) -> T:
        """Drive `steps` in slices, showing how far they got. Raises FitCancelledError when
        Cancel is pressed meanwhile."""
        from app.ui.study_dialogs import fit_progress_view  # noqa: PLC0415 (see _fitted)

        def show(step: Progress) -> None:
            self._show(fit_progress_view(f"{step.stage}: {step.done:,} of {step.total:,} cards…"))

        found = await sliced(steps, show, lambda: bool(self._abort.signal.aborted))
        if found is None:
            raise FitCancelledError
        return found

    @staticmethod
    def _show(node: El) -> None:
        target = by_id(TARGET)
        if found(target):
            replace_children(target, node)
