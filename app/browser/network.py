"""Whether the browser can reach the network, and the "Offline" indicator in the top bar.

The app itself never needs the network after its first visit (the service worker keeps it);
features that do (the AI agents) read `NetworkStatus.online` to say they are offline instead
of failing with a network error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser.dom import by_id


class NetworkStatus:
    """Shows the indicator while the browser reports being offline."""

    def __init__(self, listen: Callable[[Any, str, Any], None]) -> None:
        self.indicator = by_id("network-status")
        for event in ("online", "offline"):
            listen(js.window, event, lambda _event: self.show())
        self.show()

    @property
    def online(self) -> bool:
        return bool(js.navigator.onLine)

    def show(self) -> None:
        self.indicator.hidden = self.online
