"""What provider speech requests share: the daily cap, retries, timing and the usage log.

Transcription (`transcribe`) and synthesis (`synthesize`) are single requests, not model
turns, so they do not go through `make_client`; they still count against the user's daily
cap, in the same counter as chat when the caller passes it, and every one (failed or not)
is reported as an `AudioUsage` for the usage log. The log has no kind column: the kind goes
in the entry's `agent` field ("transcription" or "speech"), which otherwise names the agent
that made the request, so voice requests show up beside agent turns without a migration.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar

from app.llm.errors import ProviderError
from app.llm.messages import CancelSignal
from app.llm.retry import Sleep, with_retries
from app.llm.settings import ProviderSettings
from app.llm.spending import CounterStore, MemoryCounter, SpendingGuard
from app.llm.transport import Transport
from app.llm.wire import Wire

T = TypeVar("T")
AudioKind = Literal["transcription", "speech"]
# A BCP 47 tag as browsers give it ("es", "es-ES", "zh-Hant-TW"); anything else is not sent.
_LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")


@dataclass(frozen=True)
class AudioUsage:
    kind: AudioKind
    provider: str
    model: str
    total_ms: int
    outcome: str  # "ok" or an error kind
    detail: str = ""

    def entry_fields(self) -> dict[str, object]:
        """The fields of `app.store.conversations.UsageEntry` for this request."""
        return {
            "conversation_id": None,
            "provider": self.provider,
            "model": self.model,
            "agent": self.kind,
            "tools": [],
            "first_token_ms": None,
            "total_ms": self.total_ms,
            "outcome": self.outcome,
            "detail": self.detail,
        }


UsageSink = Callable[[AudioUsage], None]


@dataclass(frozen=True)
class AudioOptions:
    """How a speech request runs. Pass the chat client's `counter` so both share one cap."""

    counter: CounterStore | None = None
    on_usage: UsageSink | None = None
    cancel: CancelSignal | None = None
    sleep: Sleep = asyncio.sleep
    clock: Callable[[], float] = time.perf_counter


def language_tag(lang: str) -> str:
    """`lang` when it is a well-formed language tag, else "" (it is then left out)."""
    lang = lang.strip()
    return lang if _LANGUAGE_TAG.match(lang) else ""


def terms_hint(terms: Iterable[str], limit: int) -> str:
    """The open folder's terms as one comma-separated line of at most `limit` characters,
    each once, whole terms only: a hint for recognising them, not a list to read out."""
    chosen: list[str] = []
    seen: set[str] = set()
    length = 0
    for given in terms:
        term = " ".join(given.replace(",", " ").split())
        if not term or term.casefold() in seen:
            continue
        added = len(term) + (2 if chosen else 0)
        if length + added > limit:
            break
        chosen.append(term)
        seen.add(term.casefold())
        length += added
    return ", ".join(chosen)


def wire(settings: ProviderSettings, transport: Transport, model: str) -> Wire:
    return Wire(
        transport,
        settings.label,
        model,
        secret=settings.api_key.get_secret_value().strip(),
        timeout_s=settings.timeout_s,
    )


async def counted(
    settings: ProviderSettings,
    kind: AudioKind,
    model: str,
    options: AudioOptions,
    call: Callable[[], Awaitable[T]],
) -> T:
    """Run `call` under the daily cap with the chat client's retries (each try counts), and
    report how it went to `options.on_usage`."""
    guard = SpendingGuard(
        daily_requests=settings.daily_request_cap,
        max_output_tokens=settings.max_output_tokens,
        store=options.counter if options.counter is not None else MemoryCounter(),
    )

    async def once() -> T:
        guard.admit()
        return await call()

    started = options.clock()
    outcome, detail = "stopped", ""  # unless it ends otherwise: the task was cancelled
    try:
        result = await with_retries(once, sleep=options.sleep, cancel=options.cancel)
        outcome = "ok"
        return result
    except ProviderError as error:
        outcome, detail = error.kind, error.message
        raise
    finally:
        if options.on_usage is not None:
            elapsed = round((options.clock() - started) * 1000)
            options.on_usage(AudioUsage(kind, settings.provider, model, elapsed, outcome, detail))
