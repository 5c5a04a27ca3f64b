"""Running the tool calls of one model turn: validate, confirm, execute, report.

For each call: an unknown name or bad arguments become an error result (bad arguments get one
repair try: the first failure says what to fix, the second tells the model to stop calling that
tool this turn); destructive calls are planned, and those the safety rule flags are put to the
user in one dialog per model turn; then calls run in order. A read-only dispatcher (the
Scholar's) runs every tool while SQLite refuses writes. Every call produces a result for the
model and a step line for the UI.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.agents import results
from app.agents.events import EventSink, Navigate, StepDone, StepStatus
from app.agents.safety import Confirm, Confirmation, Guard
from app.domain import LexicalError
from app.llm.messages import ToolCall, ToolResult
from app.tools.registry import AnyTool, BadArguments, Link, Plan, Registry
from app.tools.resolve import Ambiguous
from app.tools.workspace import Workspace

REPAIR_TRIES = 1  # bad arguments: the model may fix them this many times per tool and turn
T = TypeVar("T")
Content = dict[str, Any]


@dataclass
class _Call:
    call: ToolCall
    tool: AnyTool | None = None
    params: Any = None
    result: Content | None = None  # decided before running (unknown, invalid, declined)
    plan: Plan | None = None


@dataclass
class Dispatcher:
    tools: Registry
    ws: Workspace
    guard: Guard
    confirm: Confirm
    on_event: EventSink
    read_only: bool = False
    result_chars: int = 8_000
    used: list[str] = field(default_factory=list)
    steps: list[StepDone] = field(default_factory=list)
    _bad: Counter[str] = field(default_factory=Counter)
    _approved: set[tuple[str, str]] = field(default_factory=set)

    async def run(self, calls: Sequence[ToolCall]) -> list[ToolResult]:
        prepared = [self._prepare(c) for c in calls]
        planned = [p for p in prepared if p.plan is not None]
        flags = self.guard.asking([p.plan for p in planned if p.plan is not None])
        waiting = [p for p, ask in zip(planned, flags, strict=True) if ask]
        if waiting:
            await self._ask(waiting)
        return [
            ToolResult(call_id=p.call.id, name=p.call.name, content=await self._finish(p))
            for p in prepared
        ]

    def _prepare(self, call: ToolCall) -> _Call:
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(self.tools.names)
            return _Call(
                call, result=results.failed(f"There is no tool {call.name!r}. Tools: {known}.")
            )
        if self._bad[call.name] > REPAIR_TRIES:
            return _Call(call, tool, result=results.failed(f"Do not call {call.name} again now."))
        try:
            prepared = _Call(call, tool, tool.parse(call.arguments))
        except BadArguments as exc:
            return _Call(call, tool, result=self._bad_arguments(exc))
        # Planned now for one dialog; an item made earlier in this turn is planned when it runs.
        with contextlib.suppress(LexicalError):
            prepared.plan = self._plan(prepared)
        return prepared

    def _bad_arguments(self, exc: BadArguments) -> Content:
        self._bad[exc.tool] += 1
        if self._bad[exc.tool] <= REPAIR_TRIES:
            return results.failed(
                f"Invalid arguments: {exc.problems}. Fix them and call {exc.tool} again."
            )
        self._step(exc.tool, f"Could not use {exc.tool}: {exc.problems}", "failed")
        return results.failed(
            f"Invalid arguments again: {exc.problems}. Do not call {exc.tool} again in this "
            "turn; tell the user what went wrong."
        )

    async def _ask(self, waiting: list[_Call]) -> None:
        plans = [p.plan for p in waiting if p.plan is not None]
        yes = await self.confirm(Confirmation.of(plans))
        for p, plan in zip(waiting, plans, strict=True):
            if yes:
                self._approved.add((p.call.id, plan.change))
            else:
                p.result = self._declined(p.call.name, plan.change)

    def _declined(self, tool: str, change: str) -> Content:
        self._step(tool, f"You declined: {change}", "declined")
        return results.declined(change)

    async def _finish(self, p: _Call) -> Content:
        if p.result is not None:
            return p.result
        tool = p.tool
        assert tool is not None
        self.used.append(tool.name)
        try:
            plan = self._plan(p)  # again: earlier calls of this turn may have changed things
            if plan is not None and not await self._allowed(p.call, plan):
                return self._declined(tool.name, plan.change)
            outcome = self._in_scope(lambda: tool.invoke(self.ws, p.params))
        except Ambiguous as exc:
            asked = f"Asked which one: {exc.message}"
            self._step(tool.name, asked, "failed", choices=tuple(exc.candidates))
            return results.ambiguous(exc)
        except LexicalError as exc:
            self._step(tool.name, f"Could not do {tool.name}: {exc.message}", "failed")
            return results.failed(exc.message)
        except sqlite3.OperationalError:
            if not self.read_only:
                raise
            self._step(tool.name, f"Refused: {tool.name} tried to change the collection", "failed")
            return results.failed("This assistant cannot change the collection.")
        if plan is not None:
            self.guard.record(plan)
        self._step(tool.name, outcome.step, "read" if tool.kind == "read" else "done", outcome.link)
        if outcome.navigate and outcome.link is not None:
            self.on_event(Navigate(outcome.link))
        return results.bounded(results.done(outcome), self.result_chars)

    async def _allowed(self, call: ToolCall, plan: Plan) -> bool:
        if not self.guard.needs_yes(plan) or (call.id, plan.change) in self._approved:
            return True
        return await self.confirm(Confirmation.of([plan]))

    def _plan(self, p: _Call) -> Plan | None:
        planner = None if p.tool is None else p.tool.plan
        return None if planner is None else self._in_scope(lambda: planner(self.ws, p.params))

    def _in_scope(self, action: Callable[[], T]) -> T:
        scope: AbstractContextManager[None] = (
            self.ws.store.query_only() if self.read_only else nullcontext()
        )
        with scope:
            return action()

    def _step(
        self,
        tool: str,
        text: str,
        status: StepStatus,
        link: Link | None = None,
        choices: tuple[str, ...] = (),
    ) -> None:
        step = StepDone(tool=tool, text=text, status=status, link=link, choices=choices)
        self.steps.append(step)
        self.on_event(step)
