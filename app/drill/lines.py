"""What the drill says, as (text, language) parts: each part is spoken in its own voice, so
"The answer is" is said in the UI language and "gato" in Spanish.

Everything said is also shown, so these are whole, plain sentences.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.study.model import StudyCard
from app.studying.past import last_time
from app.studying.summary import Summary, next_due
from app.text.counting import counted, named

# The screen's sentence, so the spoken summary and the shown one agree.

Part = tuple[str, str]  # text, BCP 47 language tag
Lines = tuple[Part, ...]

MISSED_SAID = 10  # missed words read out (and sent for mnemonics); the rest are counted
MNEMONICS_WORDS = 100  # of the Scholar's mnemonics said aloud; the screen shows them all

RIGHT = "Right."
NUDGE = "Say repeat, or I don't know."
NUDGE_CONFIRM = "Say yes or no, or repeat."
YES_OR_NO = "Please say yes or no."
PAUSED = "Paused. Say resume or press Resume."
PAUSED_DEAF = "Paused. Press Resume to go on."
KEEPS_FAILING = "Listening keeps failing."
SAY_AGAIN = "Sorry, I could not hear that. Please say it again."
SKIPPED = "Skipped."
UNDONE = "Undone."
NOTHING_TO_UNDO = "There is nothing to undo yet."
ASKING_SCHOLAR = "Asking the Scholar…"
NO_EXPLANATION = "The Scholar had no explanation this time."
OFFER_MNEMONICS = "Say “help me remember” for a mnemonic of each word you missed."


def said(text: str, lang: str) -> Lines:
    return ((text, lang),)


def reveal(answer: str, answer_lang: str, lang: str) -> Lines:
    return (("The answer is", lang), (f"{answer}.", answer_lang))


def did_you_say(answer: str, answer_lang: str, lang: str) -> Lines:
    return (("Did you say", lang), (f"{answer}?", answer_lang))


def summary(done: Summary, lang: str) -> Lines:
    """How many, how well, the words missed, how the last session of the same scope went and
    when the next reviews are due."""
    if done.cards == 0:
        return said(f"There was nothing to study. {next_due(done)}", lang)
    right = f"{done.correct:,} right ({done.correct / done.cards:.0%})"
    parts = [f"You studied {counted(done.cards, 'card')} and got {right}.", _missed(done.missed)]
    if done.previous is not None:
        parts.append(last_time(done.previous, done.today))
    return said(" ".join([*parts, next_due(done)]), lang)


def _missed(missed: Sequence[str]) -> str:
    return f"You missed {named(missed, MISSED_SAID)}."


def explain_request(card: StudyCard) -> str:
    """What the Scholar is asked when the learner says "what does it mean?"."""
    meanings = "; ".join(card.meanings)
    return (
        f"In two or three short sentences for the ear, explain the word “{card.term}” "
        f"({meanings}) and give one short example. No lists, no headings."
    )


def mnemonics_request(missed: Sequence[str]) -> str:
    """What the Scholar is asked for "help me remember" after the summary."""
    words = ", ".join(f"“{term}”" for term in missed[:MISSED_SAID])
    return (
        f"I just missed these words in a spoken drill: {words}. For each one, give one short "
        "mnemonic in a single sentence for the ear. No lists, no headings."
    )
