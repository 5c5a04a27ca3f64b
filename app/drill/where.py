"""Where the hands-free drill listens, in the sentences its screen shows.

It listens all the time, so only the browser's recogniser will do (a provider would be sent
every sound): on this device when it can, else the browser's online service. When neither
works the screen says why and offers the other study modes; offline on this device, the drill
goes on and the screen says what waits for the network (app/voice/ladder.py chooses).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.voice.ladder import Means, OnDevice, Path, choose

CANNOT_UNSUPPORTED = (
    "Hands-free needs speech recognition in the browser, and this one has none (Chrome, Edge "
    "and Safari have it). Study in another mode instead."
)
CANNOT_ONLY = (
    "Hands-free listens all the time, and with “On this device only” on it needs speech "
    "recognition on this device, which is not ready for your language. Download it in Voice "
    "settings if offered, turn that setting off, or study in another mode."
)
CANNOT_OFFLINE = (
    "You are offline, and hands-free needs the network for your browser's speech service "
    "(recognition on this device is not available for your language). Study in another mode "
    "until you are back online."
)
OFFLINE = (
    "You are offline. Recognition runs on this device and its voices speak, so the drill goes "
    "on; the Scholar's explanations and mnemonics need the network until you are back."
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
        return self.path in ("on-device", "browser-service")


def hands_free(
    *, recognition: bool, on_device: OnDevice, on_device_only: bool, online: bool
) -> Listening:
    rung = choose(
        Means(
            recognition=recognition,
            on_device=on_device,
            on_device_only=on_device_only,
            provider=None,  # hands-free never records for a provider: see above
            online=online,
        )
    )
    if rung.path in ("on-device", "browser-service"):
        return Listening(rung.path, rung.sentence, "" if online else OFFLINE)
    if not recognition:
        return Listening("typing", CANNOT_UNSUPPORTED)
    return Listening("typing", CANNOT_ONLY if on_device_only else CANNOT_OFFLINE)
