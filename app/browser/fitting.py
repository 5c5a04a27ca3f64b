"""The study options' "Fit to my reviews" (issue 26, decision 037): the folder's training items
go to the optimiser's worker (app/browser/fit.py) while the dialog shows what runs and offers
Cancel; then both parameter sets are compared on the learner's reviews a chunk of words at a
time, so the page keeps answering, and the dialog offers to use the fitted ones."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

import js
from pyodide.ffi import JsException

from app.browser.commands import Command
from app.browser.dom import by_id, found, replace_children
from app.browser.page_parts import Spawns
from app.domain import FolderId
from app.text.nodes import h

if TYPE_CHECKING:
    from app.browser.packages import LazyPackages
    from app.text.nodes import El
    from app.ui.controller import Controller

TARGET = "study-fit"  # the status region of app/ui/study_dialogs.py's fit section


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
        # Not part of the first screen: the options models (pydantic) and the scheduler.
        from app.browser.fit import fit  # noqa: PLC0415
        from app.studying.fitting import compared, fit_inputs  # noqa: PLC0415
        from app.ui.study_dialogs import fit_progress_view, fit_result_view  # noqa: PLC0415

        folder = FolderId(int(item_id)) if item_id and item_id.isdigit() else None
        inputs = fit_inputs(page.controller.store, folder)
        self._show(fit_progress_view(f"Fitting FSRS to {inputs.training.items:,} reviews…"))
        self._abort = js.AbortController.new()
        try:
            weights = await fit(inputs.training, self._abort.signal)
        except JsException as exc:
            cancelled = getattr(exc, "name", "") == "AbortError"
            said = "The fit was cancelled." if cancelled else f"The fit failed: {exc.message}"
            self._show(h("p", None, said))
            return
        finally:
            self._abort = None
        steps = compared(inputs, weights)
        while True:
            try:
                step = next(steps)
            except StopIteration as stop:
                self._show(fit_result_view(folder, stop.value))
                return
            self._show(h("p", None, f"{step.stage}: {step.done:,} of {step.total:,} words…"))
            await asyncio.sleep(0)

    @staticmethod
    def _show(node: El) -> None:
        target = by_id(TARGET)
        if found(target):
            replace_children(target, node)
