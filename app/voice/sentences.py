"""Where sentences end, for speaking text a sentence at a time while it may still be arriving.

A stop ends a sentence only when what follows shows it does: whitespace after ".", "!", "?" or
"…" (so "3.5", "wait…what" and URLs stay whole), or any character after the ideographic 。！？.
A single "." after an abbreviation, an initial or a list number at the start of a line does not
end one. While text streams, a stop at the very end is undecided until the next character comes,
which is what keeps the result independent of how the text was cut into pieces.
"""

from __future__ import annotations

import re

from app.text.fold import fold

ABBREVIATIONS = frozenset(
    {
        *("mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "cf", "approx", "fig"),
        *("vol", "pp", "ca", "viz", "resp", "dept", "est", "eg", "ie", "no", "nos", "nr"),
        # Spanish, French, German
        *("sra", "srta", "ud", "uds", "pag", "mme", "mlle", "bzw", "ggf", "vgl", "evtl"),
        *("p.ej", "z.b", "u.a", "d.h", "s.o"),
    }
)
_STOP = re.compile(r"[.!?…。！？]+[\"'”’)\]»」』]*")
_WIDE_STOPS = frozenset("。！？")
_DOTTED = re.compile(r"(?:\w\.)+\w")
_SPACES = re.compile(r"\s+")
_OPENERS = "\"'“‘([¿¡«"


def split_sentences(text: str) -> list[str]:
    """Every sentence of a finished text; line breaks end sentences too."""
    return [s for line in text.split("\n") for s in split_line(line)[0]]


def split_line(line: str, *, line_start: bool = True, final: bool = True) -> tuple[list[str], str]:
    """The complete sentences of one line of text and the undecided tail.

    `line_start` says whether `line` begins its line (a leading "1." is then a list marker);
    with `final` the end of the text ends the last sentence, so the tail is always empty.
    """
    done: list[str] = []
    start = 0
    for stop in _STOP.finditer(line):
        end = stop.end()
        if end == len(line):
            if not final:
                break
        elif not (_WIDE_STOPS & set(stop.group()) or line[end].isspace()):
            continue
        if stop.group().rstrip(_CLOSERS) == "." and _keeps_going(
            line, start, stop.start(), line_start
        ):
            continue
        done.append(line[start:end].strip())
        start = end
    tail = line[start:].lstrip()
    if final and tail.strip():
        done.append(tail.strip())
        tail = ""
    return [s for s in done if s], tail


_CLOSERS = "\"'”’)]»」』"


def _keeps_going(line: str, start: int, dot: int, line_start: bool) -> bool:
    """Whether the word before the "." at `dot` is one that a full stop does not end."""
    # Any whitespace ends the word, as it does where streaming strips it off a tail.
    begins = max((space.end() for space in _SPACES.finditer(line, 0, dot)), default=0)
    word = line[begins:dot].lstrip(_OPENERS)
    if not word:
        return False
    first_word = line_start and start == 0 and not line[:begins].strip()
    return (
        fold(word) in ABBREVIATIONS
        or (len(word) == 1 and word.isalpha())
        or _DOTTED.fullmatch(word) is not None
        or (first_word and word.isdigit() and len(word) <= 9)
    )
