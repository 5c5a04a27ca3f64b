"""Typed provider failures, each with a plain sentence for the user and a next step.

Clients map HTTP status and provider error bodies onto `ErrorKind`; the retry policy and the UI
decide from the kind alone, never from provider-specific text.
"""

from __future__ import annotations

from typing import Literal

ErrorKind = Literal[
    "bad_key",  # Gemini 400 API_KEY_INVALID, OpenAI 401
    "permission",  # 403
    "quota",  # quota exhausted (per-day or billing): retrying will not help
    "rate_limited",  # 429 that clears with time; `retry_after_s` when the provider says
    "server",  # 5xx
    "timeout",
    "offline",  # no network / connection refused / CORS failure
    "stream_cut",  # the answer stopped mid-way; `partial` keeps what arrived
    "bad_request",  # 400 other than a bad key, unknown model, ...
    "bad_response",  # the provider answered something we cannot parse
    "stopped",  # the user pressed Stop
    "daily_cap",  # the user's own per-day request cap (Settings) is reached
]

RETRYABLE: frozenset[ErrorKind] = frozenset({"rate_limited", "server", "timeout"})


class ProviderError(Exception):
    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status: int | None = None,
        retry_after_s: float | None = None,
        partial: str = "",
    ) -> None:
        # Sentences often open with a provider label such as "the server at localhost:11434".
        message = message[:1].upper() + message[1:]
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.message = message
        self.status = status
        self.retry_after_s = retry_after_s
        self.partial = partial

    @property
    def retryable(self) -> bool:
        return self.kind in RETRYABLE
