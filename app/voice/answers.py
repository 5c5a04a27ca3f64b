"""Spoken replies read as answers: yes / no to a confirmation, and which option was meant.

Confirming is the one place where a mistake deletes things, so only a clear yes is "yes": a
negation anywhere wins, yes and no together are unclear, and so are silence, "maybe" and
anything else. Words are kept per language (primary subtag, falling back to English) and
matched folded, so case and accents do not matter.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.text.fold import fold

Answer = Literal["yes", "no", "unclear"]
Phrase = tuple[str, ...]

# How alike a heard name must be to an option's for a misheard name still to count.
CLOSE_ENOUGH = 0.8


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The words of one language for answering by voice."""

    yes: frozenset[Phrase]
    no: frozenset[Phrase]
    negators: frozenset[str]  # turn a following yes into a no ("not okay")
    unsure: frozenset[Phrase]  # make the answer unclear whatever else was said
    ordinals: Mapping[str, int]  # "first" → 1 … "last" → -1
    cardinals: Mapping[str, int]  # "two" → 2, counted after a number word or alone
    number_words: frozenset[str]  # "number", "option"


def _phrases(*texts: str) -> frozenset[Phrase]:
    return frozenset(tuple(tokens(text)) for text in texts)


def _positions(words: Iterable[str], last: Iterable[str]) -> dict[str, int]:
    """Position words, one space-separated group of forms per position from 1, then "last"."""
    found = {form: n for n, group in enumerate(words, 1) for form in group.split()}
    return found | dict.fromkeys(last, -1)


def tokens(text: str) -> list[str]:
    """Folded words of `text`; apostrophes stay inside words ("don't", "d'accord")."""
    return re.findall(r"\w+(?:'\w+)*", fold(text.replace("’", "'")))


LEXICONS: Mapping[str, Lexicon] = {
    "en": Lexicon(
        yes=_phrases(
            *("yes", "yeah", "yep", "yup", "sure", "ok", "okay", "alright", "all right"),
            *("do it", "go ahead", "confirm", "confirmed", "of course", "please do", "correct"),
        ),
        no=_phrases(
            *("no", "nope", "nah", "not", "never", "don't", "dont", "do not", "stop", "cancel"),
            *("never mind", "nevermind", "abort", "wait", "hold on", "negative"),
        ),
        negators=frozenset({"not", "don't", "dont", "never", "no"}),
        unsure=_phrases("maybe", "perhaps", "not sure", "don't know", "dont know", "i guess"),
        ordinals=_positions(
            ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"),
            last=("last",),
        ),
        cardinals=_positions(("one", "two", "three", "four", "five", "six", "seven", "eight"), ()),
        number_words=frozenset({"number", "option", "item"}),
    ),
    "es": Lexicon(
        yes=_phrases(
            *("si", "vale", "claro", "de acuerdo", "dale", "hazlo", "adelante", "ok", "okay"),
            *("confirmo", "confirmar", "por supuesto", "correcto"),
        ),
        no=_phrases(
            *("no", "nunca", "cancela", "cancelar", "detente", "alto", "basta", "olvidalo"),
            *("dejalo", "mejor no", "espera"),
        ),
        negators=frozenset({"no", "nunca"}),
        unsure=_phrases("no se", "quizas", "quiza", "tal vez", "a lo mejor"),
        ordinals=_positions(
            (
                *("primero primera primer", "segundo segunda", "tercero tercera tercer"),
                *("cuarto cuarta", "quinto quinta"),
            ),
            last=("ultimo", "ultima"),
        ),
        cardinals=_positions(("uno una", "dos", "tres", "cuatro", "cinco", "seis"), ()),
        number_words=frozenset({"numero", "opcion"}),
    ),
    "fr": Lexicon(
        yes=_phrases(
            *("oui", "ouais", "d'accord", "ok", "okay", "vas y", "allez y", "bien sur"),
            *("confirme", "je confirme", "exactement", "c'est bon"),
        ),
        no=_phrases(
            *("non", "pas", "jamais", "annule", "annuler", "arrete", "stop", "laisse tomber"),
            "attends",
        ),
        negators=frozenset({"pas", "ne", "non", "jamais"}),
        unsure=_phrases("je ne sais pas", "sais pas", "peut etre"),
        ordinals=_positions(
            ("premier premiere", "deuxieme second seconde", "troisieme", "quatrieme"),
            last=("dernier", "derniere"),
        ),
        cardinals=_positions(("un une", "deux", "trois", "quatre", "cinq", "six"), ()),
        number_words=frozenset({"numero", "option"}),
    ),
    "de": Lexicon(
        yes=_phrases(
            *("ja", "jawohl", "genau", "okay", "ok", "klar", "in ordnung", "mach das"),
            *("mach es", "los", "bestatigt", "einverstanden", "richtig", "passt"),
        ),
        no=_phrases(
            *("nein", "nicht", "niemals", "abbrechen", "stopp", "stop", "halt", "lieber nicht"),
            *("vergiss es", "auf keinen fall", "warte"),
        ),
        negators=frozenset({"nicht", "kein", "keine", "nein"}),
        unsure=_phrases("weiss nicht", "vielleicht", "keine ahnung"),
        ordinals=_positions(
            (
                " ".join(f"{stem}{end}" for end in ("", "r", "n", "s"))
                for stem in ("erste", "zweite", "dritte", "vierte", "funfte")
            ),
            last=("letzte", "letzter", "letzten", "letztes"),
        ),
        cardinals=_positions(("eins", "zwei", "drei", "vier", "funf", "sechs"), ()),
        number_words=frozenset({"nummer", "option"}),
    ),
}


