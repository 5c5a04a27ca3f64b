"""What a spoken utterance is for: the answer to an open confirmation, "more" of the last
spoken answer, or a new request for the assistant.

The recogniser gives several hearings, best first. For a confirmation, the best clear one
decides, and hearings that disagree (one "yes", one "no") make it unclear: the app asks again
rather than guess where a guess can delete things.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.voice.answers import choose, confirm, tokens

MORE_WORDS = frozenset(
    {"more", "continue", "go on", "keep going", "tell me more", "yes", "yes please", "sure", "ok"}
)
MORE_MAX_WORDS = 4  # "yes, tell me more" is asking for more; a longer sentence is a request


@dataclass(frozen=True, slots=True)
class Confirmed:
    yes: bool


@dataclass(frozen=True, slots=True)
class Unclear:
    """A reply to a confirmation that is neither a clear yes nor a clear no."""


@dataclass(frozen=True, slots=True)
class More:
    """The rest of the answer that was cut short for the ear."""


@dataclass(frozen=True, slots=True)
class Ask:
    """A new request for the assistant."""

    text: str


Reply = Confirmed | Unclear | More | Ask


def interpret(
    hearings: Sequence[str],
    *,
    confirming: bool,
    more_waiting: bool,
    lang: str = "en",
    choices: Sequence[str] = (),
) -> Reply:
    """What the user meant; `hearings` are the recogniser's alternatives, best first.
    `choices` are the items the assistant just asked the user to pick from ("Which one?"):
    a reply that picks one ("the first one", its name) names it for the assistant."""
    best = hearings[0] if hearings else ""
    if confirming:
        answers = {confirm(text, lang) for text in hearings} - {"unclear"}
        return Confirmed(answers == {"yes"}) if len(answers) == 1 else Unclear()
    words = tokens(best)
    if more_waiting and 0 < len(words) <= MORE_MAX_WORDS and _asks_for_more(words):
        return More()
    picked = choose(best, choices, lang) if choices else None
    return Ask(best if picked is None else f'{best} (I mean "{choices[picked]}")')


def _asks_for_more(words: list[str]) -> bool:
    said = " ".join(words)
    return said in MORE_WORDS or "more" in words or "continue" in words or " go on " in f" {said} "
