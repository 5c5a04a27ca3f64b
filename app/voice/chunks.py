"""Speaking an answer while it streams: complete sentences out as soon as they are known.

Markdown cannot be cleaned one delta at a time ("**" may close in the next delta), so the
chunker only emits whole pieces of source: a sentence once the character after its stop has
arrived, a line once it ends, and a fenced code block or a table only once it is complete.
Each piece is then made speakable on its own. Every decision depends only on text already
received, so any split of the answer into deltas says the same sentences. After the word budget
it says "Want more?" once and keeps the rest for "more".
"""

from __future__ import annotations

from collections.abc import Iterator

from app.voice.sentences import split_line
from app.voice.speakable import WANT_MORE, WORD_BUDGET, more, speakable_sentences

_FENCES = ("```", "~~~")


class SentenceChunker:
    """Feed the answer's deltas in order, then flush once at its end."""

    def __init__(self, budget: int = WORD_BUDGET, offer: str = WANT_MORE) -> None:
        self._budget = max(budget, 1)
        self._offer = offer
        self._pending = ""  # source received but not yet spoken or kept
        self._line_start = True  # whether `_pending` begins a line
        self._words = 0
        self._rest: list[str] = []

    @property
    def rest(self) -> str:
        """What "more" continues with once the budget is spent ("" while none is left)."""
        return " ".join(self._rest)

    def feed(self, delta: str) -> list[str]:
        """The sentences that `delta` completes, ready to be spoken."""
        self._pending += delta
        return self._speak(final=False)

    def flush(self) -> list[str]:
        """The sentences left when the answer has ended."""
        return self._speak(final=True)

    def _speak(self, final: bool) -> list[str]:
        said: list[str] = []
        for piece in self._pieces(final):
            for sentence in speakable_sentences(piece):
                said += self._within_budget(sentence)
        return said

    def _within_budget(self, sentence: str) -> list[str]:
        if self._rest:
            self._rest.append(sentence)
            return []
        words = len(sentence.split())
        if self._words + words <= self._budget:
            self._words += words
            return [sentence]
        if self._words:
            self._rest.append(sentence)
            return [self._offer]
        first = more(sentence, self._budget, self._offer)
        self._rest.append(first.rest)
        return [first.text]

    def _pieces(self, final: bool) -> Iterator[str]:
        """Whole pieces of source taken off the front of `_pending`, for as long as any is."""
        while self._pending:
            taken = self._line_piece(final) if self._line_start else self._mid_line(final)
            if taken is None:
                return
            yield from taken

    def _line_piece(self, final: bool) -> list[str] | None:
        """Pieces from the start of a line: a block that must be whole, or the line's sentences."""
        end = self._pending.find("\n")
        line = self._pending if end < 0 else self._pending[:end]
        head = line.lstrip()
        if head.startswith(_FENCES):
            return self._take_block(_fence_end(self._pending, head), final)
        if head.startswith("|"):
            return self._take_block(_table_end(self._pending), final)
        return self._mid_line(final)

    def _mid_line(self, final: bool) -> list[str] | None:
        end = self._pending.find("\n")
        line = self._pending if end < 0 else self._pending[:end]
        done, tail = split_line(line, line_start=self._line_start, final=final or end >= 0)
        if end >= 0:
            self._pending, self._line_start = self._pending[end + 1 :], True
        elif done or final:
            self._pending, self._line_start = tail, False
        else:
            return None
        return done

    def _take_block(self, end: int | None, final: bool) -> list[str] | None:
        if end is None and not final:
            return None
        end = len(self._pending) if end is None else end
        block, self._pending = self._pending[:end], self._pending[end:]
        self._line_start = True
        return [block]


def _fence_end(text: str, head: str) -> int | None:
    """Where the code block opened by the first line of `text` ends, once its closing line has."""
    marker = head[0] * (len(head) - len(head.lstrip(head[0])))
    position = text.find("\n") + 1
    while position:
        end = text.find("\n", position)
        if end < 0:
            return None
        closing = text[position:end].strip()
        if closing.startswith(marker) and not closing.strip(marker[0]):
            return end + 1
        position = end + 1
    return None


def _table_end(text: str) -> int | None:
    """Where the table starting `text` ends, once the line after its last row has begun."""
    position = 0
    while True:
        end = text.find("\n", position)
        if end < 0:
            return None
        following = text[end + 1 :].lstrip(" \t")
        if following and not following.startswith("|"):
            return end + 1
        if not following:
            return None
        position = end + 1
