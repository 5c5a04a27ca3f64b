"""One agent turn, the API the assistant panel calls: `run_turn(...)`.

It routes the request, builds the context, runs the tool loop and reports through `on_event`
(see events.py); destructive calls wait on the UI's `confirm`. An Architect turn runs inside one
`Store.group`, so one Undo reverts all of it, and a turn that fails part-way (provider error,
Stop) is rolled back whole: a failed turn changes nothing (decision 009). Afterwards the turn is
appended to its conversation and to the usage log, apart from undo.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.agents import memory
from app.agents.agent import AgentSpec
from app.agents.architect import ARCHITECT
from app.agents.context import View, build_context
from app.agents.dispatch import Dispatcher
from app.agents.events import EventSink, Failed, Finished, Routed, TextDelta
from app.agents.loop import Limits, LoopResult, run_loop
from app.agents.router import Override, Route, route
from app.agents.safety import Confirm, Guard
from app.agents.scholar import SCHOLAR
from app.agents.toolsets import offered
from app.domain import LexicalError
from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal, Message, ModelClient
from app.store import Changeset, Store
from app.store.conversations import ConversationId, UsageEntry
from app.tools.views import clip
from app.tools.workspace import References, Workspace
from app.voice.persona import voice_prompt

ROLLED_BACK = "What this request had changed was undone, so nothing changed."
BUSY = "Another change is still being made; try again when it has finished."
EMPTY = "Type a request or a question first."
MAX_REQUEST_CHARS = 20_000
TOO_LONG = (
    f"That request is too long for the assistant: keep it under {MAX_REQUEST_CHARS:,} "
    "characters, or paste word lists with Bulk paste"
)
INTERNAL = "Something went wrong inside Lexical; nothing was changed."
LABEL_CHARS = 60
NO_VIEW = View()
LIMITS = Limits()
DETAIL_CHARS = 200


@dataclass(frozen=True)
class TurnResult:
    agent: str
    ok: bool
    answer: str  # the answer, or the text streamed before a failure
    conversation_id: ConversationId | None
    undo_label: str | None = None  # set when the collection changed (one Undo reverts it)
    failure: Failed | None = None


def _ignore(_: object) -> None:
    pass


async def run_turn(
    store: Store,
    client: ModelClient,
    text: str,
    *,
    confirm: Confirm,
    on_event: EventSink = _ignore,
    override: Override = "auto",
    conversation_id: ConversationId | None = None,
    view: View = NO_VIEW,
    cancel: CancelSignal | None = None,
    limits: Limits = LIMITS,
    routed: Route | None = None,
    spoken: bool = False,
) -> TurnResult:
    """Answer `text` with the agent the router (or `override`) picks; `routed` is the router's
    choice when the caller already made it (to check it against read-only mode first)."""
    chosen = routed or route(text, override)
    on_event(Routed(chosen.agent, chosen.reason))
    spec = ARCHITECT if chosen.agent == "architect" else SCHOLAR
    return await run_agent(
        spec,
        store,
        client,
        text,
        confirm=confirm,
        on_event=on_event,
        conversation_id=conversation_id,
        view=view,
        cancel=cancel,
        limits=limits,
        spoken=spoken,
    )


async def run_agent(
    spec: AgentSpec,
    store: Store,
    client: ModelClient,
    text: str,
    *,
    confirm: Confirm,
    on_event: EventSink = _ignore,
    conversation_id: ConversationId | None = None,
    view: View = NO_VIEW,
    cancel: CancelSignal | None = None,
    limits: Limits = LIMITS,
    spoken: bool = False,
    kept: bool = True,
) -> TurnResult:
    """Run one turn of a given agent (`run_turn` after routing); a `spoken` request is
    answered for the ear (app/voice/persona.py). A turn not `kept` is not saved as a
    conversation (a question the app asks for the user, such as the drill's explanations);
    its use is logged all the same."""
    turn = _Turn(spec, store, client, on_event, conversation_id, text, kept)
    if not text.strip():
        return turn.fail("empty", EMPTY)
    if len(text) > MAX_REQUEST_CHARS:
        return turn.fail("too_long", f"{TOO_LONG} (it has {len(text):,} characters).")
    if store.busy:
        return turn.fail("busy", BUSY)
    history: list[Message] = []
    if conversation_id is not None:
        try:
            history, turn.refs = memory.load(store, conversation_id, limits.history_messages)
        except LexicalError as exc:
            turn.conversation_id = None
            return turn.fail("missing", exc.message)
    dispatcher = Dispatcher(
        spec.tools,
        Workspace(store, turn.refs, view.open_folder, view.selected_word, view.utc_offset_minutes),
        Guard(text),
        confirm,
        on_event,
        read_only=not spec.writes,
        result_chars=limits.max_result_chars,
    )
    system = f"{spec.prompt}\n\n{build_context(store, view, turn.refs)}"
    if spoken:
        system = voice_prompt(system)
    changes: list[Changeset] = []
    unsubscribe = store.subscribe(changes.append)
    try:
        result = await turn.atomic(
            lambda: run_loop(
                client,
                dispatcher,
                system=system,
                history=history,
                user_text=text,
                limits=limits,
                on_text=turn.on_text,
                cancel=cancel,
                offered=offered(spec.tools, text),
            )
        )
    except ProviderError as exc:
        return turn.failed_midway(exc, dispatcher)
    except LexicalError as exc:  # a read-only workspace refuses the Architect's group
        return turn.fail("read_only", exc.message)
    except Exception:
        turn.fail("internal", INTERNAL, rolled_back=spec.writes, tools=dispatcher.used)
        raise
    finally:
        unsubscribe()
    return turn.finished(result, dispatcher, undo_label=store.undo_label if changes else None)


@dataclass
class _Turn:
    spec: AgentSpec
    store: Store
    client: ModelClient
    on_event: EventSink
    conversation_id: ConversationId | None
    text: str
    kept: bool = True
    refs: References = field(default_factory=References)
    started: float = field(default_factory=time.perf_counter)
    first_token: float | None = None
    streamed: list[str] = field(default_factory=list)

    def on_text(self, chunk: str) -> None:
        if self.first_token is None:
            self.first_token = time.perf_counter()
        self.streamed.append(chunk)
        self.on_event(TextDelta(chunk))

    async def atomic(self, work: Callable[[], Awaitable[LoopResult]]) -> LoopResult:
        if not self.spec.writes:
            return await work()
        label = f"{self.spec.title}: {clip(' '.join(self.text.split()), LABEL_CHARS)}"
        with self.store.group(label):
            return await work()

    def finished(
        self, result: LoopResult, dispatcher: Dispatcher, undo_label: str | None
    ) -> TurnResult:
        answer = result.answer.strip() or _summary(dispatcher)
        messages = list(result.messages)
        if not result.answer.strip():
            messages[-1] = Message(role="assistant", text=answer)
        self._save(messages, dispatcher, "ok")
        self._log("ok", "", dispatcher.used)
        self.on_event(
            Finished(self.spec.name, answer, self.conversation_id, undo_label, result.limited)
        )
        return TurnResult(self.spec.name, True, answer, self.conversation_id, undo_label)

    def failed_midway(self, exc: ProviderError, dispatcher: Dispatcher) -> TurnResult:
        wrote = self.spec.writes and any(s.status == "done" for s in dispatcher.steps)
        message = f"{exc.message} {ROLLED_BACK}" if wrote else exc.message
        partial = "".join(self.streamed)
        status = "stopped" if exc.kind == "stopped" else "failed"
        turn = [Message(role="user", text=self.text), Message(role="assistant", text=partial)]
        self._save(turn, None, status)
        return self.fail(exc.kind, message, rolled_back=wrote, tools=dispatcher.used)

    def fail(
        self,
        kind: str,
        message: str,
        *,
        rolled_back: bool = False,
        tools: list[str] | None = None,
    ) -> TurnResult:
        partial = "".join(self.streamed)
        self._log(kind, message, tools or [])
        failure = Failed(self.spec.name, kind, message, partial, self.conversation_id, rolled_back)
        self.on_event(failure)
        return TurnResult(self.spec.name, False, partial, self.conversation_id, None, failure)

    def _save(self, messages: list[Message], dispatcher: Dispatcher | None, status: str) -> None:
        if not self.kept:
            return
        steps = [] if dispatcher is None else dispatcher.steps
        with contextlib.suppress(LexicalError):  # a read-only tab cannot keep the conversation
            self.conversation_id = memory.save_turn(
                self.store,
                conversation_id=self.conversation_id,
                agent=self.spec.name,
                messages=messages,
                steps=steps,
                refs=self.refs,
                status=status,
            )

    def _log(self, outcome: str, detail: str, tools: list[str]) -> None:
        now = time.perf_counter()
        first = (
            None if self.first_token is None else round((self.first_token - self.started) * 1000)
        )
        entry = UsageEntry(
            conversation_id=self.conversation_id,
            provider=self.client.provider,
            model=self.client.model,
            agent=self.spec.name,
            tools=sorted(set(tools)),
            first_token_ms=first,
            total_ms=round((now - self.started) * 1000),
            outcome=outcome,
            detail=clip(detail, DETAIL_CHARS),
        )
        with contextlib.suppress(LexicalError):
            self.store.conversations.log_usage(entry)


def _summary(dispatcher: Dispatcher) -> str:
    """An answer made of the step lines, for a model that ended without a word after using
    tools (without them, an empty reply fails: app/agents/loop.py)."""
    return "Done:\n" + "\n".join(f"- {s.text}" for s in dispatcher.steps)
