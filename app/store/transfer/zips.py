"""Reading one member of an untrusted zip archive (an Anki package) without being fooled.

Nothing is ever extracted to disk. The archive is refused if it has too many entries or an
entry whose name climbs out of its folder (`../`, absolute paths); a member is read only if it
is stored or deflated, not encrypted, declares a size within the limit and a believable
compression ratio, and it is read in chunks that stop as soon as more comes out than declared.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from app.domain import InvalidInput
from app.store.transfer import MAX_ZIP_ENTRIES

READ_CHUNK = 1 << 20
MAX_RATIO = 200  # real SQLite collections deflate 3-20x; bombs deflate thousands of times
RATIO_FLOOR = 1 << 20  # small members may compress as well as they like


def open_zip(data: bytes, what: str) -> zipfile.ZipFile:
    """The archive in `data`; `what` names it in messages ("Anki package")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise InvalidInput(
            f"This {what} is damaged or truncated: it is not a readable zip archive."
        ) from exc
    if len(infos) > MAX_ZIP_ENTRIES:
        raise InvalidInput(f"This {what} has {len(infos):,} files in it, which is too many.")
    for info in infos:
        if _unsafe(info.filename):
            raise InvalidInput(
                f'This {what} contains a file with an unsafe name ("{info.filename[:80]}"); '
                "it was not made by Anki."
            )
    return archive


def _unsafe(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return (
        name.startswith(("/", "\\"))
        or ".." in parts
        or (len(name) > 1 and name[1] == ":")
        or "\x00" in name
    )


def read_member(archive: zipfile.ZipFile, name: str, limit: int, what: str) -> bytes:
    info = archive.getinfo(name)
    megabytes = f"{info.file_size / 1_048_576:,.0f} MB"
    if info.file_size > limit:
        raise InvalidInput(
            f"This {what} unpacks to {megabytes}; Lexical reads at most {limit // 1_048_576:,} MB."
        )
    if info.flag_bits & 0x1:
        raise InvalidInput(f"This {what} is encrypted, so it cannot be read.")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise InvalidInput(f"This {what} uses a compression Lexical cannot read.")
    if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise InvalidInput(f"This {what} expands suspiciously ({megabytes} from very little).")
    return _read_bounded(archive, info, what)


def _read_bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, what: str) -> bytes:
    out = bytearray()
    try:
        with archive.open(info) as member:
            while chunk := member.read(READ_CHUNK):
                out += chunk
                if len(out) > info.file_size:
                    raise InvalidInput(f"This {what} holds more data than it declares.")
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise InvalidInput(f"This {what} is damaged or truncated ({exc}).") from exc
    if len(out) != info.file_size:
        raise InvalidInput(f"This {what} is damaged or truncated.")
    return bytes(out)
