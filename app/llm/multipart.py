"""multipart/form-data bodies (RFC 7578), for OpenAI's audio upload endpoint.

The browser's FormData cannot be used: the request is built here, in the core, and handed to
the transport as bytes. Names and file names are escaped the way browsers escape them, so a
quote or line break in one cannot end the header early.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_CRLF = b"\r\n"
_ESCAPES = str.maketrans({'"': "%22", "\r": "%0D", "\n": "%0A"})


@dataclass(frozen=True)
class FilePart:
    name: str
    filename: str
    content_type: str
    data: bytes


def _disposition(name: str, filename: str | None = None) -> bytes:
    line = f'Content-Disposition: form-data; name="{name.translate(_ESCAPES)}"'
    if filename is not None:
        line += f'; filename="{filename.translate(_ESCAPES)}"'
    return line.encode()


def _unused_boundary(contents: Sequence[bytes]) -> str:
    while True:
        boundary = f"lexical-{secrets.token_hex(16)}"
        if not any(boundary.encode() in content for content in contents):
            return boundary


def form_data(
    fields: Mapping[str, str], files: Sequence[FilePart], boundary: str | None = None
) -> tuple[str, bytes]:
    """The Content-Type header value and the body. A `boundary` is only for tests that pin
    the bytes; normally a random one is chosen that appears nowhere in the content."""
    parts = [([_disposition(name)], value.encode()) for name, value in fields.items()] + [
        ([_disposition(f.name, f.filename), f"Content-Type: {f.content_type}".encode()], f.data)
        for f in files
    ]
    contents = [content for _, content in parts]
    if boundary is None:
        boundary = _unused_boundary(contents)
    elif any(boundary.encode() in content for content in contents):
        raise ValueError(f"The boundary {boundary!r} occurs in the content it would separate.")
    delimiter = b"--" + boundary.encode()
    body = bytearray()
    for headers, content in parts:
        body += delimiter + _CRLF + _CRLF.join(headers) + _CRLF + _CRLF + content + _CRLF
    body += delimiter + b"--" + _CRLF
    return f"multipart/form-data; boundary={boundary}", bytes(body)
