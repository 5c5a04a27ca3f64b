"""Pairing a device with a sync server: the address, the sync code, and what the toolbar says.

The sync code is a random secret of 128 bits: it names the collection's room on the server
(the URL's path), so whoever knows it can read and write the collection. The server is reached
over TLS (`wss://`) except on this computer, where `ws://` to a loopback address is allowed
(decision 041). Kept in the browser's storage as JSON under `PAIRING_KEY`; the server's origin
is listed under `CONNECT_KEY` so static/connect.js lets the page connect to it, and nothing more.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.domain import InvalidInput

PAIRING_KEY = "lexical-sync"
CONNECT_KEY = "lexical-connect-sync"  # static/connect.js adds the origin listed here
CODE_BYTES = 16  # 128 bits
CODE = re.compile(r"^[a-z2-7]{26}$")  # base32 of 16 bytes, lower case, no padding
LOOPBACK = ("127.0.0.1", "localhost")

SYNCED = "Synced"
SYNCING = "Syncing…"
OFFLINE = "Offline: changes will sync"
# The server closed the connection on an update over its message limit (scripts/sync_server.py).
TOO_BIG = "Not synced: too big for the server"
TOO_BIG_HELP = (
    "The sync server refused an update this big. Start it with a higher --max-message-mb "
    "(README, Sync between devices), then reload this page."
)


def new_code() -> str:
    """A fresh sync code: 128 random bits, as 26 letters and digits easy to type."""
    return base64.b32encode(secrets.token_bytes(CODE_BYTES)).decode().rstrip("=").lower()


def server_origin(address: str) -> str:
    """`ws[s]://host[:port]` of a sync server address; raises InvalidInput when it is not one
    the page may use: `wss://` anywhere, `ws://` only to this computer."""
    try:
        parts = urlsplit(address.strip())
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise InvalidInput("The server address is not a valid address.") from error
    if parts.scheme not in ("ws", "wss") or not host or not re.fullmatch(r"[a-z0-9.-]+", host):
        raise InvalidInput("The server address starts with wss:// (or ws:// on this computer).")
    if parts.scheme == "ws" and host not in LOOPBACK:
        raise InvalidInput("Use wss:// for a server on another computer: ws:// is not encrypted.")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise InvalidInput("The server address is only its origin (no path).")
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


@dataclass(frozen=True)
class Pairing:
    server: str  # an origin, as `server_origin` gives
    code: str

    @classmethod
    def made(cls, address: str, code: str) -> Pairing:
        code = code.strip().lower()
        if not CODE.match(code):
            raise InvalidInput(
                "The sync code is 26 letters and digits (2-7), as shown on the paired device."
            )
        return cls(server_origin(address), code)

    def text(self) -> str:
        return json.dumps({"server": self.server, "code": self.code})

    def document_name(self) -> str:
        """The IndexedDB database that keeps this device's copy of the collection's document
        (static/sync.js `restore`): one per sync code, whatever the server's address."""
        return f"lexical-sync-document-{self.code}"

    def connect_list(self) -> str:
        """What static/connect.js reads under `CONNECT_KEY`."""
        return json.dumps([self.server])


def read_pairing(text: str | None) -> Pairing | None:
    """The saved pairing, or None when there is none or it is damaged."""
    try:
        data = json.loads(text) if text else None
        return Pairing.made(str(data["server"]), str(data["code"])) if data else None
    except (ValueError, KeyError, TypeError, InvalidInput):
        return None


class ProviderStatus:
    """The provider's state as the toolbar should see it. y-websocket announces "connecting"
    before each attempt to reach the server again (every 2.5 s at most while it is down), and
    static/sync.js reports each failed attempt as "disconnected": once the server is lost,
    this device stays offline until a connection opens, instead of saying "Syncing…" between
    two failed attempts. An update the server refused as too big ("refused") is said until
    the page reloads: the provider would send it again, be refused again, and in between
    report itself synced with the server's copy, which lacks everything of this device's."""

    def __init__(self) -> None:
        self.state = "connecting"

    def seen(self, state: str, synced: bool) -> tuple[str, bool]:
        """What to show for the provider's latest report."""
        if self.state == "refused":
            return self.state, False
        if not (state == "connecting" and self.state == "disconnected"):
            self.state = state
        return self.state, synced and self.state == "connected"


def status_help(state: str) -> str:
    """What the toolbar's status says on hover: what to do about it, where there is something."""
    return TOO_BIG_HELP if state == "refused" else ""


def status_label(state: str, synced: bool, writing: float | None = None) -> str:
    """The toolbar's words for the provider's state ("connected", "connecting", ...), and
    how far a big update has been written (`writing`, 0 to 1) while it is."""
    if writing is not None:
        return f"{SYNCING} {int(writing * 100)}%"
    if state == "connected":
        return SYNCED if synced else SYNCING
    if state == "refused":
        return TOO_BIG
    return SYNCING if state == "connecting" else OFFLINE
