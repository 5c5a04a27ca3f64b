"""Where the hands-free drill listens, in the sentences its screen shows.

On the rung app.voice.ladder chooses, like every other listener: the browser's recogniser on
this device or its online service, or the user's provider, which is sent only the learner's
utterances (a voice activity detector in the page hears when they start and stop speaking;
decision 030). When no rung can listen the screen says why (the ladder's sentence) and offers
the other study modes; offline, the drill goes on where its rung needs no network and the
screen says what waits for it (the Scholar's explanations and mnemonics).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.voice.ladder import Path, Rung

UTTERANCES_ONLY = (
    "Only what you say is recorded: the page hears when you start and stop speaking, and "
    "sends each answer on its own."
)
ANOTHER_MODE = "Or study in another mode."
OFFLINE = (
    "You are offline. Listening and speaking work here, so the drill goes on; the Scholar's "
    "explanations and mnemonics need the network until you are back."
)


@dataclass(frozen=True, slots=True)
class Listening:
    """How the drill can listen: the way, where the audio goes (or why it cannot listen), and
    what waits for the network while offline."""

    path: Path
    sentence: str
    offline: str = ""

    @property
    def can(self) -> bool:
        return self.path != "typing"


def hands_free(rung: Rung, *, online: bool) -> Listening:
    """The drill on `rung` (app.voice.ladder.choose for the language it listens in)."""
    if rung.path == "typing":
        return Listening("typing", f"{rung.sentence} {ANOTHER_MODE}")
    sentence = rung.sentence
    if rung.path == "provider":
        sentence = f"{sentence} {UTTERANCES_ONLY}"
    return Listening(rung.path, sentence, "" if online else OFFLINE)
