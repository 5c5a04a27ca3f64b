"""How long a voice turn took, from the marks the page gives it, as a usage log entry.

Pure: the browser layer calls one method per moment it sees, with the time in seconds on the
page clock, and logs `entry()` once the turn has finished. Any mark may be missing (a typed
turn has no speech marks, a failed one no first audio), arrive out of order or more than once
(the first one counts); a timing that cannot be known is None rather than a wrong number.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

from app.store.conversations import VOICE_TURN, UsageEntry

Mark = Literal[
    "speech_ended", "transcript_final", "request_sent", "first_token", "first_audio", "finished"
]
MARKS: tuple[Mark, ...] = get_args(Mark)


def _ms(start: float | None, end: float | None, if_early: int | None = None) -> int | None:
    """Milliseconds from `start` to `end`; None when either is unknown, and `if_early` when
    `end` comes first (by default None too: an answer cannot precede its request, so the marks
    are wrong, and a made-up figure would skew the medians)."""
    if start is None or end is None:
        return None
    elapsed = (end - start) * 1000
    if not math.isfinite(elapsed):
        return None
    return round(elapsed) if elapsed >= 0 else if_early


class VoiceTurnClock:
    """The moments of one turn, spoken or typed; one instance per turn."""

    def __init__(self) -> None:
        self._at: dict[Mark, float] = {}
        self._outcome = "ok"

    def speech_ended(self, at: float) -> None:
        self._mark("speech_ended", at)

    def transcript_final(self, at: float) -> None:
        self._mark("transcript_final", at)

    def request_sent(self, at: float) -> None:
        self._mark("request_sent", at)

    def first_token(self, at: float) -> None:
        self._mark("first_token", at)

    def first_audio(self, at: float) -> None:
        self._mark("first_audio", at)

    def finished(self, at: float, outcome: str = "ok") -> None:
        """The turn is over: `outcome` is "ok" or the failure kind (a provider `ErrorKind`, a
        recognition error code, ...)."""
        if self._mark("finished", at):
            self._outcome = outcome

    def _mark(self, mark: Mark, at: float) -> bool:
        if mark in self._at or not math.isfinite(at):
            return False
        self._at[mark] = at
        return True

    def entry(
        self, *, provider: str = "", model: str = "", conversation_id: int | None = None
    ) -> UsageEntry | None:
        """What the usage log keeps of this turn, or None while it has not finished.

        Speech-to-text runs from the end of speech to the final transcript; first token and
        first audio from sending the request; the total from the end of speech (typed: from
        sending) to the end of the turn, 0 when nothing came before the end.
        """
        at = self._at.get
        if at("finished") is None:
            return None
        starts = [t for t in (at("speech_ended"), at("request_sent")) if t is not None]
        return UsageEntry(
            conversation_id=conversation_id,
            provider=provider,
            model=model,
            agent=VOICE_TURN,
            tools=[],
            # Web Speech often gives the final result just before its speechend event: the
            # transcript was ready when speech ended, so nobody waited for it.
            speech_to_text_ms=_ms(at("speech_ended"), at("transcript_final"), if_early=0),
            first_token_ms=_ms(at("request_sent"), at("first_token")),
            first_audio_ms=_ms(at("request_sent"), at("first_audio")),
            total_ms=_ms(min(starts, default=None), at("finished")) or 0,
            outcome=self._outcome,
        )
