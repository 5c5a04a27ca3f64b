"""The hands-free drill: a study session asked, answered and graded by voice.

For each card it says the prompt, listens in the answer's language, grades what was heard
(right: by response time; near: "Did you say …?" and a yes or no decides; wrong: the answer
and Again), says the feedback, gives a few seconds to say another grade, writes the grade and
goes on. Commands work at any time; silence gets one prompt and then a pause, never a grade.

The browser feeds `Drill.handle` the events it sees, each with its time in seconds, and
performs the effects it returns, in order. The drill never listens while it speaks: `Listen`
comes only after the `SpeechDone` of the last `Say`. What is heard while it speaks (a
recogniser that was still running) is obeyed only as a command that is not an echo of the
speech, and never graded. Every grade goes through the study session, which writes it at
once; the drill keeps no storage of its own, so a reload resumes at the session's card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from app.drill import lines
from app.drill.commands import Command, hints, parse
from app.drill.events import (
    AudioStarted,
    Awaiting,
    Begin,
    Button,
    Effect,
    Effects,
    Event,
    Explain,
    Explained,
    ExplainFailed,
    Finished,
    Heard,
    Interim,
    Listen,
    ListenFailed,
    Remind,
    Say,
    SpeechDone,
    StopListening,
    StopSpeaking,
    Tick,
)
from app.drill.lines import Lines
from app.drill.timing import (
    FINAL_RESULT_SECONDS,
    NUDGE_SECONDS,
    OFFER_SECONDS,
    OVERRIDE_SECONDS,
    PAUSE_SECONDS,
    rating_for,
)
from app.speech.voices import word_lang
from app.study.model import Rating, StudyCard
from app.studying.session import Counts, StudySession
from app.voice.answers import lexicon, tokens
from app.voice.listening import GETTING_READY
from app.voice.problems import Problem
from app.voice.reply import Confirmed, interpret
from app.voice.restarts import Restarts
from app.voice.speakable import speak

# Once finished, with words missed: the summary is being said, then "help me remember" is
# listened for, then the Scholar is asked; "" once nothing more is awaited.
Offer = Literal["", "saying", "listening", "asking"]
Phase = Literal[
    "ready",  # before Begin
    "saying",  # the app speaks; `then` is where it goes when done
    "answering",  # listening for the card's answer
    "confirming",  # listening for yes or no to "Did you say …?"
    "feedback",  # the grade is decided but not written: another grade word may replace it
    "explaining",  # waiting for the Scholar's explanation
    "paused",
    "finished",
]
LISTENING: frozenset[Phase] = frozenset({"answering", "confirming", "feedback", "paused"})

RATE_STEP = 0.8  # each "slower" multiplies the speaking rate by this
RATE_MIN = 0.5
EXPLANATION_WORDS = 60  # of the Scholar's answer said aloud; the drill goes on after them
HINT_ANSWERS = 20  # other answers from the card's folder given as hints with its own
LOST_CAP = 3  # utterances in a row the provider could not transcribe before pausing


@dataclass(frozen=True, slots=True)
class DrillState:
    """Everything the drill remembers besides the session; a fresh one is ready to begin."""

    phase: Phase = "ready"
    then: Phase = "answering"  # while saying: the phase once it is said
    said: int = 0  # id of the last Say
    speech: str = ""  # the text of the last speech, as shown
    rate: float = 1.0
    listening: bool = False  # a Listen is under way
    hearing: bool = False  # and its recogniser has the microphone's sound (only with listening)
    listened_at: float = 0.0  # when the last Listen was asked for
    listen_at: float | None = None  # after a quick failure: when to listen again (a Tick does)
    awaiting: int = 0  # this session's utterances still being transcribed
    restarts: Restarts = field(default_factory=Restarts)
    lost: int = 0  # utterances in a row the provider failed to transcribe
    deaf: bool = False  # listening failed for good: only a button resumes
    asked_at: float | None = None  # when the prompt had been said: response time runs from here
    spoke_at: float | None = None  # the learner's last sign of speech since then
    quiet_since: float = 0.0
    nudged: bool = False
    heard: str = ""
    suggested: Rating | None = None  # the grade decided and about to be written
    deadline: float | None = None  # when the suggested grade is written
    graded: Rating | None = None  # the last grade written
    question: Lines = ()  # the prompt, question or feedback that "repeat" says again
    after_explaining: Lines = ()  # said after the explanation (the answer, when not yet said)
    offer: Offer = ""
    offer_until: float | None = None  # when listening for "help me remember" ends


@dataclass(frozen=True, slots=True)
class DrillView:
    """What the screen shows: the card's prompt, what was heard and said, the grade, the
    cards left and one status line."""

    phase: Phase
    prompt: str
    heard: str
    said: str
    grade: str
    counts: Counts
    listening: bool
    hearing: bool  # what the learner says now is heard
    status: str


class Drill:
    """One hands-free run over a study session; `lang` is the UI language (its commands)."""

    def __init__(self, session: StudySession, lang: str) -> None:
        self.session = session
        self.lang = lang
        self.state = DrillState()

    @property
    def over(self) -> bool:
        """Finished, and not offering or giving mnemonics for the missed words any more."""
        return self.state.phase == "finished" and not self.state.offer

    # --- events -------------------------------------------------------------------------------

    def handle(self, event: Event) -> Effects:
        """The effects of `event`, in order; the drill's state moves on."""
        state = self.state
        if isinstance(event, AudioStarted):  # in any phase: only what the screen says changes
            self.state = replace(state, hearing=state.listening)
            return ()
        if state.phase == "finished":
            return self._afterwards(event)
        match event:
            case Begin(at=at):
                return self._ask(at) if state.phase == "ready" else ()
            case SpeechDone(said=said, at=at):
                return self._speech_done(said, at)
            case Heard(alternatives=alternatives, at=at):
                return self._heard(tuple(a for a in alternatives if a.strip()), at)
            case Interim(at=at):
                asked = state.asked_at is not None and at >= state.asked_at
                self.state = replace(state, quiet_since=at, spoke_at=at if asked else None)
                if state.phase == "feedback" and state.deadline is not None:
                    # The learner is saying something (another grade, "stop"): hear it out.
                    held = max(state.deadline, at + OVERRIDE_SECONDS)
                    self.state = replace(self.state, deadline=held)
                return ()
            case Awaiting(at=at, done=done):
                awaiting = max(state.awaiting + (-1 if done else 1), 0)
                self.state = replace(state, awaiting=awaiting, quiet_since=at)
                return ()
            case Tick(at=at):
                return self._tick(at)
            case ListenFailed(problem=found, at=at):
                return self._listen_failed(found, at)
            case Explained(text=text, at=at) | ExplainFailed(message=text, at=at):
                return self._explained(text) if state.phase == "explaining" else ()
            case Button(command=command, at=at):
                return self._button(command, at)

    def _speech_done(self, said: int, at: float) -> Effects:
        state = self.state
        if state.phase != "saying" or said != state.said:
            return ()  # a cut-off or earlier speech
        self.state = replace(state, phase=state.then, quiet_since=at)
        if state.then == "feedback":
            self.state = replace(self.state, deadline=at + OVERRIDE_SECONDS)
        return self._listen(at)

    def _heard(self, alternatives: tuple[str, ...], at: float) -> Effects:
        state = self.state
        heard = state.restarts.heard()
        self.state = replace(state, listening=False, awaiting=0, restarts=heard, lost=0)
        if not alternatives:
            return self._listen(at)  # nothing was said: never graded
        if state.phase in LISTENING or state.phase == "saying":
            self.state = replace(self.state, heard=alternatives[0], quiet_since=at)
        match state.phase:
            case "saying":
                return self._interrupted(alternatives, at)
            case "answering":
                return self._answer(alternatives, at)
            case "confirming":
                return self._confirm(alternatives, at)
            case "feedback" | "paused":
                command = parse(alternatives, self.lang)
                return self._listen(at) if command is None else self._command(command, at)
            case _:
                return ()

    def _interrupted(self, alternatives: tuple[str, ...], at: float) -> Effects:
        """Heard while speaking: a command is obeyed, anything else (an answer given too early,
        the app's own voice) is dropped."""
        command = parse(alternatives, self.lang)
        if command is None or self._echo(alternatives) or self.state.then in ("finished", "ready"):
            return ()
        self.state = replace(self.state, phase=self.state.then)
        return (StopSpeaking(), *self._command(command, at))

    def _answered(self, heard_at: float) -> float:
        """When the answer was given: its words' arrival, but no later than the end of the
        learner's speech plus what a browser's recogniser takes to give them (the bands assume
        that second; a provider's upload and transcription are not the learner's time)."""
        spoke_at = self.state.spoke_at
        return heard_at if spoke_at is None else min(heard_at, spoke_at + FINAL_RESULT_SECONDS)

    def _echo(self, alternatives: Sequence[str]) -> bool:
        speech = " ".join(tokens(self.state.speech))
        return any(f" {' '.join(tokens(a))} " in f" {speech} " for a in alternatives)

    def _answer(self, alternatives: tuple[str, ...], at: float) -> Effects:
        """The card's answer said exactly beats a command with the same words; otherwise a
        command beats an answer."""
        spoken = self.session.hear(alternatives)
        rating = rating_for(self._answered(at) - (self.state.asked_at or at), spoken.matched or "")
        if spoken.heard == "right":
            return self._feedback(lines.said(lines.RIGHT, self.lang), rating)
        command = parse(alternatives, self.lang)
        if command is not None:
            return self._command(command, at)
        card = self._card()
        match spoken.heard:
            case "near":
                near = spoken.matched or card.answers[0]
                question = lines.did_you_say(near, self._answer_lang(card), self.lang)
                self.state = replace(self.state, question=question)
                return self._say(question, "confirming")
            case "wrong":
                return self._feedback(self._reveal(card), Rating.AGAIN)
            case _:
                return self._listen(at)

    def _confirm(self, alternatives: tuple[str, ...], at: float) -> Effects:
        """A clear yes or no beats a command ("stop" and "wait" say no here)."""
        reply = interpret(alternatives, confirming=True, more_waiting=False, lang=self.lang)
        if isinstance(reply, Confirmed):
            if reply.yes:
                # As StudySession.confirm_spoken: the learner's word is taken, but it was not
                # heard clearly, so Hard unless they say another grade.
                return self._feedback(lines.said(lines.RIGHT, self.lang), Rating.HARD)
            return self._feedback(self._reveal(self._card()), Rating.AGAIN)
        command = parse(alternatives, self.lang)
        if command is not None:
            return self._command(command, at)
        return self._say(lines.said(lines.YES_OR_NO, self.lang) + self.state.question, "confirming")

    def _tick(self, at: float) -> Effects:
        state = self.state
        if state.listen_at is not None and at >= state.listen_at:
            self.state = replace(state, listen_at=None)
            return self._listen(at)
        if state.awaiting:
            return ()
        if state.phase == "feedback" and state.deadline is not None and at >= state.deadline:
            return self._next(at, self._suggested())
        if state.phase not in ("answering", "confirming") or state.deaf:
            return ()
        silent = at - state.quiet_since
        if state.nudged and silent >= PAUSE_SECONDS:
            return self._pause()
        if not state.nudged and silent >= NUDGE_SECONDS:
            self.state = replace(state, nudged=True)
            nudge = lines.NUDGE if state.phase == "answering" else lines.NUDGE_CONFIRM
            return self._say(lines.said(nudge, self.lang), state.phase)
        return ()

    def _listen_failed(self, found: Problem, at: float) -> Effects:
        self.state = replace(self.state, listening=False, awaiting=0)
        if self.state.phase not in LISTENING:
            return ()
        if found.code == "provider" and found.recoverable:
            return self._not_heard(found)
        delay = self._again(found, at)
        if delay == 0:
            return self._listen(at)  # the silence clock keeps running
        if delay is not None:
            self.state = replace(self.state, listen_at=at + delay)
            return ()
        self.state = replace(self.state, deaf=True, listen_at=None)
        why = lines.said(found.message, self.lang)
        if found.recoverable:  # it kept failing: say so before what would fix it
            why = lines.said(lines.KEEPS_FAILING, self.lang) + why
        return self._pause(why + lines.said(lines.PAUSED_DEAF, self.lang))

    def _not_heard(self, found: Problem) -> Effects:
        """The provider failed to transcribe what the learner said (busy, a server error, the
        network): ask them to say it again, and pause once it keeps failing."""
        failures = self.state.lost + 1
        if failures >= LOST_CAP:
            self.state = replace(self.state, deaf=True, lost=0, listen_at=None)
            why = lines.said(lines.KEEPS_FAILING, self.lang) + lines.said(found.message, self.lang)
            return self._pause(why + lines.said(lines.PAUSED_DEAF, self.lang))
        # Like "repeat", the response time starts again: the lost answer was not slow.
        self.state = replace(self.state, lost=failures, asked_at=None, spoke_at=None)
        return self._say(lines.said(lines.SAY_AGAIN, self.lang), self.state.phase)

    def _again(self, found: Problem, at: float) -> float | None:
        """Seconds to wait before listening again after `found` (None: not again)."""
        if not found.recoverable:
            return None
        restarts, delay = self.state.restarts.failed(self.state.listened_at, at)
        self.state = replace(self.state, restarts=restarts)
        return delay

    def _explained(self, text: str) -> Effects:
        """Say the Scholar's answer made for the ear and kept short (the screen has it all)."""
        short = speak(text, EXPLANATION_WORDS, offer="").text.strip() or lines.NO_EXPLANATION
        told = lines.said(short, self.lang) + self.state.after_explaining
        return self._say(told, "feedback")

    def _button(self, command: Command, at: float) -> Effects:
        state = self.state
        if state.phase == "ready":
            return ()
        if state.phase != "saying":
            return self._command(command, at)
        if state.then == "finished":
            return ()
        self.state = replace(state, phase=state.then)
        return (StopSpeaking(), *self._command(command, at))

    # --- commands -----------------------------------------------------------------------------

    def _command(self, command: Command, at: float) -> Effects:
        """Obey `command` in the current phase (never "saying")."""
        phase = self.state.phase
        decided = phase in ("feedback", "explaining")  # the grade is chosen, not yet written
        rating = command.rating
        if rating is not None:
            return self._next(at, rating, () if decided else self._reveal(self._card()))
        match command:
            case Command.SLOWER:
                self.state = replace(self.state, rate=max(self.state.rate * RATE_STEP, RATE_MIN))
                return self._repeat(at, decided)
            case Command.REPEAT:
                return self._repeat(at, decided)
            case Command.DONT_KNOW:
                return self._feedback(self._reveal(self._card()), Rating.AGAIN)
            case Command.EXPLAIN | Command.MNEMONICS:
                return () if phase == "explaining" else self._explain(decided)
            case Command.STOP:
                self._write()
                return self._finish()
            case Command.UNDO:
                return self._undo(at, decided)
            case _:
                return self._move(command, at, decided)

    def _repeat(self, at: float, decided: bool) -> Effects:
        phase = self.state.phase
        if phase in ("answering", "paused"):
            return self._ask(at)
        return self._say(self.state.question, "feedback" if decided else phase)

    def _move(self, command: Command, at: float, decided: bool) -> Effects:
        """Skip, pause and resume. Once a grade is decided, skip and resume mean "go on"."""
        phase = self.state.phase
        if command == Command.PAUSE:
            return self._listen(at) if phase == "paused" else self._pause()
        if decided:
            return self._next(at, self._suggested())
        if command == Command.SKIP:
            self.session.skip()
            return self._ask(at, lines.said(lines.SKIPPED, self.lang))
        return self._ask(at) if phase == "paused" else self._listen(at)

    def _explain(self, decided: bool) -> Effects:
        """Asking what the word means is asking for its answer: unless it was said already,
        the explanation ends with it and the card is graded Again (another grade may be said
        after it, as after any feedback)."""
        card = self._card()
        reveal = () if decided else self._reveal(card)
        question = self.state.question if decided else reveal
        self.state = replace(
            self.state,
            suggested=self._suggested() if decided else Rating.AGAIN,
            question=question,
            after_explaining=reveal,
            deadline=None,
        )
        hush = self._hush()
        self.state = replace(self.state, phase="explaining", speech=lines.ASKING_SCHOLAR)
        return (*hush, Explain(card))

    def _undo(self, at: float, decided: bool) -> Effects:
        """Take back the last grade and ask its card again; the grade not yet written, when
        there is one, is the last grade."""
        if decided:
            self.state = replace(self.state, suggested=None)
            return self._ask(at, lines.said(lines.UNDONE, self.lang))
        if self.session.undo():
            return self._ask(at, lines.said(lines.UNDONE, self.lang))
        phase = self.state.phase
        return self._say(lines.said(lines.NOTHING_TO_UNDO, self.lang), phase)

    # --- moves --------------------------------------------------------------------------------

    def _ask(self, at: float, before: Lines = ()) -> Effects:
        """Say the current card's prompt (after `before`) and then listen for its answer."""
        turn = self.session.turn
        if turn is None:
            return self._finish(before)
        card = turn.card
        prompt_lang = self._term_lang(card) if card.direction == "forward" else self.lang
        prompt = lines.said(card.prompt, prompt_lang)
        self.state = replace(
            self.state,
            asked_at=None,
            spoke_at=None,
            nudged=False,
            deaf=False,
            heard="",
            suggested=None,
            deadline=None,
            question=prompt,
        )
        return self._say(before + prompt, "answering")

    def _feedback(self, told: Lines, rating: Rating) -> Effects:
        self.state = replace(self.state, suggested=rating, question=told, deadline=None)
        return self._say(told, "feedback")

    def _next(self, at: float, rating: Rating, before: Lines = ()) -> Effects:
        self.state = replace(self.state, suggested=rating)
        self._write()
        return self._ask(at, before)

    def _pause(self, told: Lines = ()) -> Effects:
        self._write()
        return self._say(told or lines.said(lines.PAUSED, self.lang), "paused")

    def _finish(self, before: Lines = ()) -> Effects:
        summary = self.session.finish()
        offer = lines.said(lines.OFFER_MNEMONICS, self.lang) if summary.missed else ()
        spoken = self._say(before + lines.summary(summary, self.lang) + offer, "finished")
        # Nothing is awaited, not even the summary's end, unless mnemonics are offered.
        self.state = replace(self.state, phase="finished", offer="saying" if offer else "")
        return (*spoken, Finished(summary))

    # --- after the summary --------------------------------------------------------------------

    def _afterwards(self, event: Event) -> Effects:
        """Once finished: listen a while for "help me remember", ask the Scholar, say it."""
        state = self.state
        match event:
            case SpeechDone(said=said, at=at) if state.offer == "saying" and said == state.said:
                self.state = replace(state, offer="listening", offer_until=at + OFFER_SECONDS)
                return self._listen_afterwards(at)
            case Heard(alternatives=alternatives, at=at) if state.offer == "listening":
                self.state = replace(state, listening=False, heard=alternatives[0])
                asked = parse(alternatives, self.lang) if alternatives else None
                if asked in (Command.MNEMONICS, Command.EXPLAIN):
                    return self._remind()
                return self._end_offer() if asked is not None else self._listen_afterwards(at)
            case ListenFailed(problem=found, at=at) if state.offer == "listening":
                self.state = replace(state, listening=False)
                # The offer lasts seconds: listen again only after a failure that took a while.
                if self._again(found, at) == 0:
                    return self._listen_afterwards(at)
                return self._end_offer()
            case Tick(at=at) if state.offer == "listening" and at >= (state.offer_until or at):
                return self._end_offer()
            case Button(command=command) if state.offer in ("saying", "listening"):
                if command in (Command.MNEMONICS, Command.EXPLAIN):
                    return self._remind()
                return self._end_offer()
            case Explained(text=text) | ExplainFailed(message=text) if state.offer == "asking":
                short = speak(text, lines.MNEMONICS_WORDS, offer="").text.strip()
                told = self._say(lines.said(short or lines.NO_EXPLANATION, self.lang), "finished")
                self.state = replace(self.state, phase="finished", offer="", speech=text)
                return told
            case _:
                return ()

    def _listen_afterwards(self, at: float) -> Effects:
        self.state = replace(self.state, listening=True, hearing=False, listened_at=at)
        return (Listen(self.lang, hints(self.lang)),)

    def _remind(self) -> Effects:
        hush = (StopSpeaking(),) if self.state.offer == "saying" else self._hush()
        summary = self.session.summary
        missed = () if summary is None else summary.missed[: lines.MISSED_SAID]
        self.state = replace(self.state, offer="asking", speech=lines.ASKING_SCHOLAR)
        return (*hush, Remind(missed))

    def _end_offer(self) -> Effects:
        hush = self._hush()
        self.state = replace(self.state, offer="", offer_until=None)
        return hush

    def _write(self) -> None:
        """Write the decided grade, if there is one: once, through the session."""
        rating = self.state.suggested
        if rating is None:
            return
        self.session.grade(rating)
        self.state = replace(self.state, suggested=None, graded=rating, deadline=None)

    def _say(self, told: Lines, then: Phase) -> Effects:
        """Stop listening or speaking, say `told` part by part, go to `then` once said."""
        hush = self._hush()
        first = self.state.said + 1
        says = tuple(
            Say(text, lang, self.state.rate, first + i) for i, (text, lang) in enumerate(told)
        )
        self.state = replace(
            self.state,
            phase="saying",
            then=then,
            said=self.state.said + len(says),
            speech=" ".join(text for text, _ in told),
        )
        return (*hush, *says)

    def _hush(self) -> Effects:
        hush: list[Effect] = []
        if self.state.listening:
            hush.append(StopListening())
        self.state = replace(self.state, listening=False, awaiting=0)
        return tuple(hush)

    def _listen(self, at: float) -> Effects:
        """Listen for what the phase waits for; nothing when it waits for nothing."""
        state = self.state
        if state.phase not in LISTENING or state.deaf or state.listening:
            return ()
        card = self._card()
        commands = hints(self.lang)
        match state.phase:
            case "answering":
                # The folder's other answers too: a recogniser biased to the card's own words
                # would hear a wrong answer as the right one, or as nothing.
                others = self.session.store.study.distractors(card, HINT_ANSWERS)
                lang, expected = self._answer_lang(card), (*card.answers, *others, *commands)
                self.state = replace(state, asked_at=state.asked_at or at)
            case "confirming":
                words = lexicon(self.lang)
                lang, expected = self.lang, (*_said(words.yes), *_said(words.no), *commands)
            case _:
                lang, expected = self.lang, commands
        self.state = replace(
            self.state, listening=True, hearing=False, listened_at=at, listen_at=None, awaiting=0
        )
        return (Listen(lang, expected),)

    # --- helpers ------------------------------------------------------------------------------

    def _card(self) -> StudyCard:
        turn = self.session.turn
        assert turn is not None, "the drill asks only while the session has a card"
        return turn.card

    def _suggested(self) -> Rating:
        return self.state.suggested or Rating.GOOD

    def _reveal(self, card: StudyCard) -> Lines:
        return lines.reveal(card.answers[0], self._answer_lang(card), self.lang)

    def _term_lang(self, card: StudyCard) -> str:
        return word_lang(card.lang, self.session.store.default_lang(card.folder_id), self.lang)

    def _answer_lang(self, card: StudyCard) -> str:
        """Meanings are in the UI language; a reverse card is answered with the term."""
        return self._term_lang(card) if card.direction == "reverse" else self.lang

    # --- the screen ---------------------------------------------------------------------------

    def view(self) -> DrillView:
        state, turn = self.state, self.session.turn
        shown = state.suggested or state.graded
        return DrillView(
            phase=state.phase,
            prompt="" if turn is None or state.phase == "finished" else turn.card.prompt,
            heard=state.heard,
            said=state.speech,
            grade="" if shown is None else shown.label,
            counts=self.session.counts,
            listening=state.listening,
            hearing=state.listening and state.hearing,
            status=_status(state),
        )


def _said(words: frozenset[tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(sorted(" ".join(phrase) for phrase in words))


_STATUS: dict[Phase, str] = {
    "ready": "Ready to study hands-free.",
    "saying": "Speaking…",
    "answering": "Listening for the answer…",
    "confirming": "Listening for yes or no…",
    "feedback": "Say again, hard, good or easy to change the grade.",
    "explaining": lines.ASKING_SCHOLAR,
    "paused": lines.PAUSED,
    "finished": "Session complete.",
}


def _status(state: DrillState) -> str:
    pausing = state.phase == "saying" and state.then == "paused"
    phase = "paused" if pausing else state.phase
    if phase == "paused" and state.deaf:
        return lines.PAUSED_DEAF
    if phase in ("answering", "confirming") and state.listening and not state.hearing:
        return GETTING_READY  # a word said now would lose its start
    return _STATUS[phase]
