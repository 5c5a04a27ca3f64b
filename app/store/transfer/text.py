"""Bytes to text for imported files: UTF-8 with or without a byte-order mark (and UTF-16 with
one, as spreadsheets save "Unicode text"), with a message that says where a bad byte is."""

from __future__ import annotations

import codecs

from app.domain import InvalidInput

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode_text(data: bytes, what: str, how: str = "") -> str:
    """Decode an imported text file; `what` names it in messages ("backup", "CSV file"),
    `how` says where to choose UTF-8 when saving it again."""
    if data.startswith(_UTF16_BOMS):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"This {what} says it is UTF-16 but is not.") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InvalidInput(
            f"This {what} is not UTF-8 text (byte 0x{data[exc.start]:02X} on line {line:,} "
            f"cannot be read). Save it as UTF-8{how} and try again."
        ) from exc
    if "\x00" in text:
        raise InvalidInput(f"This {what} contains binary data, not text.")
    return text
