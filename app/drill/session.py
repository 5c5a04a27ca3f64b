"""The study session as the drill needs it: spoken answers graded against the current card,
and a skip that leaves a card ungraded.

A `StudySession` whose two additions need its internals (how a folder compares answers, how
the next card is presented); `DrillSession.start` and `DrillSession.resume` build one like a
plain session, so a reload resumes a drill exactly as it resumes any study session.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.study.session import StudySession
from app.study.spoken import SpokenGrade, grade_spoken


class DrillSession(StudySession):
    def spoken(self, alternatives: Sequence[str]) -> SpokenGrade:
        """Grade the recogniser's hearings of an answer to the current card; writes nothing."""
        card = self._asking().card
        return grade_spoken(alternatives, card.answers, self._compare(card))

    def skip(self) -> None:
        """Leave the current card ungraded for the rest of this session (it stays due, so a
        later session asks it) and present the next; a reload resumes at that next card."""
        if self.turn is None:
            return
        self.queue.drop(self.turn.card.key)
        upcoming = self.queue.next(self._clock())
        self.store.study.update_session(self.row.id, current=upcoming)
        self._present(upcoming)
