"""What a learner can say to the hands-free drill instead of an answer, per UI language.

A command counts only when the whole utterance is the command ("repeat", "say that again",
"please repeat"), never when its words sit inside a longer sentence, so an answer that
contains "stop" or "next" stays an answer. Words are matched folded (case and accents do not
count) and a few fillers ("please", "um") around a command are ignored. Each language keeps
its own phrases; a language without any yet falls back to English, like app/voice/answers.py.

Which of a command and an answer wins is the drill's rule (docs/decisions/019): the reply
it is waiting for (the card's answer said exactly, a clear yes or no) beats a command.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.study.model import Rating
from app.voice.answers import Phrase, tokens


class Command(StrEnum):
    REPEAT = "repeat"
    SLOWER = "slower"
    SKIP = "skip"
    DONT_KNOW = "don't know"
    EXPLAIN = "explain"
    PAUSE = "pause"
    RESUME = "resume"
    STOP = "stop"
    UNDO = "undo"
    AGAIN = "again"
    HARD = "hard"
    GOOD = "good"
    EASY = "easy"
    MNEMONICS = "mnemonics"  # after the summary: mnemonics for the missed words

    @property
    def rating(self) -> Rating | None:
        """The grade a grade word gives; None for every other command."""
        return _RATINGS.get(self)


_RATINGS = {
    Command.AGAIN: Rating.AGAIN,
    Command.HARD: Rating.HARD,
    Command.GOOD: Rating.GOOD,
    Command.EASY: Rating.EASY,
}


@dataclass(frozen=True, slots=True)
class Grammar:
    """The commands of one language: each phrase said in full means its command."""

    phrases: Mapping[Phrase, Command]
    fillers: frozenset[str]  # ignored at either end of an utterance


def _grammar(commands: Mapping[Command, Iterable[str]], fillers: Iterable[str]) -> Grammar:
    said = {tuple(tokens(text)): command for command, texts in commands.items() for text in texts}
    return Grammar(said, frozenset(fillers))


GRAMMARS: Mapping[str, Grammar] = {
    "en": _grammar(
        {
            Command.REPEAT: (
                *("repeat", "repeat that", "repeat it", "say that again", "say it again"),
                *("say again", "once more", "one more time", "come again", "pardon", "what"),
            ),
            Command.SLOWER: ("slower", "slow down", "more slowly", "say it slower", "too fast"),
            Command.SKIP: ("skip", "skip it", "skip this one", "pass", "next", "next one"),
            Command.DONT_KNOW: (
                *("i don't know", "i dont know", "don't know", "dont know", "i do not know"),
                *("no idea", "i have no idea", "no clue", "i give up", "tell me"),
            ),
            Command.EXPLAIN: (
                *("what does it mean", "what does that mean", "what does this mean"),
                *("what's that mean", "whats that mean", "what's it mean", "whats it mean"),
                *("explain", "explain it", "explain that", "what is it", "what's that"),
            ),
            Command.PAUSE: ("pause", "wait", "hold on", "take a break", "break"),
            Command.RESUME: ("resume", "continue", "go on", "carry on", "keep going", "i'm back"),
            Command.STOP: (
                *("stop", "that's enough", "thats enough", "enough", "quit", "i'm done"),
                *("im done", "stop studying", "end", "finish", "exit"),
            ),
            Command.UNDO: ("undo", "undo that", "take that back", "take it back"),
            Command.AGAIN: ("again",),
            Command.HARD: ("hard",),
            Command.GOOD: ("good",),
            Command.EASY: ("easy",),
            Command.MNEMONICS: (
                *("help me remember", "give me mnemonics", "mnemonics", "give me a mnemonic"),
                *(
                    "explain the ones i missed",
                    "explain the words i missed",
                    "help me remember them",
                ),
            ),
        },
        fillers=("please", "um", "uh", "er", "erm", "hmm", "so"),
    ),
}


def grammar(language: str) -> Grammar:
    """The commands for a BCP 47 language tag; English when the language has none yet."""
    primary = language.replace("_", "-").partition("-")[0].strip().lower()
    return GRAMMARS.get(primary, GRAMMARS["en"])


def parse(alternatives: Sequence[str], lang: str) -> Command | None:
    """The command the first hearing that is one says in full, or None."""
    rules = grammar(lang)
    for text in alternatives:
        words = tokens(text)
        while words and words[0] in rules.fillers:
            words.pop(0)
        while words and words[-1] in rules.fillers:
            words.pop()
        command = rules.phrases.get(tuple(words))
        if command is not None:
            return command
    return None


def phrases(lang: str) -> tuple[str, ...]:
    """Every command phrase as text. Each command's usual words come first, then their other
    phrasings, so a list cut short still names every command."""
    by_command: dict[Command, list[str]] = {}
    for phrase, command in grammar(lang).phrases.items():
        by_command.setdefault(command, []).append(" ".join(phrase))
    rounds = itertools.zip_longest(*by_command.values())
    return tuple(text for texts in rounds for text in texts if text is not None)


def hints(lang: str) -> tuple[str, ...]:
    """Each command once, in its usual words: the hints a recogniser is given beside the
    answers. Every phrasing is still understood (`parse`); listing them all as hints would
    crowd out the answers (a provider's prompt is cut at a few hundred characters) and make
    a recogniser that keeps to its hints more likely to mishear."""
    return phrases(lang)[: len(Command)]
