"""The drill's clock: how long silence is allowed, how long a grade may still be changed or
"help me remember" said, and the grade a right answer earns by how quickly it came.

Response time runs from the end of the spoken prompt to the recogniser's final result, so it
includes saying the answer and the recogniser noticing the end of speech (about a second). A
provider's words take longer to come back (the upload, the transcription, any retries), which
is not the learner's time: an answer counts as given no later than `FINAL_RESULT_SECONDS` after
the learner's speech ended. A longer answer takes longer to say and to recall, so each band
grows with its length.
"""

from __future__ import annotations

from app.study.model import Rating

NUDGE_SECONDS = 8.0  # of silence before "Say repeat, or I don't know."
PAUSE_SECONDS = 20.0  # of further silence before the drill pauses itself
OVERRIDE_SECONDS = 3.0  # after the feedback, to say another grade before it is written
FINAL_RESULT_SECONDS = 1.0  # from the end of speech to a browser recogniser's final result
OFFER_SECONDS = 10.0  # listened for "help me remember" after the summary is said

# Seconds allowed: a base plus so much per character of the answer.
EASY_BASE, EASY_PER_CHAR = 2.0, 0.08
GOOD_BASE, GOOD_PER_CHAR = 5.0, 0.15
LENGTH_CAP = 40  # characters; a longer answer (a whole phrase) gets no more time


def rating_for(seconds: float, answer: str) -> Rating:
    """The grade of a right answer given `seconds` after the prompt: Easy, Good or Hard."""
    length = min(len(answer), LENGTH_CAP)
    if seconds <= EASY_BASE + EASY_PER_CHAR * length:
        return Rating.EASY
    if seconds <= GOOD_BASE + GOOD_PER_CHAR * length:
        return Rating.GOOD
    return Rating.HARD
