"""Asking in words to study a folder hands-free: "start studying Cardiology", "study Cardiology
hands-free", "quiz me on Cardiology".

The assistant checks every request with `wanted` before routing it, so starting a drill needs
no provider and works offline. The folder is found by its name with case, accents and
punctuation not counting; a name that fits no folder, or several, gets a sentence naming the
candidates instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from app.domain import Folder, FolderId
from app.text.counting import listed
from app.voice.answers import tokens

# On folded words ("hands-free" is "hands free"); the name is everything in between.
_ASKS = (
    re.compile(
        r"(?:start|begin) (?:studying|to study|reviewing|drilling) (?P<name>.+?)(?: hands free)?"
    ),
    re.compile(r"study (?P<name>.+?) hands free"),
    re.compile(r"(?:quiz|drill|test) me (?:on|about) (?P<name>.+?)(?: hands free)?"),
)
_FILLERS = ("please", "now", "let's", "can you", "could you", "i want to")
_ARTICLES = ("the ", "my ")
_FOLDER = " folder"
NAMED_MAX = 5  # candidates named in a sentence


@dataclass(frozen=True, slots=True)
class Found:
    folder_id: FolderId


@dataclass(frozen=True, slots=True)
class NotFound:
    """Why no folder was chosen, naming the candidates."""

    message: str


def wanted(text: str) -> str | None:
    """The folder name (folded words) that `text` asks to study hands-free, else None."""
    words = _trim(" ".join(tokens(text)))
    for ask in _ASKS:
        match = ask.fullmatch(words)
        if match:
            return match["name"]
    return None


def _trim(words: str) -> str:
    """Drop the fillers around a request ("please", "now")."""
    changed = True
    while changed:
        changed = False
        for filler in _FILLERS:
            if words.startswith(f"{filler} "):
                words, changed = words[len(filler) + 1 :], True
            if words.endswith(f" {filler}"):
                words, changed = words[: -len(filler) - 1], True
    return words


def choose(
    name: str, folders: Sequence[Folder], path: Callable[[FolderId], str]
) -> Found | NotFound:
    """The one folder called `name` (as `wanted` gives it); `path` names a folder in full,
    to tell apart folders of the same name."""
    if not folders:
        return NotFound("There are no folders to study yet: add a folder of words first.")
    for candidate in _forms(name):
        same = [f for f in folders if " ".join(tokens(f.name)) == candidate]
        if len(same) == 1:
            return Found(same[0].id)
        if same:
            paths = listed([f"“{path(f.id)}”" for f in same[:NAMED_MAX]])
            return NotFound(
                f"Several folders are called “{same[0].name}”: {paths}. "
                "Open the one you mean and press Hands-free."
            )
    return NotFound(_unknown(name, folders))


def _forms(name: str) -> list[str]:
    """The name as said, then without "the"/"my" and a trailing "folder"."""
    forms = [name]
    for article in _ARTICLES:
        if name.startswith(article):
            forms.append(name[len(article) :])
    forms += [form[: -len(_FOLDER)] for form in list(forms) if form.endswith(_FOLDER)]
    return forms


def _unknown(name: str, folders: Sequence[Folder]) -> str:
    said = set(name.split())
    near = [f.name for f in folders if said & set(tokens(f.name))]
    if near:
        return f"There is no folder called “{name}”. Did you mean {_named(near, 'or')}?"
    everyone = _named([f.name for f in folders], "and")
    return f"There is no folder called “{name}”. Your folders include {everyone}."


def _named(names: list[str], conjunction: str) -> str:
    return listed([f"“{n}”" for n in names[:NAMED_MAX]], conjunction)
