"""What the page has learnt of the browser's speech engine from the utterances it ended, so a
speech engine that does not work here is given up on for the page and later sentences go
straight to the provider (or to text) instead of each failing or hanging again.

An engine that fails ("synthesis-failed", "synthesis-unavailable", or no `start` or `end` in
time: `GAVE_UP`) before it has said anything on this page does not work here. Once it has
spoken, a single failure is taken as a glitch (Chrome can drop an utterance given right after
`cancel()`), and `BROKEN_AFTER` in a row as broken. Failures of one voice or of the sound
output say nothing about the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

GAVE_UP = "lexical-gave-up"  # the code of an utterance that did not start or end in time
ENGINE_FAILURES = frozenset({"synthesis-failed", "synthesis-unavailable", GAVE_UP})
BROKEN_AFTER = 2


@dataclass(frozen=True, slots=True)
class Engine:
    worked: bool = False  # an utterance was said to its end on this page
    failures: int = 0  # engine failures since the last utterance said

    @property
    def broken(self) -> bool:
        return self.failures >= (BROKEN_AFTER if self.worked else 1)

    def after(self, code: str) -> Engine:
        """The engine once an utterance ended with `code` ("" when said to its end)."""
        if not code:
            return Engine(worked=True)
        if code in ENGINE_FAILURES:
            return replace(self, failures=self.failures + 1)
        return self
