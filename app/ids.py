"""Global ids: UUIDv7 text for every synced row, and the ids derived from them (issue 27).

Integer ids stay local to one database; a global id names a row on every device and in every
backup. UUIDv7 (RFC 9562) starts with the creation time in milliseconds, so ids made on one
device sort in the order they were made, and rows created close together sit close together in
the unique index. Python has `uuid.uuid7` only from 3.14 (the page's Pyodide); the tests run on
an older CPython, so it is written here, to the RFC, and both runtimes make the same kind of id.
"""

from __future__ import annotations

import os
import time

_VERSION = 0x7 << 76  # the 4-bit version field after the 48-bit time
_VARIANT = 0b10 << 62  # RFC 9562's variant in the two bits after the 12 bits of rand_a
_RAND_A_MAX = 0xFFF
_last = (0, 0)  # (ms, rand_a) of the newest id, to keep ids made in one millisecond in order


def uuid7(at_ms: int | None = None) -> str:
    """A new UUIDv7 as 36-character lowercase text.

    With `at_ms` (a row that already exists, numbered by the time it was made) the id is that
    millisecond and random bits. Without it, the clock's millisecond; ids made in the same
    millisecond (a bulk add) count up in rand_a (RFC 9562 section 6.2, method 1), so they still
    sort in the order they were made, and a clock that steps back never makes ids sort
    backwards."""
    global _last  # noqa: PLW0603 (one counter per process, as the RFC's method describes)
    random = int.from_bytes(os.urandom(10))
    # A fresh millisecond's counter starts in the lower half of rand_a, leaving room to count.
    rand_a, rand_b = random >> 69, random & ((1 << 62) - 1)
    if at_ms is None:
        ms = max(time.time_ns() // 1_000_000, _last[0])
        if ms == _last[0]:
            if _last[1] >= _RAND_A_MAX:
                ms += 1  # 4,096 ids in one millisecond: borrow the next one
                rand_a = 0
            else:
                rand_a = _last[1] + 1
        _last = (ms, rand_a)
    else:
        ms = at_ms
    value = (ms & ((1 << 48) - 1)) << 80 | _VERSION | rand_a << 64 | _VARIANT | rand_b
    text = f"{value:032x}"
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def uuid7_ms(gid: str) -> int:
    """The millisecond a UUIDv7 was made at."""
    return int(gid.replace("-", "")[:12], 16)


def card_gid(word_gid: str, direction: str) -> str:
    """A card's global id: its word's and its direction. Two devices that study one word's
    direction offline make one card, since a card is the replay of its reviews anyway."""
    return f"{word_gid}:{direction}"
