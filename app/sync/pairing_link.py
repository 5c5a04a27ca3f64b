"""The pairing link: the app's own address with the server and sync code in its fragment.

    https://host/lexical/#pair=wss%3A%2F%2Fsync.example.org&code=<26 letters and digits>

A paired device shows it as a QR code; the phone's camera opens it, and the app there fills in
the Sync dialog from it (the user still presses Pair). The secret travels in the fragment
because browsers never send a fragment to the server that serves the page (decision 042). A
link is read with the same rules as typed input (`Pairing.made`), and anyone can make one: it
is an offer to check, never a pairing by itself.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, quote

from app.domain import InvalidInput
from app.sync.pairing import Pairing

PREFIX = "pair="
# A link the app makes is about 100 characters; anything far longer is not one of ours, and is
# refused before it is parsed.
MAX_FRAGMENT = 1_000
NOT_A_LINK = "This pairing link is damaged: open the one your other device shows."
ALREADY_PAIRED = "This device is already paired: unpair it first to pair it from the link."


def pairing_link(page: str, pairing: Pairing) -> str:
    """The link that pairs another device: `page` (this app's address, any fragment dropped)
    with the server and code in the fragment."""
    base = page.split("#", 1)[0]
    return f"{base}#{PREFIX}{quote(pairing.server, safe='')}&code={pairing.code}"


def read_pairing_link(fragment: str) -> Pairing | None:
    """The pairing a page's fragment (`location.hash`) offers; None when the fragment is not a
    pairing link (a folder's deep link, say). Raises InvalidInput, with what is wrong, when it
    is one but cannot pair: damaged, or naming a server or code the dialog would refuse."""
    text = fragment.removeprefix("#")
    if not text.startswith(PREFIX):
        return None
    if len(text) > MAX_FRAGMENT:
        raise InvalidInput(NOT_A_LINK)
    try:
        # Strict: a stray "&", a second "code", or percent-escapes that are not UTF-8 are damage.
        fields = parse_qsl(text, strict_parsing=True, errors="strict", max_num_fields=2)
    except ValueError as error:  # UnicodeDecodeError is one too
        raise InvalidInput(NOT_A_LINK) from error
    values = dict(fields)
    if len(values) != len(fields) or set(values) != {"pair", "code"}:
        raise InvalidInput(NOT_A_LINK)
    try:
        return Pairing.made(values["pair"], values["code"])
    except InvalidInput as error:
        raise InvalidInput(f"This pairing link cannot be used. {error}") from error
