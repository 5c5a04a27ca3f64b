"""How soon to listen again after listening failed at once, and when to stop trying.

A recogniser that fails the moment it starts (no service, a refusal the ladder has not learnt
yet, a provider that keeps answering 500) would otherwise be restarted as fast as the browser
allows: a real Chromium without a speech service was restarted 814 times in 40 s. Only such
quick failures count; a recogniser that listened a while and heard nothing ("no-speech" after
eight seconds) is normal and listens again at once. Quick failures wait longer each time
(`FIRST_DELAY` doubling up to `LONGEST_DELAY`), and `CAP` of them within `WINDOW` seconds
means listening does not work: the listener stops and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

QUICK_SECONDS = 2.0  # a failure this soon after listening began is the way failing, not silence
WINDOW = 60.0
CAP = 5  # quick failures within WINDOW before giving up: "a handful a minute"
FIRST_DELAY = 0.5
LONGEST_DELAY = 8.0


@dataclass(frozen=True, slots=True)
class Restarts:
    """The quick failures of the last `WINDOW` seconds, oldest first."""

    quick: tuple[float, ...] = ()

    def failed(self, began: float, at: float) -> tuple[Restarts, float | None]:
        """Listening that began at `began` failed at `at`: the record with it, and how many
        seconds to wait before listening again (None: stop trying)."""
        if at - began >= QUICK_SECONDS:
            return self, 0.0
        recent = (*(t for t in self.quick if at - t < WINDOW), at)
        if len(recent) >= CAP:
            return Restarts(recent), None
        return Restarts(recent), min(FIRST_DELAY * 2 ** (len(recent) - 1), LONGEST_DELAY)

    def heard(self) -> Restarts:
        """Something was heard: listening works, the count starts again."""
        return Restarts()