def lexicon(language: str) -> Lexicon:
    """The words for a BCP 47 language tag; English when the language has none yet."""
    primary = language.replace("_", "-").partition("-")[0].strip().lower()
    return LEXICONS.get(primary, LEXICONS["en"])


def confirm(reply: str, language: str = "en") -> Answer:
    """Whether a spoken reply confirms: "yes" only when it clearly does."""
    words = tokens(reply)
    lex = lexicon(language)
    if not words or any(_starts(words, phrase) for phrase in lex.unsure):
        return "unclear"
    said_yes = said_no = False
    for phrase in lex.yes:
        for start in _starts(words, phrase):
            if start and words[start - 1] in lex.negators:
                said_no = True
            else:
                said_yes = True
    said_no = said_no or any(_starts(words, phrase) for phrase in lex.no)
    if said_yes == said_no:
        return "unclear"
    return "yes" if said_yes else "no"


def choose(reply: str, options: Sequence[str], language: str = "en") -> int | None:
    """Which option a reply to "Which one?" means, by name, position or a close name; None when
    it names none of them or more than one."""
    words = tokens(reply)
    if not words or not options:
        return None
    names = [_names(option) for option in options]
    named = _named(words, names)
    if named is not None:
        return named if named >= 0 else None
    positions = _said_positions(words, lexicon(language))
    if positions:
        return _position_index(positions, len(options))
    return _closest(words, names)


def _starts(words: Sequence[str], phrase: Phrase) -> list[int]:
    """Where `phrase` occurs in `words`, as whole words."""
    size = len(phrase)
    return [i for i in range(len(words) - size + 1) if tuple(words[i : i + size]) == phrase]


def _names(option: str) -> list[Phrase]:
    """The ways an option can be named: in full, or by its last path part ("Medicine/Verbs")."""
    full = tuple(tokens(option))
    leaf = tuple(tokens(option.rsplit("/", 1)[-1]))
    return [name for name in {full, leaf} if name]


def _named(words: Sequence[str], names: Sequence[list[Phrase]]) -> int | None:
    """The option named in full (the longest name said wins), -1 when two share it, None when
    no name was said."""
    said = [(len(n), i) for i, option in enumerate(names) for n in option if _starts(words, n)]
    if not said:
        return None
    longest = max(size for size, _ in said)
    chosen = {i for size, i in said if size == longest}
    return chosen.pop() if len(chosen) == 1 else -1


def _said_positions(words: Sequence[str], lex: Lexicon) -> set[int]:
    positions: set[int] = set()
    for i, word in enumerate(words):
        digits = re.match(r"\d{1,3}", word)
        if digits:  # "3", "3rd", "3e", "3º"
            positions.add(int(digits.group()))
        elif word in lex.ordinals:
            positions.add(lex.ordinals[word])
        elif word in lex.cardinals and (len(words) == 1 or words[i - 1] in lex.number_words):
            positions.add(lex.cardinals[word])
    return positions


def _position_index(positions: set[int], count: int) -> int | None:
    if len(positions) != 1:
        return None
    (position,) = positions
    index = position - 1 if position > 0 else count + position
    return index if 0 <= index < count and position != 0 else None


def _closest(words: Sequence[str], names: Sequence[list[Phrase]]) -> int | None:
    """The one option whose name sounds most like a run of the reply's words, if close enough."""
    scores: dict[int, float] = {}
    for index, option in enumerate(names):
        for name in option:
            wanted = " ".join(name)
            for start in range(max(len(words) - len(name) + 1, 1)):
                heard = " ".join(words[start : start + len(name)])
                ratio = difflib.SequenceMatcher(None, heard, wanted).ratio()
                scores[index] = max(scores.get(index, 0.0), ratio)
    best = max(scores.values(), default=0.0)
    winners = [i for i, score in scores.items() if score == best]
    return winners[0] if best >= CLOSE_ENOUGH and len(winners) == 1 else None
